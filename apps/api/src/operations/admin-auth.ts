import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '@payout/domain';

/**
 * The support console's guard: the admin token as a Bearer token (scripts), or as the password of HTTP
 * Basic authentication (so a browser can open the queue dashboard). Compared in constant time.
 */
export function requireAdmin(adminToken: string): RequestHandler {
  const expected = digest(adminToken);
  return (req, res, next) => {
    const header = req.get('Authorization') ?? '';
    let presented: string | undefined;
    if (header.startsWith('Bearer ')) presented = header.slice(7);
    else if (header.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      presented = decoded.slice(decoded.indexOf(':') + 1);
    }
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Basic realm="payout-gateway admin", charset="UTF-8"');
    throw new AppError('UNAUTHENTICATED', 'Admin credentials are missing or invalid.');
  };
}

// Equal-length digests, so the comparison itself reveals nothing about the token's length.
function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
