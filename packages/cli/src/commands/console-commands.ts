import type { Command } from 'commander';
import { listSealedSeeds, storeResealedSeeds } from '@payout/db';
import { CONSOLE_ROLES, openSeed, sealedUnderOldKey, sealSeed, type ConsoleRole } from '@payout/domain';
import { usernameArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show, showResult } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

/**
 * The people who sign in to the console and act through the admin API (docs/operations.md, "People and
 * roles"). Adding a person, changing a role and a reset are requests sent with your own credential, which
 * another approver approves; the person added or reset has opened their own enrollment and read you its
 * fingerprint, which the request names. Nobody is handed a password. Disabling a person is an approver's
 * alone. In setup, an approver's change runs at once on their `--code`.
 */
export function registerConsoleCommands(program: Command, context: () => CommandContext): void {
  const consoleCommand = program.command('console').description('the support console');
  const user = consoleCommand.command('user').description('people who sign in to the console and the admin API');

  const codeOption = [
    '--code <code>',
    'your authenticator code: needed while the installation is in setup, where an approver changes people alone',
  ] as const;
  const fingerprintOption = [
    '--fingerprint <XXXX-XXXX>',
    'the fingerprint the person read you from their own enrollment (/console/enroll or pnpm cli enroll)',
  ] as const;

  user
    .command('add')
    .description('ask to add a person who has opened their own enrollment (another approver approves)')
    .requiredOption('--name <username>', 'sign-in name: lower-case letters, digits, . _ -', usernameArgument)
    .requiredOption(
      '--role <role>',
      "support (reads), operator (also acts and requests money actions) or approver (also approves others' requests)",
      roleArgument,
    )
    .requiredOption(...fingerprintOption)
    .requiredOption('--why <reason>', 'why this person needs access (the approver reads it)')
    .option(...codeOption)
    .action(async (opts: { name: string; role: ConsoleRole; fingerprint: string; why: string; code?: string }) => {
      const ctx = context();
      const answer = await ctx.admin().post('/admin/users', {
        username: opts.name,
        role: opts.role.toLowerCase(),
        fingerprint: opts.fingerprint,
        why: whyOf(opts.why),
        ...(opts.code && { code: opts.code }),
      });
      showRequest(ctx, answer);
    });

  user
    .command('role')
    .description("ask to change a person's role (another approver approves)")
    .requiredOption('--name <username>', 'sign-in name', usernameArgument)
    .requiredOption('--role <role>', 'support, operator or approver', roleArgument)
    .requiredOption('--why <reason>', 'why (the approver reads it)')
    .option(...codeOption)
    .action(async (opts: { name: string; role: ConsoleRole; why: string; code?: string }) => {
      const ctx = context();
      const answer = await ctx.admin().post(`/admin/users/${opts.name}/role`, {
        role: opts.role.toLowerCase(),
        why: whyOf(opts.why),
        ...(opts.code && { code: opts.code }),
      });
      showRequest(ctx, answer);
    });

  user
    .command('reset-password')
    .description(
      'ask to reset a person who lost their password or authenticator and opened a new enrollment (another approver approves); ends their sessions and keys',
    )
    .requiredOption('--name <username>', 'sign-in name', usernameArgument)
    .requiredOption(...fingerprintOption)
    .requiredOption('--why <reason>', 'why (the approver reads it)')
    .option(...codeOption)
    .action(async (opts: { name: string; fingerprint: string; why: string; code?: string }) => {
      const ctx = context();
      const answer = await ctx.admin().post(`/admin/users/${opts.name}/password-reset`, {
        fingerprint: opts.fingerprint,
        why: whyOf(opts.why),
        ...(opts.code && { code: opts.code }),
      });
      showRequest(ctx, answer);
    });

  user
    .command('disable')
    .description('stop a person at once: no sign-in, every session, key and sign-in ended (approvers only)')
    .requiredOption('--name <username>', 'sign-in name', usernameArgument)
    .requiredOption('--why <reason>', 'why (it goes to the audit log)')
    .action(async (opts: { name: string; why: string }) => {
      const ctx = context();
      const answer = await ctx
        .admin()
        .post<{ user: { username: string; role: string; disabled: boolean } }>(`/admin/users/${opts.name}/disable`, {
          why: whyOf(opts.why),
        });
      showResult(ctx.out, answer.user);
    });

  consoleCommand
    .command('second-factor')
    .description('second factors, with the database credential')
    .command('reseal')
    .description(
      'seal every TOTP seed again under SECOND_FACTOR_KEY (after a key rotation; docs/operations.md, "Second factor")',
    )
    .action(async () => {
      const ctx = context();
      if (!ctx.secondFactor) {
        throw new CommandFailure('set SECOND_FACTOR_KEY (and SECOND_FACTOR_PREVIOUS_KEYS) as the API has them');
      }
      const { keys } = ctx.secondFactor;
      let resealed = 0;
      const unopened: number[] = [];
      for (const row of await listSealedSeeds(ctx.db())) {
        const again = (sealed: string | null) => {
          if (sealed === null || !sealedUnderOldKey(sealed, keys)) return sealed;
          const seed = openSeed(sealed, keys);
          if (seed === null) return undefined;
          return sealSeed(seed, keys);
        };
        const totpSealed = again(row.totpSealed);
        const totpPendingSealed = again(row.totpPendingSealed);
        if (totpSealed === undefined || totpPendingSealed === undefined) {
          unopened.push(row.id);
          continue;
        }
        if (totpSealed === row.totpSealed && totpPendingSealed === row.totpPendingSealed) continue;
        await storeResealedSeeds(ctx.db(), row.id, { totpSealed, totpPendingSealed });
        resealed += 1;
      }
      showResult(ctx.out, { resealed, unopened: unopened.length }, [
        unopened.length === 0
          ? 'Every seed is sealed under SECOND_FACTOR_KEY: the previous keys may be removed.'
          : `${unopened.length} seed(s) are under no configured key: keep SECOND_FACTOR_PREVIOUS_KEYS until they are, or reset those people.`,
      ]);
    });
}

