import type { RequestHandler } from 'express';
import type { AuthFailureLimit } from './auth-failure-limit.js';
import { authenticate, type InvalidMidStatus } from './authenticate.js';
import type { CredentialStore } from './credential-store.js';

export interface MerchantAccessDeps {
  credentials: CredentialStore;
  /** Per-merchant rate limit, or null when disabled. */
  rateLimit: RequestHandler | null;
  /** Per-address limit on failed authentications, checked before authentication; null when disabled. */
  authFailures: AuthFailureLimit | null;
}

/**
 * What stands in front of every merchant endpoint: the address's failure allowance, authentication, then
 * the merchant's rate limit.
 */
export function merchantAccess(deps: MerchantAccessDeps, invalidMidStatus: InvalidMidStatus): RequestHandler[] {
  const auth = authenticate(deps.credentials, invalidMidStatus, deps.authFailures);
  return deps.rateLimit ? [auth, deps.rateLimit] : [auth];
}
