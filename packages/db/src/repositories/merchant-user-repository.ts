import type { MerchantUserRole } from '@payout/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../client.js';
import { MERCHANT_USER_COLUMNS, merchantUserView, type MerchantUserView } from './merchant-user-sessions.js';

/*
 * A merchant's own people (docs/dashboard.md, "The team" and "Enrollment"): who they are, how they sign in,
 * the enrollments they open on their own devices, and the changes their admins make.
 */

/** A merchant user and their password hash, for checking a sign-in only. */
export async function findMerchantUserForSignIn(
  db: PrismaClientOrTransaction,
  email: string,
): Promise<(MerchantUserView & { passwordHash: string | null }) | null> {
  const row = await db.merchantUser.findUnique({ where: { email }, select: MERCHANT_USER_COLUMNS });
  return row && { ...merchantUserView(row), passwordHash: row.passwordHash };
}

/** Stores a merchant user's password hash again (at today's cost, after a sign-in proved the password). */
export async function storeMerchantUserPasswordHash(
  db: PrismaClientOrTransaction,
  userId: number,
  passwordHash: string,
): Promise<void> {
  await db.merchantUser.updateMany({ where: { id: userId, passwordHash: { not: null } }, data: { passwordHash } });
}

/** A merchant's team as its team page lists it. */
export interface MerchantTeamMember extends MerchantUserView {
  addedBy: string;
  disabledBy: string | null;
}

