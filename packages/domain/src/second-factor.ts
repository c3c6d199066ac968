import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * A person's second factor (docs/operations.md, "Second factor"): a TOTP seed (RFC 6238: 30-second steps,
 * six digits, SHA-1, as every authenticator app reads it) and single-use recovery codes. A code is accepted
 * for the step before and after the current one (clocks drift), and only for a step later than the last one
 * this person used, so a code seen over a shoulder or replayed from a log is refused.
 */
const TOTP_SHAPE = { algorithm: 'SHA1', digits: 6, period: 30 } as const;

/** A new seed: 20 random bytes (160 bits, RFC 4226's recommendation), in base32 as authenticator apps take it. */
export function newTotpSeed(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app scans or takes typed in. */
export function totpUri(seed: string, account: string, issuer: string): string {
  return new TOTP({ ...TOTP_SHAPE, issuer, label: account, secret: Secret.fromBase32(seed) }).toString();
}

/** The code of `seed` at `at` (tests stand in for a person's authenticator with it). */
export function totpCode(seed: string, at: Date): string {
  return new TOTP({ ...TOTP_SHAPE, secret: Secret.fromBase32(seed) }).generate({ timestamp: at.getTime() });
}

/** The 30-second step `at` falls in. */
export function totpStepAt(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_SHAPE.period);
}

/** Whether a typed string is shaped like a TOTP code: six digits (spaces a person types are dropped). */
export function looksLikeTotpCode(text: string): boolean {
  return /^[0-9]{6}$/.test(text.replace(/\s+/g, ''));
}

/**
 * The step a code proves, or null: the current step or one either side of it, and later than `lastStep`
 * (the last step this person used), so each code works once.
 */
export function totpStepProved(seed: string, code: string, at: Date, lastStep: number | null): number | null {
  const typed = code.replace(/\s+/g, '');
  if (!looksLikeTotpCode(typed)) return null;
  const delta = new TOTP({ ...TOTP_SHAPE, secret: Secret.fromBase32(seed) }).validate({
    token: typed,
    timestamp: at.getTime(),
    window: 1,
  });
  if (delta === null) return null;
  const step = totpStepAt(at) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** How many recovery codes a person is given at enrollment. */
export const RECOVERY_CODE_COUNT = 10;

// Crockford's base32 without I, L, O, U: nothing a person misreads when typing a code from paper.
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Recovery codes, `XXXXX-XXXXX` (50 bits each), shown once to the person they are for. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]!).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Whether a typed string is shaped like a recovery code (any case, with or without its dash). */
export function looksLikeRecoveryCode(text: string): boolean {
  return /^[0-9A-Za-z]{5}-?[0-9A-Za-z]{5}$/.test(text.trim());
}

/**
 * What is stored of a recovery code: the SHA-256 of its canonical form. Fifty random bits are far beyond
 * guessing through a limited sign-in, so a fast digest is enough (as for API tokens).
 */
export function recoveryCodeDigest(code: string): string {
  const canonical = code.trim().toUpperCase().replace('-', '');
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/**
 * Seeds are sealed at rest (AES-256-GCM) under SECOND_FACTOR_KEY, so a copy of the database gives nobody a
 * working authenticator. A sealed seed names its key (`v1.<key id>.<iv>.<ciphertext>.<tag>`): the key can be
 * rotated by configuring the new key with the old one beside it (SECOND_FACTOR_PREVIOUS_KEYS) while
 * `pnpm cli console second-factor reseal` seals every seed under the new one (docs/operations.md, "Second
 * factor").
 */
export interface SealingKeys {
  /** The key new seeds are sealed under: 32 bytes. */
  current: Buffer;
  /** Keys seeds sealed earlier may still be under. */
  previous: readonly Buffer[];
}

/** A key's id: the first 8 hex digits of its SHA-256, enough to tell a handful of keys apart. */
export function sealingKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function sealSeed(seed: string, keys: SealingKeys): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current, iv);
  const sealed = Buffer.concat([cipher.update(seed, 'utf8'), cipher.final()]);
  const b64 = (b: Buffer) => b.toString('base64url');
  return ['v1', sealingKeyId(keys.current), b64(iv), b64(sealed), b64(cipher.getAuthTag())].join('.');
}

/** The seed inside `sealed`, or null when no configured key opens it (or it was tampered with). */
export function openSeed(sealed: string, keys: SealingKeys): string | null {
  const [version, keyId, iv, data, tag] = sealed.split('.');
  if (version !== 'v1' || !keyId || !iv || !data || !tag) return null;
  const key = [keys.current, ...keys.previous].find((k) => sealingKeyId(k) === keyId);
  if (!key) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Whether `sealed` is under a key other than the current one (the reseal command's question). */
export function sealedUnderOldKey(sealed: string, keys: SealingKeys): boolean {
  return sealed.split('.')[1] !== sealingKeyId(keys.current);
}
