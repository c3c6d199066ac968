import type { Command } from 'commander';
import {
  createAdminClient,
  forgetCredential,
  postPublic,
  readSavedCredential,
  saveCredential,
} from '../admin-client.js';
import { usernameArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { showResult } from '../output.js';
import { CommandFailure } from '../usage-error.js';

interface SignInAnswer {
  token: string;
  prefix: string;
  expiresAt: string;
  username: string;
  role: string;
}

/**
 * Signing the CLI in and out as a person (docs/operations.md, "Security model"): `login` trades your console
 * password for a short-lived credential of your own (POST /admin/sign-in), kept in a file only you can read;
 * every command that acts as a person then sends it. `logout` revokes it and removes the file; `whoami`
 * asks the admin listener who the credential in use proves.
 */
export function registerLoginCommands(program: Command, context: () => CommandContext): void {
  program
    .command('login')
    .description('sign in as yourself: your console password, read from the terminal without echo')
    .requiredOption('--name <username>', 'your console sign-in name', usernameArgument)
    .option('--password-stdin', 'read the password from stdin (a pipe) instead of the terminal')
    .option('--code <code>', 'a current code from your authenticator app (asked for at the terminal when omitted)')
    .action(async (opts: { name: string; passwordStdin?: boolean; code?: string }) => {
      const ctx = context();
      const settings = ctx.signIn();
      // A pipe ends with the line break `echo` adds: it is no part of the password.
      const password = opts.passwordStdin
        ? (await settings.readStdin()).replace(/\r?\n$/, '')
        : await settings.readPassword(`Password for ${opts.name}: `);
      if (!password) throw new CommandFailure('no password given; nothing changed');
      const code =
        opts.code ??
        (settings.terminal ? await settings.readPassword('Code from your authenticator app: ') : undefined);
      const answer = await signInAt(settings.adminUrl, opts.name, password, code);
      await saveCredential(settings.credentialFile, {
        adminUrl: settings.adminUrl,
        token: answer.token,
        username: answer.username,
        expiresAt: answer.expiresAt,
      });
      showResult(
        ctx.out,
        { username: answer.username, role: answer.role, prefix: answer.prefix, expiresAt: answer.expiresAt },
        [
          `Signed in. The sign-in is kept in ${settings.credentialFile} (only you can read it); \`pnpm cli logout\` ends it.`,
        ],
      );
    });

  program
    .command('logout')
    .description('end the sign-in `login` kept: revoked on the server, and its file removed')
    .action(async () => {
      const ctx = context();
      const settings = ctx.signIn();
      const saved = await readSavedCredential(settings.credentialFile);
      let revoked = false;
      if (saved) {
        try {
          await createAdminClient({ url: saved.adminUrl, credential: saved.token }).post('/admin/sign-out');
          revoked = true;
        } catch (error) {
          // Already expired or revoked: nothing left to end on the server; the file goes all the same.
          if (!(error instanceof CommandFailure)) throw error;
        }
      }
      await forgetCredential(settings.credentialFile);
      showResult(ctx.out, { signedOut: true, revoked, username: saved?.username ?? null });
    });

  program
    .command('whoami')
    .description('who the admin listener takes you for, with the credential this run holds')
    .action(async () => {
      const ctx = context();
      const me = await ctx.admin().get<{
        username: string;
        role: string;
        via: string;
        credential?: { kind: string; prefix: string; expiresAt: string };
      }>('/admin/whoami');
      showResult(ctx.out, {
        username: me.username,
        role: me.role,
        credential: me.credential?.kind ?? null,
        prefix: me.credential?.prefix ?? null,
        expiresAt: me.credential?.expiresAt ?? null,
      });
    });
}

/** POST /admin/sign-in: the one call made without a credential, since it is how one is obtained. */
async function signInAt(adminUrl: string, username: string, password: string, code?: string): Promise<SignInAnswer> {
  try {
    return await postPublic<SignInAnswer>(adminUrl, '/admin/sign-in', {
      username,
      password,
      ...(code && { code }),
    });
  } catch (error) {
    throw new CommandFailure(`not signed in: ${(error as Error).message}`);
  }
}
