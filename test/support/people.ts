import { randomBytes } from 'node:crypto';
import {
  createConsoleUser,
  issuePersonalCredential,
  authenticatePersonalCredential,
  type PrismaClientOrTransaction,
} from '@payout/db';
import {
  hashPassword,
  newPassword,
  newRecoveryCodes,
  newTotpSeed,
  recoveryCodeDigest,
  sealSeed,
  totpCode,
  type ConsoleRole,
} from '@payout/domain';
import { DEVELOPMENT_SECOND_FACTOR_KEY } from '@payout/config';
import type { ConsoleRoleName } from './console.js';
import { testPrisma } from './database.js';

/**
 * The sealing key the apps under test use (NODE_ENV=test takes the development key): a test enrolls its
 * people by sealing their seeds under it, as the enrollment would.
 */
export const TEST_SEALING_KEYS = { current: Buffer.from(DEVELOPMENT_SECOND_FACTOR_KEY, 'hex'), previous: [] };

/** One password for every person a test process makes directly: hashing at OWASP's cost takes half a second. */
const TEST_PASSWORD = newPassword();
let testPasswordHash: Promise<string> | undefined;

/**
 * A person as enrollment would leave them, made straight in the database (as `personWithKey` makes a key
 * its owner would make on /console/keys): their password and the TOTP seed of their authenticator.
 */
export interface EnrolledPerson {
  username: string;
  password: string;
  /** The seed their authenticator app holds. */
  seed: string;
}

/** Makes an enrolled console user of `role` named `username` in this run's database. */
export async function enrollDirectly(
  db: PrismaClientOrTransaction,
  username: string,
  role: ConsoleRoleName,
): Promise<EnrolledPerson> {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  const seed = newTotpSeed();
  await createConsoleUser(db, {
    username,
    role: role.toUpperCase() as ConsoleRole,
    passwordHash: await testPasswordHash,
    totpSealed: sealSeed(seed, TEST_SEALING_KEYS),
  });
  return { username, password: TEST_PASSWORD, seed };
}

/** The code a person's authenticator shows now. */
export function currentCode(person: Pick<EnrolledPerson, 'seed'>): string {
  return totpCode(person.seed, new Date());
}

/**
 * A fresh single-use code of `username`'s second factor, as the person would type it into an approval: one
 * of their recovery codes, added for this one use. A TOTP code works once per 30 seconds, and a test approves
 * more often than that; test/security/second-factor.test.ts walks the TOTP codes themselves.
 */
export async function freshSecondFactorCode(username: string): Promise<string> {
  const [code] = newRecoveryCodes(1);
  const db = testPrisma();
  try {
    const user = await db.consoleUser.findUniqueOrThrow({ where: { username }, select: { id: true } });
    await db.consoleRecoveryCode.create({ data: { userId: user.id, digest: recoveryCodeDigest(code!) } });
  } finally {
    await db.$disconnect();
  }
  return code!;
}

/** The owner of a personal credential (key or sign-in): whose code a CLI run with it is asked for. */
export async function ownerOfCredential(credential: string): Promise<string | undefined> {
  const db = testPrisma();
  try {
    return (await authenticatePersonalCredential(db, credential))?.user.username;
  } finally {
    await db.$disconnect();
  }
}

/** A person who acts through the admin API with their own personal API key. */
export interface PersonWithKey {
  username: string;
  /** Their personal API key, to send as `Authorization: Bearer <key>`. */
  key: string;
}

/**
 * A new enrolled console user of `role` with a name no other test uses, made directly in this run's
 * database, and a personal API key of theirs (30 days) — what a person would create for themselves on
 * /console/keys.
 */
export async function personWithKey(role: ConsoleRoleName): Promise<PersonWithKey & EnrolledPerson> {
  const username = `${role}-${randomBytes(6).toString('hex')}`;
  const db = testPrisma();
  try {
    const person = await enrollDirectly(db, username, role);
    const { token } = await issuePersonalCredential(db, { username, kind: 'API_KEY', label: 'tests' });
    return { ...person, key: token };
  } finally {
    await db.$disconnect();
  }
}

/** The header that presents `person`'s key to the admin API. */
export function bearer(person: Pick<PersonWithKey, 'key'>): Record<string, string> {
  return { Authorization: `Bearer ${person.key}` };
}

/** The second-factor settings of the apps under test, for a test that calls the use cases itself. */
export const TEST_SECOND_FACTOR = { keys: TEST_SEALING_KEYS, issuer: 'Payout gateway', everySignIn: false };