export async function listMerchantTeam(
  db: PrismaClientOrTransaction,
  merchantId: number,
): Promise<MerchantTeamMember[]> {
  const rows = await db.merchantUser.findMany({
    where: { merchantId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { ...MERCHANT_USER_COLUMNS, addedBy: true, disabledBy: true },
  });
  return rows.map((row) => ({ ...merchantUserView(row), addedBy: row.addedBy, disabledBy: row.disabledBy }));
}

/** The owner of a merchant, locked for a change in `tx`; null when the merchant has none yet. */
export async function lockMerchantOwner(
  tx: Prisma.TransactionClient,
  merchantId: number,
): Promise<MerchantTeamMember | null> {
  const [owner] = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM merchant_users WHERE merchant_id = ${merchantId} AND role = 'OWNER' FOR UPDATE`;
  return owner ? lockMerchantTeamMember(tx, merchantId, owner.id) : null;
}

/** The owner of a merchant, if it has one. */
export async function findMerchantOwner(
  db: PrismaClientOrTransaction,
  merchantId: number,
): Promise<MerchantUserView | null> {
  const row = await db.merchantUser.findFirst({ where: { merchantId, role: 'OWNER' }, select: MERCHANT_USER_COLUMNS });
  return row && merchantUserView(row);
}

/** The merchant user who holds an e-mail, on any merchant. */
export function merchantUserEmailTaken(db: PrismaClientOrTransaction, email: string): Promise<boolean> {
  return db.merchantUser.findUnique({ where: { email }, select: { id: true } }).then((row) => row !== null);
}

/** One merchant user of `merchantId` (never another merchant's), locked for a change in `tx`. */
export async function lockMerchantTeamMember(
  tx: Prisma.TransactionClient,
  merchantId: number,
  userId: number,
): Promise<MerchantTeamMember | null> {
  const locked = await tx.$queryRaw<{ id: number }[]>`
    SELECT id FROM merchant_users WHERE id = ${userId} AND merchant_id = ${merchantId} FOR UPDATE`;
  if (locked.length === 0) return null;
  const row = await tx.merchantUser.findUnique({
    where: { id: userId },
    select: { ...MERCHANT_USER_COLUMNS, addedBy: true, disabledBy: true },
  });
  return row && { ...merchantUserView(row), addedBy: row.addedBy, disabledBy: row.disabledBy };
}

export async function setMerchantUserRole(
  tx: Prisma.TransactionClient,
  userId: number,
  role: MerchantUserRole,
): Promise<void> {
  await tx.merchantUser.update({ where: { id: userId }, data: { role } });
}

/** Disables (with who did it) or enables a merchant user. */
export async function setMerchantUserDisabled(
  tx: Prisma.TransactionClient,
  userId: number,
  disabledBy: string | null,
): Promise<void> {
  await tx.merchantUser.update({
    where: { id: userId },
    data: disabledBy === null ? { disabledAt: null, disabledBy: null } : { disabledAt: new Date(), disabledBy },
  });
}

/**
 * Adds a merchant user bound to an enrollment (its digest): they set their own password and second factor
 * with its secret. Null when the e-mail is already someone's, on any merchant.
 */
export async function addMerchantUser(
  tx: Prisma.TransactionClient,
  input: {
    merchantId: number;
    email: string;
    role: MerchantUserRole;
    /** Null for an owner made at onboarding, who is bound to their enrollment later through staff. */
    enrollmentDigest: string | null;
    addedBy: string;
  },
): Promise<MerchantUserView | null> {
  const existing = await tx.merchantUser.findUnique({ where: { email: input.email }, select: { id: true } });
  if (existing) return null;
  const row = await tx.merchantUser.create({ data: input, select: MERCHANT_USER_COLUMNS });
  return merchantUserView(row);
}

/**
 * Binds an existing merchant user to a new enrollment (someone who lost their phone): their password and
 * second factor are wiped, so only the holder of the new enrollment's secret enrolls again; one disabled
 * for the loss is enabled, since only that holder can now sign in as them.
 */
export async function rebindMerchantUser(
  tx: Prisma.TransactionClient,
  userId: number,
  enrollmentDigest: string,
): Promise<void> {
  await tx.merchantUser.update({
    where: { id: userId },
    data: {
      enrollmentDigest,
      passwordHash: null,
      totpSealed: null,
      totpPendingSealed: null,
      totpLastStep: null,
      secondFactorFailures: 0,
      secondFactorFailedAt: null,
      disabledAt: null,
      disabledBy: null,
    },
  });
  await tx.merchantUserRecoveryCode.deleteMany({ where: { userId } });
}

// Enrollments ----------------------------------------------------------------------------------------------

export interface MerchantEnrollmentView {
  id: number;
  email: string;
  digest: string;
  fingerprint: string;
  expiresAt: Date;
}

const ENROLLMENT = { id: true, email: true, digest: true, fingerprint: true, expiresAt: true } as const;

/** How many open enrollments one e-mail may have at once: enough for a few tries, too few to grind fingerprints. */
export const MAX_OPEN_MERCHANT_ENROLLMENTS = 5;

/** Stores an enrollment a person opened; null when the e-mail has as many open ones as allowed. */
export async function openMerchantEnrollment(
  tx: Prisma.TransactionClient,
  input: { email: string; digest: string; fingerprint: string; expiresAt: Date },
): Promise<MerchantEnrollmentView | null> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('merchant_user_enrollments'), hashtext(${input.email}))`;
  await tx.merchantUserEnrollment.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  const open = await tx.merchantUserEnrollment.count({ where: { email: input.email } });
  if (open >= MAX_OPEN_MERCHANT_ENROLLMENTS) return null;
  return tx.merchantUserEnrollment.create({ data: input, select: ENROLLMENT });
}

/** The unexpired enrollments of `email` with this fingerprint (an admin or staff names one). */
export function findMerchantEnrollmentsByFingerprint(
  db: PrismaClientOrTransaction,
  email: string,
  fingerprint: string,
): Promise<MerchantEnrollmentView[]> {
  return db.merchantUserEnrollment.findMany({
    where: { email, fingerprint, expiresAt: { gt: new Date() } },
    select: ENROLLMENT,
  });
}

/** An enrollment by its id, while it is open: what an approved request names. */
export function findOpenMerchantEnrollmentById(
  db: PrismaClientOrTransaction,
  id: number,
): Promise<MerchantEnrollmentView | null> {
  return db.merchantUserEnrollment.findFirst({ where: { id, expiresAt: { gt: new Date() } }, select: ENROLLMENT });
}

/** The unexpired enrollment of this secret's digest. */
export function findMerchantEnrollment(
  db: PrismaClientOrTransaction,
  digest: string,
): Promise<MerchantEnrollmentView | null> {
  return db.merchantUserEnrollment.findFirst({ where: { digest, expiresAt: { gt: new Date() } }, select: ENROLLMENT });
}

/** The merchant user bound to this enrollment, while they still have to choose their password. */
export async function findMerchantUserAwaitingEnrollment(
  db: PrismaClientOrTransaction,
  digest: string,
): Promise<MerchantUserView | null> {
  const row = await db.merchantUser.findFirst({
    where: { enrollmentDigest: digest, passwordHash: null, disabledAt: null },
    select: MERCHANT_USER_COLUMNS,
  });
  return row && merchantUserView(row);
}

/** Offers a (sealed) TOTP seed to the person enrolling: theirs once a code from it is typed back. */
export async function offerMerchantTotpSeed(
  db: PrismaClientOrTransaction,
  userId: number,
  sealed: string,
): Promise<void> {
  await db.merchantUser.update({ where: { id: userId }, data: { totpPendingSealed: sealed } });
}

export async function findOfferedMerchantTotpSeed(
  db: PrismaClientOrTransaction,
  userId: number,
): Promise<string | null> {
  const row = await db.merchantUser.findUnique({ where: { id: userId }, select: { totpPendingSealed: true } });
  return row?.totpPendingSealed ?? null;
}

/**
 * Finishes a merchant user's enrollment: their own password hash and the seed they proved, the step they
 * proved it with (used), the enrollment spent. Null when the account no longer waits for this enrollment.
 */
export async function completeMerchantEnrollment(
  tx: Prisma.TransactionClient,
  input: { userId: number; digest: string; passwordHash: string; totpSealed: string; step: number },
): Promise<MerchantUserView | null> {
  const { count } = await tx.merchantUser.updateMany({
    where: { id: input.userId, enrollmentDigest: input.digest, passwordHash: null, disabledAt: null },
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
  await tx.merchantUserEnrollment.deleteMany({ where: { digest: input.digest } });
  const row = await tx.merchantUser.findUnique({ where: { id: input.userId }, select: MERCHANT_USER_COLUMNS });
  return row && merchantUserView(row);
}
