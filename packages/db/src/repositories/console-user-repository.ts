import { createHash } from 'node:crypto';
import type { ConsoleRole } from '@payout/domain';
import { Prisma } from '../generated/prisma/client.js';
import type { PrismaClient, PrismaClientOrTransaction } from '../client.js';

export class ConsoleUsernameTakenError extends Error {
  override readonly name = 'ConsoleUsernameTakenError';
  constructor(readonly username: string) {
    super(`console user ${username} already exists`);
  }
}

export interface ConsoleUserView {
  id: number;
  username: string;
  role: ConsoleRole;
  disabledAt: Date | null;
  /**
   * They have set their own password (and second factor): an account added or reset waits for its person to
   * enroll, and until then nothing signs in as it (docs/operations.md, "People and roles").
   */
  enrolled: boolean;
  /** They have a TOTP second factor. */
  secondFactor: boolean;
}

/** The columns a {@link ConsoleUserView} is made of (the hash and seed are read only to say whether they exist). */
export const CONSOLE_USER_COLUMNS = {
  id: true,
  username: true,
  role: true,
  disabledAt: true,
  passwordHash: true,
  totpSealed: true,
} as const;

type UserRow = Prisma.ConsoleUserGetPayload<{ select: typeof CONSOLE_USER_COLUMNS }>;

/** A person as everything outside sign-in sees them: never a hash or a seed. */
export function consoleUserView(row: UserRow): ConsoleUserView {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    disabledAt: row.disabledAt,
    enrolled: row.passwordHash !== null,
    secondFactor: row.totpSealed !== null,
  };
}

/**
 * Adds a console user: enrolled (a hashed password, and a sealed seed when they have a second factor) or
 * awaiting the enrollment whose digest an approval bound to them.
 */
export async function createConsoleUser(
  db: PrismaClientOrTransaction,
  input: {
    username: string;
    role: ConsoleRole;
    passwordHash?: string;
    totpSealed?: string;
    enrollmentDigest?: string;
  },
): Promise<ConsoleUserView> {
  try {
    return consoleUserView(await db.consoleUser.create({ data: input, select: CONSOLE_USER_COLUMNS }));
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new ConsoleUsernameTakenError(input.username);
    }
    throw error;
  }
}

/** The user with their password hash and second factor, for signing in; null when there is no such user. */
export async function findConsoleUserForSignIn(
  db: PrismaClientOrTransaction,
  username: string,
): Promise<(ConsoleUserView & { passwordHash: string | null }) | null> {
  const row = await db.consoleUser.findUnique({ where: { username }, select: CONSOLE_USER_COLUMNS });
  return row && { ...consoleUserView(row), passwordHash: row.passwordHash };
}

/** The user named `username`, without their password hash; null when there is none. */
export async function findConsoleUser(
  db: PrismaClientOrTransaction,
  username: string,
): Promise<ConsoleUserView | null> {
  const row = await db.consoleUser.findUnique({ where: { username }, select: CONSOLE_USER_COLUMNS });
  return row && consoleUserView(row);
}

/** Stores a password hash again (at today's cost, after a sign-in proved the password). */
export async function storePasswordHash(db: PrismaClientOrTransaction, userId: number, passwordHash: string) {
  await db.consoleUser.updateMany({ where: { id: userId, passwordHash: { not: null } }, data: { passwordHash } });
}

/**
 * Disables a user, ends every session and revokes every personal credential of theirs in one statement;
 * null when there is no such user.
 */
export async function disableConsoleUser(
  db: PrismaClientOrTransaction,
  username: string,
): Promise<ConsoleUserView | null> {
  const [row] = await db.$queryRaw<{ id: number }[]>`
    WITH u AS (
      UPDATE console_users SET disabled_at = coalesce(disabled_at, now()), updated_at = now()
       WHERE username = ${username} RETURNING id
    ), ended AS (DELETE FROM console_sessions s USING u WHERE s.user_id = u.id),
    revoked AS (
      UPDATE personal_credentials c SET revoked_at = now() FROM u WHERE c.user_id = u.id AND c.revoked_at IS NULL
    )
    SELECT id FROM u`;
  return viewOfChanged(db, row);
}

/**
 * Leaves a person awaiting re-enrollment through the enrollment whose digest is given: their password,
 * second factor and recovery codes are gone, every session ends and every credential is revoked. A disabled
 * person stays disabled (docs/operations.md, "People and roles"). Null when there is no such user.
 */
export async function awaitReenrollment(
  db: PrismaClientOrTransaction,
  username: string,
  enrollmentDigest: string,
): Promise<ConsoleUserView | null> {
  const [row] = await db.$queryRaw<{ id: number }[]>`
    WITH u AS (
      UPDATE console_users
         SET password_hash = NULL, totp_sealed = NULL, totp_pending_sealed = NULL, totp_last_step = NULL,
             second_factor_failures = 0, second_factor_failed_at = NULL,
             enrollment_digest = ${enrollmentDigest}, updated_at = now()
       WHERE username = ${username} RETURNING id
    ), ended AS (DELETE FROM console_sessions s USING u WHERE s.user_id = u.id),
    codes AS (DELETE FROM console_recovery_codes r USING u WHERE r.user_id = u.id),
    revoked AS (
      UPDATE personal_credentials c SET revoked_at = now() FROM u WHERE c.user_id = u.id AND c.revoked_at IS NULL
    )
    SELECT id FROM u`;
  return viewOfChanged(db, row);
}

