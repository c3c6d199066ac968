import type { RequestHandler } from 'express';
import { authenticate, type InvalidMidStatus } from './authenticate.js';
import type { CredentialStore } from './credential-store.js';

export interface MerchantAccessDeps {
  credentials: CredentialStore;
  /** Per-merchant rate limit, or null when disabled. */
  rateLimit: RequestHandler | null;
}

/** What stands in front of every merchant endpoint: authentication, then the merchant's rate limit. */
export function merchantAccess(deps: MerchantAccessDeps, invalidMidStatus: InvalidMidStatus): RequestHandler[] {
  const auth = authenticate(deps.credentials, invalidMidStatus);
  return deps.rateLimit ? [auth, deps.rateLimit] : [auth];
}
