import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Console passwords, stored as scrypt hashes in the self-describing form `scrypt$N$r$p$salt$hash`, at
 * OWASP's current minimum for scrypt (N=2^17, r=8, p=1: 128 MiB and about half a second of a core per
 * guess). A hash stored at a lower cost still verifies, and {@link needsRehash} tells the sign-in to store it
 * again at this cost once the person has proved the password (docs/operations.md, "Security model").
 */
const COST = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * A hash of nothing anyone can type, at the current cost: checked against when a username is unknown (or
 * has no password yet), so a wrong name takes as long as a wrong password.
 */
export const DECOY_PASSWORD_HASH = [
  'scrypt',
  COST.N,
  COST.r,
  COST.p,
  'AAAAAAAAAAAAAAAAAAAAAA',
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
].join('$');

/** Whether `password` matches `stored`; false for anything that is not a hash this module wrote. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.cost);
  return timingSafeEqual(key, parsed.key);
}

/** Whether a stored hash was made at less than today's cost, so a sign-in that proved it stores it again. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  return parsed.cost.N < COST.N || parsed.cost.r < COST.r || parsed.cost.p < COST.p;
}

function parseHash(stored: string): { cost: { N: number; r: number; p: number }; salt: Buffer; key: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0) || N > 2 ** 20) return null;
  const key = Buffer.from(parts[5]!, 'base64url');
  if (key.length !== KEY_LENGTH) return null;
  return { cost: { N, r, p }, salt: Buffer.from(parts[4]!, 'base64url'), key };
}

/** The shortest password a person may choose for themselves. */
export const MIN_CHOSEN_PASSWORD_LENGTH = 12;

/**
 * Why a password a person chooses for themselves (at enrollment) is refused, or undefined: long enough, not
 * too long to hash, and typed the same twice.
 */
export function chosenPasswordProblem(chosen: string, repeated: string): string | undefined {
  if (chosen.length < MIN_CHOSEN_PASSWORD_LENGTH) {
    return `Choose a password of at least ${MIN_CHOSEN_PASSWORD_LENGTH} characters.`;
  }
  if (chosen.length > 200) return 'Choose a password of at most 200 characters.';
  if (chosen !== repeated) return 'The two passwords differ.';
  return undefined;
}

/** A generated password: 20 random characters (tests and tools that need one nobody types). */
export function newPassword(): string {
  return randomBytes(15).toString('base64url');
}

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 128 * cost.N * cost.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}
