import {
  credentialExpiry,
  digestMatchesAny,
  hashToken,
  isPersonalCredential,
  newPersonalCredential,
  personalCredentialPrefix,
  type PersonalCredentialKind,
} from '@payout/domain';
import type { PrismaClientOrTransaction } from '../client.js';
import { CONSOLE_USER_COLUMNS, consoleUserView, type ConsoleUserView } from './console-user-repository.js';

/**
 * Personal credentials (docs/operations.md, "Security model"): the bearer secrets a person acts with on the
 * admin API. Only digests are stored; a token is returned once, when it is issued.
 */

/** Why a credential was not issued: no such (enabled) user, or an expiry outside the bounds. */
export class PersonalCredentialRefusedError extends Error {
  override readonly name = 'PersonalCredentialRefusedError';
}

export interface IssuedPersonalCredential {
  /** The bearer token: shown once, never stored. */
  token: string;
  prefix: string;
  expiresAt: Date;
}

/** A credential as its owner sees it in a list: never its token or digest. */
export interface PersonalCredentialView {
  id: number;
  kind: PersonalCredentialKind;
  prefix: string;
  label: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Who a presented credential proves, and which credential it was (to sign out with it). */
export interface AuthenticatedPerson {
  user: ConsoleUserView;
  credential: { id: number; kind: PersonalCredentialKind; prefix: string; expiresAt: Date };
}

const VIEW = {
  id: true,
  kind: true,
  prefix: true,
  label: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

/**
 * Issues `username` a credential of `kind` that lives `ttlMs` (the kind's default when omitted; bounds in
 * packages/domain/src/personal-credentials.ts). Refused for an unknown or disabled user, and for one who has
 * not yet enrolled.
 */
export async function issuePersonalCredential(
  db: PrismaClientOrTransaction,
  input: { username: string; kind: PersonalCredentialKind; label: string; ttlMs?: number },
): Promise<IssuedPersonalCredential> {
  const row = await db.consoleUser.findUnique({ where: { username: input.username }, select: CONSOLE_USER_COLUMNS });
  const user = row && consoleUserView(row);
  if (!user || user.disabledAt) throw new PersonalCredentialRefusedError(`no enabled console user ${input.username}`);
  if (!user.enrolled) {
    throw new PersonalCredentialRefusedError(`${input.username} has not enrolled yet (/console/enroll)`);
  }
  const now = new Date();
  const expiry = credentialExpiry(input.kind, input.ttlMs, now);
  if ('refused' in expiry) throw new PersonalCredentialRefusedError(expiry.refused);
  const { token, prefix, digest } = newPersonalCredential(input.kind);
  await db.personalCredential.create({
    data: {
      userId: user.id,
      kind: input.kind,
      prefix,
      digest,
      label: input.label.trim().slice(0, 100),
      createdAt: now,
      expiresAt: expiry.expiresAt,
    },
  });
  return { token, prefix, expiresAt: expiry.expiresAt };
}

/**
 * The person `token` proves, or null: unknown, revoked and expired credentials and disabled users prove
 * no one. The candidates are found by the token's public prefix and every one's digest is compared in
 * constant time (as merchant tokens are), so timing says nothing about how close a guess came.
 */
export async function authenticatePersonalCredential(
  db: PrismaClientOrTransaction,
  token: string,
): Promise<AuthenticatedPerson | null> {
  if (!isPersonalCredential(token)) return null;
  const candidates = await db.personalCredential.findMany({
    where: { prefix: personalCredentialPrefix(token) },
    select: {
      id: true,
      kind: true,
      prefix: true,
      digest: true,
      expiresAt: true,
      revokedAt: true,
      user: { select: CONSOLE_USER_COLUMNS },
    },
  });
  const digest = hashToken(token);
  const found = candidates.find((c) => digestMatchesAny(digest, [c.digest]));
  if (!found || found.revokedAt || found.expiresAt <= new Date()) return null;
  const user = consoleUserView(found.user);
  if (user.disabledAt || !user.enrolled) return null;
  // At most one write a minute per credential: "last used" is for its owner's list, not an access log.
  await db.$executeRaw`
    UPDATE personal_credentials SET last_used_at = now()
     WHERE id = ${found.id} AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`;
  return {
    user,
    credential: { id: found.id, kind: found.kind, prefix: found.prefix, expiresAt: found.expiresAt },
  };
}

/** `username`'s credentials, newest first (revoked and expired ones too, so the list tells the whole story). */
export async function listPersonalCredentials(
  db: PrismaClientOrTransaction,
  username: string,
  limit = 100,
): Promise<PersonalCredentialView[]> {
  return db.personalCredential.findMany({
    where: { user: { username } },
    orderBy: { id: 'desc' },
    take: limit,
    select: VIEW,
  });
}

/** Revokes `username`'s own live credential `prefix`; whether one was revoked (never another person's). */
export async function revokePersonalCredential(
  db: PrismaClientOrTransaction,
  input: { username: string; prefix: string },
): Promise<boolean> {
  const { count } = await db.personalCredential.updateMany({
    where: { prefix: input.prefix, revokedAt: null, user: { username: input.username } },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

/** Revokes one credential by id (signing out with it); whether it was live. */
export async function revokePersonalCredentialById(db: PrismaClientOrTransaction, id: number): Promise<boolean> {
  const { count } = await db.personalCredential.updateMany({
    where: { id, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count > 0;
}

/** Revokes every live credential of a user (on disabling them); how many. */
export async function revokeAllPersonalCredentials(db: PrismaClientOrTransaction, userId: number): Promise<number> {
  const { count } = await db.personalCredential.updateMany({
    where: { userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count;
}
