import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { breakGlassApprover, setUpFirstApprover } from '@payout/use-cases';
import {
  AdminRefusal,
  enrollmentFilePath,
  forgetCredential,
  postPublic,
  readSavedEnrollment,
  saveEnrollment,
  type SavedEnrollment,
} from '../admin-client.js';
import { usernameArgument } from '../arguments.js';
import type { CommandContext, SignInSettings } from '../context.js';
import { show, showResult } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

/*
 * A person's own enrollment from the terminal (docs/operations.md, "People and roles"), and the two doors that
 * make an approver without a second one, with the database credential ("A new installation", "Break-glass").
 * The enrollment's secret is kept in a file only its person can read, beside their sign-in; what they read out
 * to others is its fingerprint.
 */
export function registerEnrollCommands(program: Command, context: () => CommandContext): void {
  program
    .command('enroll')
    .description(
      'enroll yourself: opens an enrollment (read its fingerprint to the person adding you), then, once approved, sets your password and authenticator',
    )
    .requiredOption('--name <username>', 'your console sign-in name', usernameArgument)
    .option('--password-stdin', 'read your new password from stdin (a pipe) instead of the terminal')
    .option('--code <code>', "your authenticator app's current code for the key shown (asked for at the terminal)")
    .action(async (opts: { name: string; passwordStdin?: boolean; code?: string }) => {
      const ctx = context();
      const settings = ctx.signIn();
      const file = enrollmentFilePath(settings.credentialFile, opts.name);
      const saved = await readSavedEnrollment(file);
      if (!saved) {
        await openEnrollment(ctx, settings, file, opts.name);
        return;
      }
      await continueEnrollment(ctx, settings, file, saved, opts);
    });

  program
    .command('setup')
    .description(
      'a new installation: make its first approver (you), with the database credential; then `pnpm cli enroll --name <you>`',
    )
    .requiredOption('--name <username>', 'your console sign-in name', usernameArgument)
    .action(async (opts: { name: string }) => {
      const ctx = context();
      const made = await setUpFirstApprover({ db: ctx.db() }, { username: opts.name, runBy: osUser() });
      if (made.kind === 'bad-username') throw new UsageError('--name is not a console sign-in name');
      if (made.kind === 'set-up-already') {
        throw new CommandFailure(
          'this installation was set up before (or has people): people are added by request, and a lost last approver is break-glass (docs/operations.md)',
        );
      }
      await keepForEnrollment(ctx, made);
      showResult(ctx.out, { username: made.username, role: 'approver', fingerprint: made.fingerprint }, [
        `You are this installation's first approver, awaiting your own enrollment. Run \`pnpm cli enroll --name ${made.username}\` now to choose your password and set up your authenticator.`,
        'Until a second approver has enrolled the installation is in setup: you add people alone (audited), and no money request can be approved.',
      ]);
    });

  program
    .command('break-glass')
    .description('emergencies with the database credential (docs/operations.md, "Break-glass")')
    .command('approver')
    .description('when no enrolled approver is left: make you (or a named person) an approver awaiting enrollment')
    .requiredOption('--name <username>', 'who becomes approver (enrolls at this terminal)', usernameArgument)
    .requiredOption('--why <reason>', 'why (the audit log keeps it, and the alert shows it)')
    .action(async (opts: { name: string; why: string }) => {
      const ctx = context();
      const why = opts.why.trim();
      if (!why) throw new UsageError('--why is required: the audit log keeps it');
      const made = await breakGlassApprover({ db: ctx.db() }, { username: opts.name, runBy: osUser(), why });
      if (made.kind === 'bad-username') throw new UsageError('--name is not a console sign-in name');
      if (made.kind === 'approvers-left') {
        throw new CommandFailure(
          `refused: ${made.enrolledApprovers} enrolled approver(s) remain — they add people by request; nothing changed`,
        );
      }
      await keepForEnrollment(ctx, made);
      showResult(
        ctx.out,
        { username: made.username, role: 'approver', fingerprint: made.fingerprint, breakGlass: true },
        [
          `Break-glass: ${made.username} is an approver awaiting enrollment; this is in the audit log and pages the on-call. Run \`pnpm cli enroll --name ${made.username}\` to finish.`,
        ],
      );
    });
}