interface RequestAnswer {
  approval?: { id: string; action: string; state: string; summary?: string; preview?: { summary?: string } };
}

/**
 * A people change the admin API stored as a request: its id, and who must act next — or, in setup, the
 * change an approver made alone.
 */
function showRequest({ out }: CommandContext, answer: RequestAnswer): void {
  const approval = answer.approval;
  if (!approval) throw new CommandFailure('the admin listener answered without the request');
  if (approval.state === 'EXECUTED') {
    show(out, { approvalId: approval.id, ...approval }, [
      {
        title: `Done at once (setup: no second approver has enrolled yet; the audit log keeps it)`,
        rows: [
          {
            id: approval.id,
            action: approval.action,
            state: approval.state,
            summary: approval.preview?.summary ?? approval.action,
          },
        ],
      },
    ]);
    return;
  }
  show(out, { approvalId: approval.id, ...approval }, [
    {
      title: `Request ${approval.id} made: nothing happens until another approver approves it`,
      rows: [
        {
          id: approval.id,
          action: approval.action,
          state: approval.state,
          summary: approval.preview?.summary ?? approval.action,
        },
      ],
    },
    { rows: [{ approve: `pnpm cli approval approve --id ${approval.id}  (as another approver)` }] },
  ]);
}

function whyOf(text: string | undefined): string {
  const why = text?.trim();
  if (!why) throw new UsageError('--why is required: the approver reads it, and it goes to the audit log');
  return why;
}

function roleArgument(text: string): ConsoleRole {
  const role = CONSOLE_ROLES.find((r) => r === text.toUpperCase());
  if (!role) throw new UsageError(`--role must be support, operator or approver: got "${text}"`);
  return role;
}
