import { randomBytes } from 'node:crypto';
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
import { clearCookie, formField, readCookie, sameSecret, setCookie } from '../http/cookies.js';

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

/** Names apart from the console's (`console_session`, …): neither reads the other's cookie. */
const SESSION_COOKIE = 'merchant_session';
/** The sign-in form's CSRF token before there is a session (double submit: cookie and field must match). */
const SIGN_IN_COOKIE = 'merchant_signin';
/** The secret of the enrollment this browser opened. */
const ENROLLMENT_COOKIE = 'merchant_enroll';
export const DASHBOARD_CSRF_FIELD = '_csrf';

/** A dashboard session lasts a working day; signing in again is the way past it. */
export const DASHBOARD_SESSION_TTL_MS = 8 * 60 * 60 * 1000;

interface Locals {
  dashboardViewer?: DashboardViewer;
}

/** Loads the dashboard viewer from the session cookie into `res.locals` (see {@link dashboardViewerOf}). */
export function dashboardSession(db: PrismaClient): RequestHandler {
  return async (req, res, next) => {
    const sessionId = readCookie(req, SESSION_COOKIE);
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
  const sessionId = randomBytes(32).toString('base64url');
  await createMerchantUserSession(db, {
    sessionId,
    userId: user.id,
    csrfToken: randomBytes(32).toString('base64url'),
    expiresAt: new Date(Date.now() + ttlMs),
  });
  setCookie(req, res, SESSION_COOKIE, sessionId, ttlMs);
  clearCookie(req, res, SIGN_IN_COOKIE);
  await deleteExpiredMerchantUserSessions(db);
}

export async function endDashboardSession(db: PrismaClient, req: Request, res: Response): Promise<void> {
  const sessionId = readCookie(req, SESSION_COOKIE);
  if (sessionId) await deleteMerchantUserSession(db, sessionId);
  clearCookie(req, res, SESSION_COOKIE);
}

/** The enrollment secret this browser keeps, if any. */
export function dashboardEnrollmentSecretOf(req: Request): string | undefined {
  return readCookie(req, ENROLLMENT_COOKIE);
}

export function keepDashboardEnrollmentSecret(req: Request, res: Response, secret: string, ttlMs: number): void {
  setCookie(req, res, ENROLLMENT_COOKIE, secret, ttlMs);
}

export function forgetDashboardEnrollmentSecret(req: Request, res: Response): void {
  clearCookie(req, res, ENROLLMENT_COOKIE);
}

/** The sign-in form's CSRF token: the one already in the browser's cookie, or a new one set now. */
export function dashboardSignInCsrfToken(req: Request, res: Response): string {
  const existing = readCookie(req, SIGN_IN_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  setCookie(req, res, SIGN_IN_COOKIE, token, 60 * 60 * 1000);
  return token;
}

/** Whether a sign-in (or enrollment) form post carries the same CSRF token as its cookie. */
export function dashboardSignInCsrfMatches(req: Request): boolean {
  return sameSecret(readCookie(req, SIGN_IN_COOKIE), formField(req, DASHBOARD_CSRF_FIELD));
}

/** Whether a signed-in form post carries the session's CSRF token. */
export function dashboardCsrfMatches(req: Request, viewer: DashboardViewer): boolean {
  return sameSecret(viewer.csrfToken, formField(req, DASHBOARD_CSRF_FIELD));
}
