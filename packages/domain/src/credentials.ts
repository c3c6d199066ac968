import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Merchant API tokens. A token is 32 random bytes (base64url), so a plain SHA-256 digest is a safe way to
 * store it: there is nothing to brute-force, and the digest is cheap enough to check on every request.
 */
const TOKEN_PREFIX = 'pgt_';

/**
 * Active tokens a merchant may hold at once through its own rotation: the one in use and its successor
 * (docs/api.md, "Token rotation").
 */
export const MAX_ACTIVE_MERCHANT_TOKENS = 2;
const SHA256_HEX = /^[0-9a-f]{64}$/;

export function newApiToken(): string {
  return newSecretToken(TOKEN_PREFIX);
}

/**
 * A bearer secret: `prefix` (which says what kind of secret it is, so one found in a log is recognised)
 * followed by 32 random bytes in base64url. Hashed with {@link hashToken} for storage, like a merchant token.
 */
export function newSecretToken(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Hex SHA-256 of a token: what is stored, never the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The leading characters operators see to tell tokens apart ("pgt_Ab12Cd"). */
export function tokenDisplayPrefix(token: string): string {
  return token.slice(0, 10);
}

/**
 * Whether `token` matches one of the stored digests. Every digest is compared, each in constant time,
 * so the time taken says nothing about which digest, or how much of one, matched.
 */
export function tokenMatchesAny(token: string, storedHashes: readonly string[]): boolean {
  return digestMatchesAny(hashToken(token), storedHashes);
}

/** {@link tokenMatchesAny} for a token already hashed with {@link hashToken} (the API hashes it once per request). */
export function digestMatchesAny(digest: string, storedHashes: readonly string[]): boolean {
  const presented = Buffer.from(digest, 'hex');
  let matched = false;
  for (const stored of storedHashes) {
    // Buffer.from(hex) silently stops at the first non-hex character, so only a well-formed digest counts.
    if (!SHA256_HEX.test(stored)) continue;
    if (timingSafeEqual(Buffer.from(stored, 'hex'), presented)) matched = true;
  }
  return matched;
}