/** The user a statement above changed (and whose sessions it ended), or null when it found no such user. */
async function viewOfChanged(
  db: PrismaClientOrTransaction,
  row: { id: number } | undefined,
): Promise<ConsoleUserView | null> {
  if (!row) return null;
  const found = await db.consoleUser.findUnique({ where: { id: row.id }, select: CONSOLE_USER_COLUMNS });
  return found && consoleUserView(found);
}

/** Changes a user's role; null when there is no such user. Sessions and credentials read the role afresh. */
export async function setConsoleRole(
  db: PrismaClientOrTransaction,
  username: string,
  role: ConsoleRole,
): Promise<ConsoleUserView | null> {
  const { count } = await db.consoleUser.updateMany({ where: { username }, data: { role } });
  return count === 0 ? null : findConsoleUser(db, username);
}

/** How many enabled approvers there are (enrolled or not): who may still approve once enrolled. */
export function countEnabledApprovers(db: PrismaClientOrTransaction): Promise<number> {
  return db.consoleUser.count({ where: { role: 'APPROVER', disabledAt: null } });
}

/** How many enabled approvers have enrolled, so can sign in and approve today. */
export function countEnrolledApprovers(db: PrismaClientOrTransaction): Promise<number> {
  return db.consoleUser.count({ where: { role: 'APPROVER', disabledAt: null, passwordHash: { not: null } } });
}

/**
 * Takes the lock every change to who the approvers are takes (disabling one, another role, a new one
 * enrolled, setup, break-glass), so two at once cannot each leave "one more" approver than there is.
 */
export async function lockApproverChanges(db: Prisma.TransactionClient): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('console_users.approvers'))`;
}

/** The installation's setup standing: never set up, in setup (fewer than two approvers have enrolled), or done. */
export type SetupStanding = 'never' | 'in-setup' | 'done';

export async function setupStanding(db: PrismaClientOrTransaction): Promise<SetupStanding> {
  const row = await db.consoleSetup.findUnique({ where: { id: true }, select: { completedAt: true } });
  if (!row) return 'never';
  return row.completedAt ? 'done' : 'in-setup';
}

/**
 * The first approver of a database that has never had a person (`pnpm cli setup`), awaiting the enrollment
 * whose digest is given; null when the installation was set up before or has people already. Under a lock,
 * so two at once make one.
 */
export async function createFirstApprover(
  db: PrismaClient,
  input: { username: string; enrollmentDigest: string },
): Promise<ConsoleUserView | null> {
  return db.$transaction(async (tx) => {
    await lockApproverChanges(tx);
    const [setUp, people] = await Promise.all([tx.consoleSetup.count(), tx.consoleUser.count()]);
    if (setUp > 0 || people > 0) return null;
    await tx.consoleSetup.create({ data: { firstApprover: input.username } });
    return createConsoleUser(tx, {
      username: input.username,
      role: 'APPROVER',
      enrollmentDigest: input.enrollmentDigest,
    });
  });
}

/** Ends setup once a second approver has enrolled; a no-op outside setup. */
export async function completeSetupIfReady(db: Prisma.TransactionClient): Promise<boolean> {
  if ((await countEnrolledApprovers(db)) < 2) return false;
  const { count } = await db.consoleSetup.updateMany({
    where: { completedAt: null },
    data: { completedAt: new Date() },
  });
  return count > 0;
}

/** A signed-in session: who, with which role, and the CSRF token its forms carry. */
export interface ConsoleSessionView {
  user: ConsoleUserView;
  csrfToken: string;
  expiresAt: Date;
}

/** Only the SHA-256 of a session id is stored, so the table itself signs no one in. */
function sessionHash(sessionId: string): string {
  return createHash('sha256').update(sessionId, 'utf8').digest('hex');
}

export async function createConsoleSession(
  db: PrismaClientOrTransaction,
  input: { sessionId: string; userId: number; csrfToken: string; expiresAt: Date },
): Promise<void> {
  await db.consoleSession.create({
    data: {
      idHash: sessionHash(input.sessionId),
      userId: input.userId,
      csrfToken: input.csrfToken,
      expiresAt: input.expiresAt,
    },
  });
}

/** The live session of `sessionId`: unexpired, its user enrolled and not disabled. */
export async function findConsoleSession(
  db: PrismaClientOrTransaction,
  sessionId: string,
): Promise<ConsoleSessionView | null> {
  const session = await db.consoleSession.findUnique({
    where: { idHash: sessionHash(sessionId) },
    select: { csrfToken: true, expiresAt: true, user: { select: CONSOLE_USER_COLUMNS } },
  });
  if (!session || session.expiresAt <= new Date()) return null;
  const user = consoleUserView(session.user);
  if (user.disabledAt || !user.enrolled) return null;
  return { user, csrfToken: session.csrfToken, expiresAt: session.expiresAt };
}

export async function deleteConsoleSession(db: PrismaClientOrTransaction, sessionId: string): Promise<void> {
  await db.consoleSession.deleteMany({ where: { idHash: sessionHash(sessionId) } });
}

/** Removes expired sessions (called now and then on sign-in, so the table stays small). */
export async function deleteExpiredConsoleSessions(db: PrismaClientOrTransaction): Promise<number> {
  const { count } = await db.consoleSession.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  return count;
}
