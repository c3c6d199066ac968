import type { Command } from 'commander';
import { ConsoleUsernameTakenError, createFirstApprover } from '@payout/db';
import { CONSOLE_ROLES, CONSOLE_USERNAME_PATTERN, hashPassword, newPassword, type ConsoleRole } from '@payout/domain';
import type { CommandContext } from '../context.js';
import { show, showResult } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

/**
 * The people who sign in to the console and act through the admin API (docs/operations.md, "Security
 * model"). Adding a person, changing a role and resetting a password are requests sent with your own
 * credential, which another approver approves (the one-time password is then shown to them, once);
 * disabling a person is an approver's alone. Only the first approver of an empty installation is made
 * directly in the database.
 */
export function registerConsoleCommands(program: Command, context: () => CommandContext): void {
  const consoleCommand = program.command('console').description('the support console');
  const user = consoleCommand.command('user').description('people who sign in to the console and the admin API');

  user
    .command('add')
    .description(
      'ask to add a person (another approver approves); on an empty installation, make its first approver directly',
    )
    .requiredOption('--name <username>', 'sign-in name: lower-case letters, digits, . _ -', usernameArgument)
    .requiredOption(
      '--role <role>',
      "support (reads), operator (also acts and requests money actions) or approver (also approves others' requests)",
      roleArgument,
    )
    .option('--why <reason>', 'why this person needs access (the approver reads it; required for a request)')
    .action(async (opts: { name: string; role: ConsoleRole; why?: string }) => {
      const ctx = context();
      if (opts.role === 'APPROVER') {
        const password = newPassword();
        let first;
        try {
          first = await createFirstApprover(ctx.db(), {
            username: opts.name,
            passwordHash: await hashPassword(password),
          });
        } catch (error) {
          if (error instanceof ConsoleUsernameTakenError) {
            throw new CommandFailure(`console user ${opts.name} already exists`);
          }
          throw error;
        }
        if (first) {
          showResult(ctx.out, { username: first.username, role: 'approver', password, first: true }, [
            'The first approver of this installation. Keep the password to yourself: it is never shown again. Sign in at /console/login; from now on people are added by request.',
          ]);
          return;
        }
      }
      const answer = await ctx
        .admin()
        .post('/admin/users', { username: opts.name, role: opts.role.toLowerCase(), why: whyOf(opts.why) });
      showRequest(ctx, answer);
    });

  user
    .command('role')
    .description("ask to change a person's role (another approver approves)")
    .requiredOption('--name <username>', 'sign-in name', usernameArgument)
    .requiredOption('--role <role>', 'support, operator or approver', roleArgument)
    .requiredOption('--why <reason>', 'why (the approver reads it)')
    .action(async (opts: { name: string; role: ConsoleRole; why: string }) => {
      const ctx = context();
      const answer = await ctx
        .admin()
        .post(`/admin/users/${opts.name}/role`, { role: opts.role.toLowerCase(), why: whyOf(opts.why) });
      showRequest(ctx, answer);
    });

  user
    .command('reset-password')
    .description(
      'ask for a new one-time password (another approver approves and receives it); ends their sessions and keys',
    )
    .requiredOption('--name <username>', 'sign-in name', usernameArgument)
    .requiredOption('--why <reason>', 'why (the approver reads it)')
    .action(async (opts: { name: string; why: string }) => {
      const ctx = context();
      showRequest(ctx, await ctx.admin().post(`/admin/users/${opts.name}/password-reset`, { why: whyOf(opts.why) }));
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
}

interface RequestAnswer {
  approval?: { id: string; action: string; state: string; summary?: string; preview?: { summary?: string } };
}

/** A people change the admin API stored as a request: its id, and who must act next. */
function showRequest({ out }: CommandContext, answer: RequestAnswer): void {
  const approval = answer.approval;
  if (!approval) throw new CommandFailure('the admin listener answered without the request');
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

function usernameArgument(text: string): string {
  if (!CONSOLE_USERNAME_PATTERN.test(text)) {
    throw new UsageError(
      `--name must be 1–64 lower-case letters, digits, . _ or -, starting with a letter or digit: got "${text}"`,
    );
  }
  return text;
}

function roleArgument(text: string): ConsoleRole {
  const role = CONSOLE_ROLES.find((r) => r === text.toUpperCase());
  if (!role) throw new UsageError(`--role must be support, operator or approver: got "${text}"`);
  return role;
}
