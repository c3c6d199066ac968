import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  PAYOUT_OPERATIONS,
  payoutResult,
  payoutStatusBody,
  transactionQuerySchema,
  parseQuery,
} from '@payout/contract';
import { AppError, type PayoutRequest } from '@payout/domain';
import { lookUpPayout, type PrismaClient } from '@payout/db';
import { createPayout, type CreatePayoutDeps } from '@payout/use-cases';
import { merchantOf } from '../auth/authenticate.js';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { MESSAGES } from '../http/error-responses.js';
import { methodNotAllowed } from '../http/error-handler.js';
import type { DirectRoute } from '../http/direct-routes.js';
import { idempotencyKey } from '../http/idempotency.js';
import { jsonBody } from '../http/json-body.js';
import { requestLines } from '../http/request-context.js';
import { sendJson } from '../http/send-json.js';
import { CoalescingLookup } from './coalescing-lookup.js';

export interface PayoutRouteDeps extends CreatePayoutDeps, MerchantAccessDeps {
  db: PrismaClient;
  /** The read replica of lookups (READ_DATABASE_URL), if any. */
  readDb?: PrismaClient | undefined;
}

// Status lookups: statements in flight at once (each holds a connection; accepts keep theirs) and payouts per
// statement.
const LOOKUP_MAX_IN_FLIGHT = 4;
const LOOKUP_MAX_BATCH = 200;

/**
 * POST /api/impspayout, POST /api/payout and GET /api/check_payout_status: each route's path, method and
 * handlers, served by the router ({@link payoutRoutes}) and, for an exact match, directly (app.ts).
 */
export function payoutRouteTable(deps: PayoutRouteDeps): DirectRoute[] {
  // Without a replica, concurrent status lookups share statements on the primary (coalescing-lookup.ts);
  // with one, each lookup follows the replica rules of lookUpPayout.
  const statusLookup = new CoalescingLookup(deps.db, { maxBatch: LOOKUP_MAX_BATCH, maxInFlight: LOOKUP_MAX_IN_FLIGHT });
  const findPayout = (merchantId: number, transactionId: string) =>
    deps.readDb
      ? lookUpPayout({ primary: deps.db, replica: deps.readDb }, merchantId, transactionId)
      : statusLookup.find(merchantId, transactionId);

  const payoutOperation = (requestOf: (body: unknown) => PayoutRequest): RequestHandler[] => [
    ...merchantAccess(deps, 'FAILED'),
    ...jsonBody,
    idempotencyKey(deps.db),
    async (req: Request, res: Response) => {
      const payout = await createPayout(deps, {
        merchant: merchantOf(res),
        payout: requestOf(req.body),
        log: requestLines(req),
      });
      const { httpStatus, body } = payoutResult(payout);
      sendJson(res, httpStatus, body);
    },
  ];

  const statusLookupRoute: RequestHandler[] = [
    ...merchantAccess(deps, 'FAILED'),
    async (req, res) => {
      const { TransactionID } = parseQuery(transactionQuerySchema, req.query);
      const payout = await findPayout(merchantOf(res).id, TransactionID);
      if (!payout) {
        throw new AppError('NOT_FOUND', MESSAGES.transactionNotFound, { details: { TransactionID } });
      }
      sendJson(res, 200, payoutStatusBody(payout));
    },
  ];

  return [
    ...Object.values(PAYOUT_OPERATIONS).map(({ path, requestOf }) => ({
      method: 'POST' as const,
      path,
      handlers: payoutOperation(requestOf),
    })),
    { method: 'GET', path: '/api/check_payout_status', handlers: statusLookupRoute },
  ];
}

/** The payout routes on a router: each route's method, and 405 for every other method of its path. */
export function payoutRoutes(table: readonly DirectRoute[]): Router {
  const router = Router();
  for (const { method, path, handlers } of table) {
    const route = router.route(path);
    if (method === 'GET') route.get(...handlers);
    else route.post(...handlers);
    route.all(methodNotAllowed);
  }
  return router;
}
