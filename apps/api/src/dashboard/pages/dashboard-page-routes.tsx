import { Router } from 'express';
import type { ApiDependencies } from '../../app.js';
import { downtimesPageRoutes } from './downtimes-page.js';
import { payoutPageRoutes } from './payout-page.js';
import { payoutsPageRoutes } from './payouts-page.js';
import { walletPageRoutes } from './wallet-page.js';

/**
 * The pages every signed-in merchant user reads (docs/dashboard.md): payouts, a payout, the wallet and its
 * statement, downtimes; one module per page, each route wrapped in `permit` with the permission it needs.
 */
export function dashboardPageRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.use(payoutsPageRoutes(deps));
  router.use(payoutPageRoutes(deps));
  router.use(walletPageRoutes(deps));
  router.use(downtimesPageRoutes(deps));
  return router;
}
