import type { Prisma } from '../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../client.js';
import { CONSOLE_USER_COLUMNS, consoleUserView, type ConsoleUserView } from './console-user-repository.js';

/**
 * Enrollments (docs/operations.md, "People and roles"): one a person opens for themselves is stored as the
 * digest of its secret and its fingerprint; an approval binds the account to one of them; the person then
 * sets their password and second factor with its secret.
 */
export interface EnrollmentView {
  id: number;
  username: string;
  digest: string;
  fingerprint: string;
  expiresAt: Date;
}

const ENROLLMENT = { id: true, username: true, digest: true, fingerprint: true, expiresAt: true } as const;

/** How many open enrollments one name may have at once: enough for a few tries, too few to grind fingerprints. */
export const MAX_OPEN_ENROLLMENTS_PER_NAME = 5;

/** Stores an enrollment a person opened; null when the name has as many open ones as allowed. */
export async function openEnrollment(
  db: Prisma.TransactionClient,
  input: { username: string; digest: string; fingerprint: string; expiresAt: Date },
): Promise<EnrollmentView | null> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('console_enrollments'), hashtext(${input.username}))`;
  await db.consoleEnrollment.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  const open = await db.consoleEnrollment.count({ where: { username: input.username } });
  if (open >= MAX_OPEN_ENROLLMENTS_PER_NAME) return null;
  return db.consoleEnrollment.create({ data: input, select: ENROLLMENT });
}

/** The unexpired enrollments of `username` with this fingerprint (a request names one). */
export function findEnrollmentsByFingerprint(
  db: PrismaClientOrTransaction,
  username: string,
  fingerprint: string,
): Promise<EnrollmentView[]> {
  return db.consoleEnrollment.findMany({
    where: { username, fingerprint, expiresAt: { gt: new Date() } },
    select: ENROLLMENT,
  });
}

/** The unexpired enrollment of this secret's digest. */
export function findEnrollment(db: PrismaClientOrTransaction, digest: string): Promise<EnrollmentView | null> {
  return db.consoleEnrollment.findFirst({ where: { digest, expiresAt: { gt: new Date() } }, select: ENROLLMENT });
}

/** The account an approval bound to this enrollment, while it still waits for its person. */
export async function findAccountAwaitingEnrollment(
  db: PrismaClientOrTransaction,
  digest: string,
): Promise<ConsoleUserView | null> {
  const row = await db.consoleUser.findFirst({
    where: { enrollmentDigest: digest, passwordHash: null },
    select: CONSOLE_USER_COLUMNS,
  });
  return row && consoleUserView(row);
}

/** Offers a (sealed) TOTP seed to the person enrolling: it becomes theirs once a code from it is typed back. */
export async function offerTotpSeed(db: PrismaClientOrTransaction, userId: number, sealed: string): Promise<void> {
  await db.consoleUser.update({ where: { id: userId }, data: { totpPendingSealed: sealed } });
}

/** The seed offered to an account awaiting enrollment, sealed. */
export async function findOfferedTotpSeed(db: PrismaClientOrTransaction, userId: number): Promise<string | null> {
  const row = await db.consoleUser.findUnique({ where: { id: userId }, select: { totpPendingSealed: true } });
  return row?.totpPendingSealed ?? null;
}

/**
 * Finishes an enrollment: the person's own password hash and the seed they proved, the step they proved it
 * with (used), the enrollment spent. Null when the account no longer waits for this enrollment.
 */
export async function completeEnrollment(
  db: Prisma.TransactionClient,
  input: { userId: number; digest: string; passwordHash: string; totpSealed: string; step: number },
): Promise<ConsoleUserView | null> {
  const { count } = await db.consoleUser.updateMany({
    where: { id: input.userId, enrollmentDigest: input.digest, passwordHash: null },
    data: {
      passwordHash: input.passwordHash,
      passwordChangedAt: new Date(),
      totpSealed: input.totpSealed,
      totpPendingSealed: null,
      totpLastStep: BigInt(input.step),
      secondFactorFailures: 0,
      secondFactorFailedAt: null,
      enrollmentDigest: null,
    },
  });
  if (count === 0) return null;
  await db.consoleEnrollment.deleteMany({ where: { digest: input.digest } });
  const row = await db.consoleUser.findUnique({ where: { id: input.userId }, select: CONSOLE_USER_COLUMNS });
  return row && consoleUserView(row);
}
