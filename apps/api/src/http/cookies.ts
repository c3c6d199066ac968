import { createHash, timingSafeEqual } from 'node:crypto';
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
