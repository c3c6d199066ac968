import type { Command } from 'commander';
import {
  ConsoleUsernameTakenError,
  createConsoleUser,
  disableConsoleUser,
  resetConsolePassword,
  type ConsoleUserView,
} from '@payout/db';
import { CONSOLE_ROLES, CONSOLE_USERNAME_PATTERN, hashPassword, newPassword, type ConsoleRole } from '@payout/domain';
import type { CommandContext } from '../context.js';
import { showResult } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

/**
 * The people who sign in to the support console (docs/operations.md, "Support console"). A password is
 * generated, printed once and stored only as a scrypt hash; resetting or disabling ends every session.
 */
export function registerConsoleCommands(program: Command, context: () => CommandContext): void {
  const consoleCommand = program.command('console').description('the support console');
  const user = consoleCommand.command('user').description('people who sign in to the support console');

  user
    .command('add')
    .description('add a person and print a generated password, once')
    .requiredOption('--name <username>', 'sign-in name: lower-case letters, digits, . _ -', usernameArgument)
    .requiredOption(
      '--role <role>',
      "support (reads), operator (also acts and requests money actions) or approver (also approves others' requests)",
      roleArgument,
    )
    .action(async (opts: { name: string; role: ConsoleRole }) => {
      const { db } = context();
      const password = newPassword();
      try {
        const created = await createConsoleUser(db(), {
          username: opts.name,
          role: opts.role,
          passwordHash: await hashPassword(password),
        });
        printWithPassword(context(), created, password);
      } catch (error) {
        if (error instanceof ConsoleUsernameTakenError)
          throw new CommandFailure(`console user ${opts.name} already exists`);
        throw error;
      }
    });

  user
    .command('reset-password')
    .description('print a new generated password, once; enables the person again and ends their sessions')
    .requiredOption('--name <username>', 'sign-in name', usernameArgument)
    .action(async (opts: { name: string }) => {
      const { db } = context();
      const password = newPassword();
      const updated = await resetConsolePassword(db(), opts.name, await hashPassword(password));
      if (!updated) throw new CommandFailure(`no console user ${opts.name}`);
      printWithPassword(context(), updated, password);
    });

  user
    .command('disable')
    .description('stop a person signing in, and end their sessions at once')
    .requiredOption('--name <username>', 'sign-in name', usernameArgument)
    .action(async (opts: { name: string }) => {
      const { db, out } = context();
      const disabled = await disableConsoleUser(db(), opts.name);
      if (!disabled) throw new CommandFailure(`no console user ${opts.name}`);
      const view = userView(disabled);
      showResult(out, view);
    });
}

function printWithPassword({ out }: CommandContext, user: ConsoleUserView, password: string): void {
  const view = { ...userView(user), password };
  showResult(out, view, ['Give the password to the person now: it is never shown again. Sign in at /console/login.']);
}

function userView(user: ConsoleUserView) {
  return {
    username: user.username,
    role: user.role.toLowerCase(),
    disabled: user.disabledAt !== null,
  };
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
