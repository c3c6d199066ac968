import { findConsoleUser, type PrismaClient } from '@payout/db';
import type { Person } from '@payout/use-cases';
import { CommandFailure } from './usage-error.js';

/**
 * The console user an `--operator` names, as the approval use cases take a person: the CLI's money
 * commands and decisions are made by people with console accounts and roles, never by a login name.
 */
export async function personNamed(db: PrismaClient, name: string): Promise<Person> {
  const user = await findConsoleUser(db, name.toLowerCase());
  if (!user) {
    throw new CommandFailure(
      `--operator ${name} is not a console user (add one: pnpm cli console user add --name ${name} --role operator)`,
    );
  }
  if (user.disabledAt) throw new CommandFailure(`console user ${name} is disabled`);
  return { username: user.username, role: user.role, via: 'cli' };
}
