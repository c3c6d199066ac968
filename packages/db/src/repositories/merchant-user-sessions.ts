import { createHash } from 'node:crypto';
import type { MerchantUserRole } from '@payout/domain';
import type { PrismaClientOrTransaction } from '../client.js';

/** A merchant user as the dashboard sees them: never their password hash, seeds or enrollment digest. */
export interface MerchantUserView {
  id: number;
  merchantId: number;
  email: string;
  role: MerchantUserRole;
  /** Whether they have chosen a password and set up their second factor. */
  enrolled: boolean;
  disabledAt: Date | null;
  createdAt: Date;
}

/** The merchant a dashboard session belongs to: what every page is scoped to. */
export interface DashboardMerchant {
  id: number;
  mid: string;
  name: string;
  status: 'ACTIVE' | 'SUSPENDED';
}

export interface MerchantUserSessionView {
  user: MerchantUserView;
  merchant: DashboardMerchant;
  csrfToken: string;
  expiresAt: Date;
}

export const MERCHANT_USER_COLUMNS = {
  id: true,
  merchantId: true,
  email: true,
  role: true,
  passwordHash: true,
  totpSealed: true,
  disabledAt: true,
  createdAt: true,
} as const;

export function merchantUserView(row: {
  id: number;
  merchantId: number;
  email: string;
  role: MerchantUserRole;
  passwordHash: string | null;
  totpSealed: string | null;
  disabledAt: Date | null;
  createdAt: Date;
}): MerchantUserView {
  return {
    id: row.id,
    merchantId: row.merchantId,
    email: row.email,
    role: row.role,
    enrolled: row.passwordHash !== null && row.totpSealed !== null,
    disabledAt: row.disabledAt,
    createdAt: row.createdAt,
  };
}

function sessionHash(sessionId: string): string {
  return createHash('sha256').update(sessionId, 'utf8').digest('hex');
}

export async function createMerchantUserSession(
  db: PrismaClientOrTransaction,
  input: { sessionId: string; userId: number; csrfToken: string; expiresAt: Date },
): Promise<void> {
  await db.merchantUserSession.create({
    data: {
      idHash: sessionHash(input.sessionId),
      userId: input.userId,
      csrfToken: input.csrfToken,
      expiresAt: input.expiresAt,
    },
  });
}

/** The live session of `sessionId`: unexpired, its user enrolled and not disabled, its merchant known. */
export async function findMerchantUserSession(
  db: PrismaClientOrTransaction,
  sessionId: string,
): Promise<MerchantUserSessionView | null> {
  const session = await db.merchantUserSession.findUnique({
    where: { idHash: sessionHash(sessionId) },
    select: {
      csrfToken: true,
      expiresAt: true,
      user: {
        select: { ...MERCHANT_USER_COLUMNS, merchant: { select: { id: true, mid: true, name: true, status: true } } },
      },
    },
  });
  if (!session || session.expiresAt <= new Date()) return null;
  const user = merchantUserView(session.user);
  if (user.disabledAt || !user.enrolled) return null;
  return { user, merchant: session.user.merchant, csrfToken: session.csrfToken, expiresAt: session.expiresAt };
}

export async function deleteMerchantUserSession(db: PrismaClientOrTransaction, sessionId: string): Promise<void> {
  await db.merchantUserSession.deleteMany({ where: { idHash: sessionHash(sessionId) } });
}

/** Ends every session of a user (disabled, their role changed, their password reset). */
export async function deleteMerchantUserSessions(db: PrismaClientOrTransaction, userId: number): Promise<number> {
  const { count } = await db.merchantUserSession.deleteMany({ where: { userId } });
  return count;
}

/** Removes expired sessions (called on sign-in, so the table needs no sweeper of its own). */
export async function deleteExpiredMerchantUserSessions(db: PrismaClientOrTransaction): Promise<number> {
  const { count } = await db.merchantUserSession.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  return count;
}
