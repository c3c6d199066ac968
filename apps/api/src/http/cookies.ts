import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * The cookies of the signed-in pages (the support console, the merchant dashboard). Over TLS (directly, or
 * behind a proxy Express is told to trust) a cookie's name carries the `__Host-` prefix: a browser then keeps
 * it only if it is Secure, has Path=/ and no Domain, so neither a plain-http page nor a sibling subdomain can
 * plant or overwrite it (docs/operations.md, "Support console"). Browsers refuse that prefix without TLS, so
 * plain http (development) uses the bare name. A request is read by the one name its own scheme sets.
 */
function cookieName(req: Request, name: string): string {
  return req.secure ? `__Host-${name}` : name;
}

export function readCookie(req: Request, name: string): string | undefined {
  const wanted = cookieName(req, name);
  for (const part of (req.get('Cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === wanted) return part.slice(eq + 1).trim();
  }
  return undefined;
}

// HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), Secure over TLS, Path=/
// and no Domain (what the __Host- prefix requires).
export function setCookie(req: Request, res: Response, name: string, value: string, maxAgeMs: number): void {
  res.cookie(cookieName(req, name), value, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.secure,
    path: '/',
    maxAge: maxAgeMs,
  });
}

export function clearCookie(req: Request, res: Response, name: string): void {
  res.clearCookie(cookieName(req, name), { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/' });
}

/** Whether two secrets are equal, in time that does not depend on where they differ. */
export function sameSecret(expected: string | undefined, presented: string | undefined): boolean {
  if (!expected || !presented) return false;
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

/** A field of a urlencoded form body, when it is a string. */
export function formField(req: Request, name: string): string | undefined {
  const body = req.body as Record<string, unknown> | undefined;
  const value = body?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The cookie names of one kind of signed-in pages, and the form field their CSRF token travels in. */
export interface SignedInPageNames {
  /** The session's random id (PostgreSQL holds only its digest). */
  session: string;
  /** The sign-in and enrollment forms' CSRF token before there is a session (double submit). */
  signIn: string;
  /** The secret of the enrollment this browser opened: it never leaves that browser. */
  enrollment: string;
  csrfField: string;
}

/** A session about to start: its id for the cookie, and what the sessions table stores beside its digest. */
export interface NewSession {
  sessionId: string;
  csrfToken: string;
  expiresAt: Date;
}

/**
 * The cookies of a kind of signed-in pages — the support console's and the merchant dashboard's, each with
 * its own names, so neither ever reads the other's: the session, the sign-in form's CSRF token and the
 * enrollment's secret.
 */
export function signedInPageCookies(names: SignedInPageNames) {
  return {
    sessionIdOf: (req: Request): string | undefined => readCookie(req, names.session),
    newSession: (ttlMs: number): NewSession => ({
      sessionId: randomBytes(32).toString('base64url'),
      csrfToken: randomBytes(32).toString('base64url'),
      expiresAt: new Date(Date.now() + ttlMs),
    }),
    /** Gives the browser a stored session's cookie; the sign-in form's token has served its purpose. */
    setSession: (req: Request, res: Response, session: NewSession): void => {
      setCookie(req, res, names.session, session.sessionId, session.expiresAt.getTime() - Date.now());
      clearCookie(req, res, names.signIn);
    },
    clearSession: (req: Request, res: Response): void => clearCookie(req, res, names.session),
    enrollmentSecretOf: (req: Request): string | undefined => readCookie(req, names.enrollment),
    keepEnrollmentSecret: (req: Request, res: Response, secret: string, ttlMs: number): void => {
      setCookie(req, res, names.enrollment, secret, ttlMs);
    },
    forgetEnrollmentSecret: (req: Request, res: Response): void => clearCookie(req, res, names.enrollment),
    /** The sign-in form's CSRF token: the one already in the browser's cookie, or a new one set now. */
    signInCsrfToken: (req: Request, res: Response): string => {
      const existing = readCookie(req, names.signIn);
      if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
      const token = randomBytes(32).toString('base64url');
      setCookie(req, res, names.signIn, token, 60 * 60 * 1000);
      return token;
    },
    /** Whether a sign-in or enrollment form post carries the same CSRF token as its cookie. */
    signInCsrfMatches: (req: Request): boolean =>
      sameSecret(readCookie(req, names.signIn), formField(req, names.csrfField)),
    /** Whether a signed-in form post carries its session's CSRF token. */
    csrfMatches: (req: Request, csrfToken: string): boolean => sameSecret(csrfToken, formField(req, names.csrfField)),
  };
}
