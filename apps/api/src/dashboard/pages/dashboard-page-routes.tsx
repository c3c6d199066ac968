import { Router } from 'express';
import type { ApiDependencies } from '../../app.js';

/** The pages every signed-in merchant user reads: payouts, a payout, the wallet and statement, downtimes. */
export function dashboardPageRoutes(_deps: ApiDependencies): Router {
  return Router({ caseSensitive: true, strict: true });
}
