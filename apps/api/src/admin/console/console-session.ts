import type { Request, RequestHandler, Response } from 'express';
import {
  authenticatePersonalCredential,
  createConsoleSession,
  deleteConsoleSession,
  deleteExpiredConsoleSessions,
  findConsoleSession,
  setupStanding,
  type ConsoleUserView,
  type PrismaClient,
} from '@payout/db';
import { claimsPersonalCredential } from '@payout/domain';
import { formField, sameSecret, signedInPageCookies } from '../../http/cookies.js';

export { formField };

/**
 * The person behind a request, and how they proved it: `console` — a browser's session cookie, whose
 * forms and JSON posts must carry back `csrfToken`; `cli` — a personal credential sent as
 * `Authorization: Bearer …` to /admin/… (no cookie is involved, so there is nothing to forge and
 * `csrfToken` is empty, which no CSRF check accepts). docs/operations.md, "Security model".
 */
export interface Viewer {
  user: ConsoleUserView;
  csrfToken: string;
  via: 'console' | 'cli';
  /** The bearer credential a `cli` viewer presented (signing out revokes it). */
  credential?: { id: number; kind: 'API_KEY' | 'SIGN_IN'; prefix: string; expiresAt: Date };
  /** The installation is in setup (docs/operations.md, "A new installation"): every console page says so. */
  inSetup?: boolean;
}

/** Every console form carries its CSRF token in this field. */
export const CSRF_FIELD = '_csrf';

/**
 * The console's cookies (`__Host-` over TLS, apps/api/src/http/cookies.ts): the session, the sign-in form's
 * CSRF token before there is a session (double submit), and the secret of the enrollment this browser opened
 * (docs/operations.md, "People and roles").
 */
const cookies = signedInPageCookies({
  session: 'console_session',
  signIn: 'console_signin',
  enrollment: 'console_enroll',
  csrfField: CSRF_FIELD,
});

interface Locals {
  viewer?: Viewer;
  credentialRefused?: boolean;
}

/**
 * Loads the viewer into `res.locals` (see {@link viewerOf}): on /admin/… from a personal credential in
 * `Authorization: Bearer …` when one is sent (the cookie is then not read: the request said who it is),
 * otherwise from the console's session cookie. A bearer token shaped like a personal credential that proves
 * no one (unknown, revoked, expired, its user disabled) is remembered, so the JSON API can answer 401
 * rather than fall back to a cookie. Any other bearer token (the read-only ADMIN_TOKEN) is left to its routes.
 */
export function consoleSession(db: PrismaClient): RequestHandler {
  return async (req, res, next) => {
    const locals = res.locals as Locals;
    const bearer = req.path.startsWith('/admin/') ? personalBearer(req) : undefined;
    if (bearer !== undefined) {
      const person = await authenticatePersonalCredential(db, bearer);
      if (person) locals.viewer = { user: person.user, csrfToken: '', via: 'cli', credential: person.credential };
      else locals.credentialRefused = true;
      next();
      return;
    }
    const sessionId = cookies.sessionIdOf(req);
    if (sessionId) {
      const session = await findConsoleSession(db, sessionId);
      if (session) {
        const inSetup = (await setupStanding(db)) === 'in-setup';
        locals.viewer = { user: session.user, csrfToken: session.csrfToken, via: 'console', inSetup };
      }
    }
    next();
  };
}

export function viewerOf(res: Response): Viewer | undefined {
  return (res.locals as Locals).viewer;
}

/** Whether the request sent a personal credential that proves no one (see {@link consoleSession}). */
export function credentialRefused(res: Response): boolean {
  return (res.locals as Locals).credentialRefused === true;
}

/** The bearer token of a request when it is shaped like a personal credential (`pgk_…`, `pgs_…`). */
function personalBearer(req: Request): string | undefined {
  const header = req.get('Authorization') ?? '';
  if (!header.startsWith('Bearer ')) return undefined;
  const token = header.slice(7).trim();
  return claimsPersonalCredential(token) ? token : undefined;
}

/** Starts a session for `user`: a random id in an HttpOnly cookie, only its digest in PostgreSQL. */
export async function startSession(
  db: PrismaClient,
  req: Request,
  res: Response,
  user: ConsoleUserView,
  ttlMs: number,
): Promise<void> {
  const session = cookies.newSession(ttlMs);
  await createConsoleSession(db, { ...session, userId: user.id });
  cookies.setSession(req, res, session);
  // Sign-in is rare: a good moment to drop expired sessions, so the table needs no sweeper of its own.
  await deleteExpiredConsoleSessions(db);
}

export async function endSession(db: PrismaClient, req: Request, res: Response): Promise<void> {
  const sessionId = cookies.sessionIdOf(req);
  if (sessionId) await deleteConsoleSession(db, sessionId);
  cookies.clearSession(req, res);
}

/** The enrollment secret this browser keeps, if any; kept HttpOnly, as long as the enrollment lasts. */
export const enrollmentSecretOf = cookies.enrollmentSecretOf;
export const keepEnrollmentSecret = cookies.keepEnrollmentSecret;
export const forgetEnrollmentSecret = cookies.forgetEnrollmentSecret;
export const signInCsrfToken = cookies.signInCsrfToken;
export const signInCsrfMatches = cookies.signInCsrfMatches;

/** Whether a signed-in form post carries the session's CSRF token. */
export function csrfMatches(req: Request, viewer: Viewer): boolean {
  return cookies.csrfMatches(req, viewer.csrfToken);
}

/** Whether a signed-in JSON request (the admin API's decisions) repeats the session's CSRF token in X-CSRF-Token. */
export function csrfHeaderMatches(req: Request, viewer: Viewer): boolean {
  return sameSecret(viewer.csrfToken, req.get('X-CSRF-Token'));
}
