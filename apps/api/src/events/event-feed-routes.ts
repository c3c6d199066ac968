import { Router } from 'express';
import { eventFeedBody, parseEventFeedQuery } from '@payout/contract';
import { findEventPage, type PrismaClient } from '@payout/db';
import { merchantOf } from '../auth/authenticate.js';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { sendJson } from '../http/send-json.js';

/**
 * GET /api/events: the merchant's own events, every one a webhook carries, in the order they were recorded, a
 * page at a time from a position (docs/api.md, "Events feed"). Authenticated and rate-limited like the status
 * lookup, whose invalid-MID answer it shares. Read from the primary, never a replica: the feed must hold every
 * event a webhook has already told of, and never step back.
 */
export function eventFeedRoutes(deps: { db: PrismaClient } & MerchantAccessDeps): Router {
  const router = Router();
  router
    .route('/api/events')
    .get(...merchantAccess(deps, 'FAILED'), async (req, res) => {
      const { after, limit } = parseEventFeedQuery(req.query);
      const events = await findEventPage(deps.db, { merchantId: merchantOf(res).id, after, limit });
      sendJson(res, 200, eventFeedBody(events, after));
    })
    .all(methodNotAllowed);
  return router;
}
