import { createHash, randomBytes } from 'node:crypto';

/**
 * Enrollment (docs/operations.md, "People and roles"): a person makes their own secrets. Whoever is to be
 * added (or reset) first opens an enrollment themselves — the console's /console/enroll or `pnpm cli enroll`
 * — which keeps a random enrollment secret on their own device and shows them its fingerprint. They read the
 * fingerprint out to the person asking for them; the request carries it, and the approver checks it with the
 * newcomer before approving. Approval binds the account to that one enrollment, so only the device holding
 * its secret can set the password and second factor. Nobody else ever holds a secret of theirs; the
 * fingerprint proves who asked, and is useless without the secret.
 */

/** An enrollment secret, `pge_` and 43 characters (256 bits), kept on the enrolling person's own device. */
export function newEnrollmentSecret(): string {
  return `pge_${randomBytes(32).toString('base64url')}`;
}

export const ENROLLMENT_SECRET_PATTERN = /^pge_[A-Za-z0-9_-]{43}$/;

/** What is stored of an enrollment secret: its SHA-256 (it is random and long, so a fast digest is enough). */
export function enrollmentDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

const FINGERPRINT_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The fingerprint of an enrollment: 40 bits of its digest as eight characters of Crockford's base32, read
 * out as `K7Q4-2MXP`. Finding another secret with the same fingerprint would take about 2^40 enrollments,
 * and the server makes every secret (nobody chooses one) under a per-address limit.
 */
export function enrollmentFingerprint(digest: string): string {
  let bits = BigInt(`0x${digest.slice(0, 10)}`);
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = FINGERPRINT_ALPHABET[Number(bits & 31n)]! + out;
    bits >>= 5n;
  }
  return `${out.slice(0, 4)}-${out.slice(4)}`;
}

/** A fingerprint as a person types it: any case, with or without its dash; null when it cannot be one. */
export function readFingerprint(text: string): string | null {
  const compact = text.trim().toUpperCase().replace(/[\s-]/g, '');
  if (!/^[0-9A-HJKMNP-TV-Z]{8}$/.test(compact)) return null;
  return `${compact.slice(0, 4)}-${compact.slice(4)}`;
}

/** How long an enrollment waits: to be asked for and approved, then completed. */
export const ENROLLMENT_TTL_MS = 3 * 24 * 60 * 60 * 1000;