/** The name the machine knows the person running a database command by, for the audit log. */
function osUser(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

async function keepForEnrollment(
  ctx: CommandContext,
  made: { username: string; secret: string; fingerprint: string },
): Promise<void> {
  const settings = ctx.signIn();
  await saveEnrollment(enrollmentFilePath(settings.credentialFile, made.username), {
    adminUrl: settings.adminUrl,
    username: made.username,
    secret: made.secret,
    fingerprint: made.fingerprint,
    expiresAt: new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString(),
  });
}

async function openEnrollment(ctx: CommandContext, settings: SignInSettings, file: string, username: string) {
  const opened = await postPublic<{ secret: string; fingerprint: string; expiresAt: string }>(
    settings.adminUrl,
    '/admin/enrollments',
    { username },
  );
  await saveEnrollment(file, { adminUrl: settings.adminUrl, username, ...opened });
  showResult(ctx.out, { username, state: 'waiting', fingerprint: opened.fingerprint, expiresAt: opened.expiresAt }, [
    `Read this fingerprint to the person asking for your account: ${opened.fingerprint}`,
    `Once another approver has approved it, run \`pnpm cli enroll --name ${username}\` again here to finish.`,
  ]);
}

async function continueEnrollment(
  ctx: CommandContext,
  settings: SignInSettings,
  file: string,
  saved: SavedEnrollment,
  opts: { name: string; passwordStdin?: boolean; code?: string },
) {
  let standing: { state: 'waiting' | 'approved'; fingerprint?: string };
  try {
    standing = await postPublic(saved.adminUrl, '/admin/enrollments/standing', { secret: saved.secret });
  } catch (error) {
    if (error instanceof AdminRefusal && error.status === 404) {
      await forgetCredential(file);
      throw new CommandFailure(
        'your enrollment has expired or was spent: run this command again to open a new one (nothing else changed)',
      );
    }
    throw error;
  }
  if (standing.state === 'waiting') {
    showResult(ctx.out, { username: saved.username, state: 'waiting', fingerprint: saved.fingerprint }, [
      `Not approved yet. The request for you must name fingerprint ${saved.fingerprint}.`,
    ]);
    return;
  }
  const offered = await postPublic<{ seed: string; uri: string }>(saved.adminUrl, '/admin/enrollments/second-factor', {
    secret: saved.secret,
  });
  const code = opts.code ?? (settings.terminal ? await askAfterShowing(ctx, settings, offered) : undefined);
  if (!code) {
    showResult(ctx.out, { username: saved.username, state: 'approved', seed: offered.seed, uri: offered.uri }, [
      `Approved. Add this key to your authenticator app: ${offered.seed}`,
      `Then run \`pnpm cli enroll --name ${saved.username} --code <its current code> --password-stdin\` with your new password piped in.`,
    ]);
    return;
  }
  const password = await newPassword(settings, opts.passwordStdin === true);
  const finished = await postPublic<{
    username: string;
    role: string;
    recoveryCodes: string[];
    setupComplete: boolean;
  }>(saved.adminUrl, '/admin/enrollments/finish', { secret: saved.secret, password, code: code.trim() });
  await forgetCredential(file);
  show(
    ctx.out,
    { username: finished.username, role: finished.role, state: 'enrolled', recoveryCodes: finished.recoveryCodes },
    [
      { rows: [{ username: finished.username, role: finished.role, state: 'enrolled' }] },
      {
        title: 'Recovery codes: keep them offline; each works once in place of a code, and they are never shown again',
        rows: finished.recoveryCodes.map((recoveryCode) => ({ recoveryCode })),
      },
      { rows: [{ next: `pnpm cli login --name ${finished.username}` }] },
    ],
  );
}

async function askAfterShowing(
  ctx: CommandContext,
  settings: SignInSettings,
  offered: { seed: string; uri: string },
): Promise<string> {
  // Beside the prompt (stderr), so a --json answer on stdout stays one document.
  const say = ctx.progress?.write ?? ((line: string) => ctx.out.write(line));
  say(`Add this key to your authenticator app: ${offered.seed}`);
  say(`(or open ${offered.uri} on the phone that holds it)`);
  return settings.readPassword('The code your app shows now: ');
}

async function newPassword(settings: SignInSettings, fromStdin: boolean): Promise<string> {
  if (fromStdin) return (await settings.readStdin()).replace(/\r?\n$/, '');
  if (!settings.terminal)
    throw new CommandFailure('no terminal to read your new password from: pipe it in with --password-stdin');
  const first = await settings.readPassword('Your new password (at least 12 characters): ');
  const again = await settings.readPassword('The same again: ');
  if (first !== again) throw new CommandFailure('the two passwords differ; nothing changed — run the command again');
  return first;
}
