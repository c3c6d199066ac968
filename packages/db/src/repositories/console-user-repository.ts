import { createHash } from 'node:crypto';
import type { ConsoleRole } from '@payout/domain';
import { Prisma } from '../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../client.js';

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
}

const VIEW = { id: true, username: true, role: true, disabledAt: true } as const;

/** Adds a console user with an already hashed password. */
export async function createConsoleUser(
  db: PrismaClientOrTransaction,
  input: { username: string; role: ConsoleRole; passwordHash: string },
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

/** Disables a user and ends every session of theirs in the same transaction; null when there is no such user. */
export async function disableConsoleUser(
  db: Prisma.TransactionClient | PrismaClientOrTransaction,
  username: string,
): Promise<ConsoleUserView | null> {
  const [row] = await db.$queryRaw<{ id: number }[]>`
    WITH u AS (
      UPDATE console_users SET disabled_at = coalesce(disabled_at, now()), updated_at = now()
       WHERE username = ${username} RETURNING id
    ), ended AS (DELETE FROM console_sessions s USING u WHERE s.user_id = u.id)
    SELECT id FROM u`;
  return viewOfChanged(db, row);
}

/** Sets a new password hash, enables the user again, and ends every session of theirs. */
export async function resetConsolePassword(
  db: PrismaClientOrTransaction,
  username: string,
  passwordHash: string,
): Promise<ConsoleUserView | null> {
  const [row] = await db.$queryRaw<{ id: number }[]>`
    WITH u AS (
      UPDATE console_users
         SET password_hash = ${passwordHash}, password_changed_at = now(), disabled_at = NULL, updated_at = now()
       WHERE username = ${username} RETURNING id
    ), ended AS (DELETE FROM console_sessions s USING u WHERE s.user_id = u.id)
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
  if (!session || session.expiresAt <= new Date() || session.user.disabledAt) return null;
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
