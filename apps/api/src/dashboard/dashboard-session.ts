import type { Request, RequestHandler, Response } from 'express';
import {
  createMerchantUserSession,
  deleteExpiredMerchantUserSessions,
  deleteMerchantUserSession,
  findMerchantUserSession,
  type DashboardMerchant,
  type MerchantUserView,
  type PrismaClient,
} from '@payout/db';
import { signedInPageCookies } from '../http/cookies.js';

/**
 * The merchant user behind a dashboard request (docs/dashboard.md, "Sessions"): proved by the dashboard's own
 * session cookie, never the console's, and scoped to one merchant — every page reads only `merchant.id`'s data.
 */
export interface DashboardViewer {
  user: MerchantUserView;
  merchant: DashboardMerchant;
  /** Every form of the session carries it back in {@link DASHBOARD_CSRF_FIELD}. */
  csrfToken: string;
}

export const DASHBOARD_CSRF_FIELD = '_csrf';

/** Names apart from the console's (`console_session`, …): neither reads the other's cookie. */
const cookies = signedInPageCookies({
  session: 'merchant_session',
  signIn: 'merchant_signin',
  enrollment: 'merchant_enroll',
  csrfField: DASHBOARD_CSRF_FIELD,
});

/** A dashboard session lasts a working day; signing in again is the way past it. */
export const DASHBOARD_SESSION_TTL_MS = 8 * 60 * 60 * 1000;

interface Locals {
  dashboardViewer?: DashboardViewer;
}

/** Loads the dashboard viewer from the session cookie into `res.locals` (see {@link dashboardViewerOf}). */
export function dashboardSession(db: PrismaClient): RequestHandler {
  return async (req, res, next) => {
    const sessionId = cookies.sessionIdOf(req);
    if (sessionId) {
      const session = await findMerchantUserSession(db, sessionId);
      if (session) {
        (res.locals as Locals).dashboardViewer = {
          user: session.user,
          merchant: session.merchant,
          csrfToken: session.csrfToken,
        };
      }
    }
    next();
  };
}

export function dashboardViewerOf(res: Response): DashboardViewer | undefined {
  return (res.locals as Locals).dashboardViewer;
}

/** Starts a session for `user`: a random id in an HttpOnly cookie, only its digest in PostgreSQL. */
export async function startDashboardSession(
  db: PrismaClient,
  req: Request,
  res: Response,
  user: MerchantUserView,
  ttlMs = DASHBOARD_SESSION_TTL_MS,
): Promise<void> {
  const session = cookies.newSession(ttlMs);
  await createMerchantUserSession(db, { ...session, userId: user.id });
  cookies.setSession(req, res, session);
  await deleteExpiredMerchantUserSessions(db);
}

export async function endDashboardSession(db: PrismaClient, req: Request, res: Response): Promise<void> {
  const sessionId = cookies.sessionIdOf(req);
  if (sessionId) await deleteMerchantUserSession(db, sessionId);
  cookies.clearSession(req, res);
}

/** The enrollment secret this browser keeps, if any. */
export const dashboardEnrollmentSecretOf = cookies.enrollmentSecretOf;
export const keepDashboardEnrollmentSecret = cookies.keepEnrollmentSecret;
export const forgetDashboardEnrollmentSecret = cookies.forgetEnrollmentSecret;
export const dashboardSignInCsrfToken = cookies.signInCsrfToken;
export const dashboardSignInCsrfMatches = cookies.signInCsrfMatches;

/** Whether a signed-in form post carries the session's CSRF token. */
export function dashboardCsrfMatches(req: Request, viewer: DashboardViewer): boolean {
  return cookies.csrfMatches(req, viewer.csrfToken);
}
