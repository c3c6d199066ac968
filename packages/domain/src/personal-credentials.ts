import { hashToken, newSecretToken } from './credentials.js';

/**
 * A person's own credential for the admin API (docs/operations.md, "Security model"): a personal API key
 * the person creates on the console (`/console/keys`), or a short-lived sign-in from `pnpm cli login`.
 * Either is a bearer secret shown once and stored as its SHA-256 digest, made and compared like a
 * merchant token (`credentials.ts`); the prefix names its kind, so a key pasted into a log is recognised.
 */
export const PERSONAL_CREDENTIAL_KINDS = ['API_KEY', 'SIGN_IN'] as const;
export type PersonalCredentialKind = (typeof PERSONAL_CREDENTIAL_KINDS)[number];

const KIND_PREFIX: Record<PersonalCredentialKind, string> = { API_KEY: 'pgk_', SIGN_IN: 'pgs_' };
const FORMAT = /^pg[ks]_[A-Za-z0-9_-]{43}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a personal API key may live, in days: it always expires, at most after a quarter. */
export const API_KEY_DAYS = { min: 1, max: 90, default: 30 } as const;
/** A CLI sign-in lasts a working day unless ADMIN_CLI_SIGN_IN_TTL_MS says otherwise… */
export const DEFAULT_SIGN_IN_TTL_MS = 8 * 60 * 60 * 1000;
/** …and never more than a day: a sign-in is for a sitting, a key is for longer work. */
export const MAX_SIGN_IN_TTL_MS = DAY_MS;

/** A new credential of `kind`: the token (shown once), its display prefix and the digest to store. */
export function newPersonalCredential(kind: PersonalCredentialKind): { token: string; prefix: string; digest: string } {
  const token = newSecretToken(KIND_PREFIX[kind]);
  return { token, prefix: personalCredentialPrefix(token), digest: hashToken(token) };
}

/**
 * Whether `token` claims to be a personal credential (starts as one does): the admin API then answers for it
 * as a personal credential, 401 when it proves no one, instead of trying it as anything else.
 */
export function claimsPersonalCredential(token: string): boolean {
  return Object.values(KIND_PREFIX).some((prefix) => token.startsWith(prefix));
}

/** Whether `token` has the shape of a personal credential (which says nothing of whether it is valid). */
export function isPersonalCredential(token: string): boolean {
  return FORMAT.test(token);
}

/** The leading characters a person sees to tell their credentials apart ("pgk_Ab12Cd34"). */
export function personalCredentialPrefix(token: string): string {
  return token.slice(0, 12);
}

/**
 * When a credential of `kind` made at `now` expires, or why it may not: an API key lives whole days
 * within {@link API_KEY_DAYS} (30 by default), a sign-in at most {@link MAX_SIGN_IN_TTL_MS}.
 */
export function credentialExpiry(
  kind: PersonalCredentialKind,
  ttlMs: number | undefined,
  now: Date = new Date(),
): { expiresAt: Date } | { refused: string } {
  if (kind === 'API_KEY') {
    const ms = ttlMs ?? API_KEY_DAYS.default * DAY_MS;
    if (!Number.isSafeInteger(ms) || ms < API_KEY_DAYS.min * DAY_MS || ms > API_KEY_DAYS.max * DAY_MS) {
      return { refused: `an API key lives ${API_KEY_DAYS.min} to ${API_KEY_DAYS.max} days` };
    }
    return { expiresAt: new Date(now.getTime() + ms) };
  }
  const ms = ttlMs ?? DEFAULT_SIGN_IN_TTL_MS;
  if (!Number.isSafeInteger(ms) || ms <= 0 || ms > MAX_SIGN_IN_TTL_MS) {
    return { refused: 'a sign-in lasts at most a day' };
  }
  return { expiresAt: new Date(now.getTime() + ms) };
}
