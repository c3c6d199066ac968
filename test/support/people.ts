import { randomBytes } from 'node:crypto';
import { createConsoleUser, issuePersonalCredential } from '@payout/db';
import { hashPassword, newPassword, type ConsoleRole } from '@payout/domain';
import type { ConsoleRoleName } from './console.js';
import { testPrisma } from './database.js';

/** A person who acts through the admin API with their own personal API key. */
export interface PersonWithKey {
  username: string;
  /** Their personal API key, to send as `Authorization: Bearer <key>`. */
  key: string;
}

/**
 * A new console user of `role` with a name no other test uses, made directly in this run's database, and a
 * personal API key of theirs (30 days) — what a person would create for themselves on /console/keys.
 */
export async function personWithKey(role: ConsoleRoleName): Promise<PersonWithKey> {
  const username = `${role}-${randomBytes(6).toString('hex')}`;
  const db = testPrisma();
  try {
    await createConsoleUser(db, {
      username,
      role: role.toUpperCase() as ConsoleRole,
      passwordHash: await hashPassword(newPassword()),
    });
    const { token } = await issuePersonalCredential(db, { username, kind: 'API_KEY', label: 'tests' });
    return { username, key: token };
  } finally {
    await db.$disconnect();
  }
}

/** The header that presents `person`'s key to the admin API. */
export function bearer(person: Pick<PersonWithKey, 'key'>): Record<string, string> {
  return { Authorization: `Bearer ${person.key}` };
}
