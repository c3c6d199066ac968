import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Console passwords, stored as scrypt hashes (memory-hard: each guess costs 32 MiB and tens of
 * milliseconds), in the self-describing form `scrypt$N$r$p$salt$hash` so the cost can be raised later
 * without invalidating stored hashes.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; false for anything that is not a hash this module wrote. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0)) return false;
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length !== KEY_LENGTH) return false;
  const key = await derive(password, Buffer.from(parts[4]!, 'base64url'), { N, r, p });
  return timingSafeEqual(key, expected);
}

/** The shortest password a person may choose for themselves. */
export const MIN_CHOSEN_PASSWORD_LENGTH = 12;

/**
 * Why a password a person chooses (replacing a one-time password) is refused, or undefined: long enough,
 * not too long to hash, typed the same twice, and not the one-time password someone else has seen.
 */
export function newPasswordProblem(oneTime: string, chosen: string, repeated: string): string | undefined {
  if (chosen.length < MIN_CHOSEN_PASSWORD_LENGTH) {
    return `Choose a password of at least ${MIN_CHOSEN_PASSWORD_LENGTH} characters.`;
  }
  if (chosen.length > 200) return 'Choose a password of at most 200 characters.';
  if (chosen !== repeated) return 'The two new passwords differ.';
  if (chosen === oneTime) return 'Choose a password other than the one-time password.';
  return undefined;
}

/** A generated password: 20 random characters, shown once to the person it is for. */
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
