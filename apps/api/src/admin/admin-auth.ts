import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { AppError } from '@payout/domain';

/**
 * The scripts' guard on /admin/…: the admin token as a Bearer token, or as the password of HTTP Basic
 * authentication. Compared in constant time.
 */
export function requireAdmin(adminToken: string): RequestHandler {
  const holdsToken = presentsAdminToken(adminToken);
  return (req, res, next) => {
    if (holdsToken(req)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Basic realm="payout-gateway admin", charset="UTF-8"');
    throw new AppError('UNAUTHENTICATED', 'Admin credentials are missing or invalid.');
  };
}

/** Whether a request carries the admin token (Bearer, or the Basic password). */
export function presentsAdminToken(adminToken: string): (req: Request) => boolean {
  const expected = digest(adminToken);
  return (req) => {
    const header = req.get('Authorization') ?? '';
    let presented: string | undefined;
    if (header.startsWith('Bearer ')) presented = header.slice(7);
    else if (header.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      presented = decoded.slice(decoded.indexOf(':') + 1);
    }
    return presented !== undefined && timingSafeEqual(digest(presented), expected);
  };
}

// Equal-length digests, so the comparison itself reveals nothing about the token's length.
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
