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
  /** Their password was made for them: until they choose their own they may only do that (docs/operations.md, "Security model"). */
  mustChangePassword: boolean;
}

const VIEW = { id: true, username: true, role: true, disabledAt: true, mustChangePassword: true } as const;

/** Adds a console user with an already hashed password. */
export async function createConsoleUser(
  db: PrismaClientOrTransaction,
  input: { username: string; role: ConsoleRole; passwordHash: string; mustChangePassword?: boolean },
): Promise<ConsoleUserView> {
  try {
    return await db.consoleUser.create({ data: input, select: VIEW });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new ConsoleUsernameTakenError(input.username);
    }
    throw error;
  }
}

/** The user and their password hash, for signing in; null when there is no such user. */
export function findConsoleUserForSignIn(
  db: PrismaClientOrTransaction,
  username: string,
): Promise<(ConsoleUserView & { passwordHash: string }) | null> {
  return db.consoleUser.findUnique({ where: { username }, select: { ...VIEW, passwordHash: true } });
}

/** The user named `username`, without their password hash; null when there is none. */
export function findConsoleUser(db: PrismaClientOrTransaction, username: string): Promise<ConsoleUserView | null> {
  return db.consoleUser.findUnique({ where: { username }, select: VIEW });
}

/**
 * Disables a user, ends every session and revokes every personal credential of theirs in one statement;
 * null when there is no such user.
 */
export async function disableConsoleUser(
  db: Prisma.TransactionClient | PrismaClientOrTransaction,
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
 * Sets a new password hash, enables the user again, and ends every session and revokes every personal
 * credential of theirs. `mustChange`: the password was made for them, so they must choose their own first.
 */
export async function resetConsolePassword(
  db: PrismaClientOrTransaction,
  username: string,
  passwordHash: string,
  mustChange = false,
): Promise<ConsoleUserView | null> {
  const [row] = await db.$queryRaw<{ id: number }[]>`
    WITH u AS (
      UPDATE console_users
         SET password_hash = ${passwordHash}, password_changed_at = now(), disabled_at = NULL,
             must_change_password = ${mustChange}, updated_at = now()
       WHERE username = ${username} RETURNING id
    ), ended AS (DELETE FROM console_sessions s USING u WHERE s.user_id = u.id),
    revoked AS (
      UPDATE personal_credentials c SET revoked_at = now() FROM u WHERE c.user_id = u.id AND c.revoked_at IS NULL
    )
    SELECT id FROM u`;
  return viewOfChanged(db, row);
}

/** The user a statement above changed (and whose sessions it ended), or null when it found no such user. */
function viewOfChanged(
  db: PrismaClientOrTransaction,
  row: { id: number } | undefined,
): Promise<ConsoleUserView | null> {
  return row ? db.consoleUser.findUnique({ where: { id: row.id }, select: VIEW }) : Promise.resolve(null);
}

/**
 * A person's own new password, chosen at first sign-in after one was made for them: clears the demand to
 * change it and ends any session (there should be none). Null when there is no such enabled user.
 */
export async function changeOwnConsolePassword(
  db: PrismaClientOrTransaction,
  userId: number,
  passwordHash: string,
): Promise<ConsoleUserView | null> {
  const [row] = await db.$queryRaw<{ id: number }[]>`
    WITH u AS (
      UPDATE console_users
         SET password_hash = ${passwordHash}, password_changed_at = now(), must_change_password = false,
             updated_at = now()
       WHERE id = ${userId} AND disabled_at IS NULL RETURNING id
    ), ended AS (DELETE FROM console_sessions s USING u WHERE s.user_id = u.id)
    SELECT id FROM u`;
  return viewOfChanged(db, row);
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

/**
 * The first approver of an empty installation, made directly (docs/operations.md, "Security model"): only
 * while no enabled approver exists, checked under a lock so two at once make one. Null when there is one
 * already — from then on a person is added by a request another approver approves.
 */
export async function createFirstApprover(
  db: PrismaClient,
  input: { username: string; passwordHash: string },
): Promise<ConsoleUserView | null> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('console_users.first_approver'))`;
    if ((await countActiveApprovers(tx)) > 0) return null;
    return createConsoleUser(tx, { username: input.username, role: 'APPROVER', passwordHash: input.passwordHash });
  });
}

/** How many enabled approvers there are: none means an empty installation, whose first approver is made directly. */
export function countActiveApprovers(db: PrismaClientOrTransaction): Promise<number> {
  return db.consoleUser.count({ where: { role: 'APPROVER', disabledAt: null } });
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

/** The live session of `sessionId`: unexpired, and its user not disabled. */
export async function findConsoleSession(
  db: PrismaClientOrTransaction,
  sessionId: string,
): Promise<ConsoleSessionView | null> {
  const session = await db.consoleSession.findUnique({
    where: { idHash: sessionHash(sessionId) },
    select: { csrfToken: true, expiresAt: true, user: { select: VIEW } },
  });
  if (!session || session.expiresAt <= new Date() || session.user.disabledAt || session.user.mustChangePassword) {
    return null;
  }
  return session;
}

export async function deleteConsoleSession(db: PrismaClientOrTransaction, sessionId: string): Promise<void> {
  await db.consoleSession.deleteMany({ where: { idHash: sessionHash(sessionId) } });
}

/** Removes expired sessions (called now and then on sign-in, so the table stays small). */
export async function deleteExpiredConsoleSessions(db: PrismaClientOrTransaction): Promise<number> {
  const { count } = await db.consoleSession.deleteMany({ where: { expiresAt: { lte: new Date() } } });
  return count;
}
