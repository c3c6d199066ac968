import { Router } from 'express';
import { parsePayoutListQuery, payoutListBody } from '@payout/contract';
import { findPayoutPage, type PrismaClient } from '@payout/db';
import { merchantOf } from '../auth/authenticate.js';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { sendJson } from '../http/send-json.js';

/**
 * GET /api/payouts: the merchant's own payouts, newest first, a page at a time (docs/api.md, "Listing payouts").
 * Authenticated and rate-limited like the status lookup, whose invalid-MID answer it shares; read from the
 * replica when it has caught up (READ_DATABASE_URL), like the lookups.
 */
export function payoutListRoutes(
  deps: { db: PrismaClient; readDb?: PrismaClient | undefined } & MerchantAccessDeps,
): Router {
  const router = Router();
  router
    .route('/api/payouts')
    .get(...merchantAccess(deps, 'FAILED'), async (req, res) => {
      const { filters, limit, after } = parsePayoutListQuery(req.query);
      const page = await findPayoutPage(
        { primary: deps.db, replica: deps.readDb },
        { merchantId: merchantOf(res).id, filters, after, limit },
      );
      sendJson(res, 200, payoutListBody(page, filters));
    })
    .all(methodNotAllowed);
  return router;
}
