import type { RequestHandler, Response } from 'express';
import { addressAllowed, AppError, digestMatchesAny, hashToken, isMid } from '@payout/domain';
import type { MerchantCredentials } from '@payout/db';
import { MESSAGES } from '../http/error-responses.js';
import { logMerchant } from '../http/request-context.js';
import type { AuthFailureLimit } from './auth-failure-limit.js';
import type { CredentialStore } from './credential-store.js';

export type AuthenticatedMerchant = MerchantCredentials['merchant'];

/** The `status` text of the invalid-MID answer, which differs by endpoint (docs/api.md, "Order of checks"). */
export type InvalidMidStatus = 'FAILED' | 'BAD REQUEST';

/**
 * Authenticates by the `MID` and `Token` headers, before anything else of the request is read, in the
 * contract's order: missing → 401; malformed MID → 400; unknown MID or wrong token → 401 (the token is
 * compared in constant time against stored digests); a right token from an address outside the merchant's
 * IP allow-list → the same 401, so the answer does not say the token was right (docs/api.md, "IP
 * allow-list"; the address is req.ip, which honours TRUST_PROXY_HOPS); suspended merchant → 400. In front of all of it, an
 * address that has failed too often is refused with 429, and each failure above counts against its
 * address (auth-failure-limit.ts); a suspended merchant's own requests are not failures of that kind.
 * A credential this process already knows to be good (credential-store.ts, `vouchedCredentials`) is not held to
 * its address's allowance: a merchant must not be locked out because someone else at the same address (a
 * NAT, a shared egress) sent bad tokens (docs/operations.md, "Floods before authentication").
 */
export function authenticate(
  store: CredentialStore,
  invalidMidStatus: InvalidMidStatus,
  failures: AuthFailureLimit | null = null,
): RequestHandler {
  const invalidMid = () => new AppError('INVALID_MID', MESSAGES.invalidMid, { details: { status: invalidMidStatus } });
  return async (req, res, next) => {
    const mid = headerText(req.headers.mid);
    const token = headerText(req.headers.token);
    // Hashed once: the cache's word, the comparisons and the note of the token's use all take the digest.
    const digest = hashToken(token);
    // The credentials the cache already vouches for: not held to the address's allowance, and not compared
    // again below if the lookup answers with the very same entry.
    const vouched = failures ? store.vouchedCredentials(mid, digest, req.ip) : undefined;
    if (failures && !vouched) failures.admit(req);
    const refuse = (error: AppError): never => {
      failures?.recordFailure(req);
      throw error;
    };
    if (!mid || !token) return refuse(new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated));
    if (!isMid(mid)) return refuse(invalidMid());
    let credentials = await store.lookup(mid);
    if (credentials !== vouched) {
      if (credentials && !digestMatchesAny(digest, credentials.activeTokenHashes))
        credentials = await store.recheck(mid);
      if (
        !credentials ||
        !digestMatchesAny(digest, credentials.activeTokenHashes) ||
        !addressAllowed(credentials.ipAllowlist, req.ip)
      ) {
        return refuse(new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated));
      }
    }
    if (credentials.merchant.status !== 'ACTIVE') throw invalidMid();
    store.noteUse(digest);
    res.locals.merchant = credentials.merchant;
    res.locals.tokenDigest = digest;
    // From here on the MID is known to be a merchant's, so it may appear in this request's log lines.
    logMerchant(req, credentials.merchant.mid);
    next();
  };
}

/** A header's text, '' when absent (Node joins a repeated header of these names into one text). */
function headerText(value: string | string[] | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** The digest of the token `authenticate` admitted: the one a request may not revoke (docs/api.md, "Token rotation"). */
export function tokenDigestOf(res: Response): string {
  const digest = res.locals.tokenDigest as string | undefined;
  if (!digest) throw new AppError('INTERNAL', 'route used tokenDigestOf without authenticate', { operational: false });
  return digest;
}

/** The merchant `authenticate` admitted. */
export function merchantOf(res: Response): AuthenticatedMerchant {
  const merchant = res.locals.merchant as AuthenticatedMerchant | undefined;
  if (!merchant) throw new AppError('INTERNAL', 'route used merchantOf without authenticate', { operational: false });
  return merchant;
}
