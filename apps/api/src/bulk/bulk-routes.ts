import { Router, type Request, type Response } from 'express';
import {
  batchQuerySchema,
  bulkAcceptedBody,
  bulkPayoutRequestSchema,
  bulkStatusBody,
  parseQuery,
  validate,
} from '@payout/contract';
import { AppError, MAX_BULK_ITEMS } from '@payout/domain';
import { findBulkBatchState, submitBulkPayout } from '@payout/use-cases';
import { merchantOf } from '../auth/authenticate.js';
import { merchantAccess } from '../auth/merchant-access.js';
import { MESSAGES } from '../http/error-responses.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { idempotencyKey } from '../http/idempotency.js';
import { largeJsonBody } from '../http/json-body.js';
import { sendJson } from '../http/send-json.js';
import type { PayoutRouteDeps } from '../payouts/payout-routes.js';

/**
 * A full batch is up to 5,000 payouts of a few hundred bytes each; the largest items the schemas allow come
 * to well under 1 KiB. 8 MiB holds any valid batch with room to spare and still bounds what one request
 * may make the API read and parse.
 */
export const BULK_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/** POST /api/bulkpayout and GET /api/bulkpayout/status. */
export function bulkPayoutRoutes(deps: PayoutRouteDeps): Router {
  const router = Router();
  router
    .route('/api/bulkpayout')
    .post(
      ...merchantAccess(deps, 'FAILED'),
      ...largeJsonBody(BULK_BODY_LIMIT_BYTES, `The request body must not exceed 8 MiB (${MAX_BULK_ITEMS} payouts).`),
      idempotencyKey(deps.db),
      async (req: Request, res: Response) => {
        const { BatchID, Payouts } = validate(bulkPayoutRequestSchema, req.body);
        const batch = await submitBulkPayout(deps, {
          merchant: merchantOf(res),
          batchId: BatchID,
          payouts: Payouts,
          log: req.log,
        });
        sendJson(res, 202, bulkAcceptedBody(batch));
      },
    )
    .all(methodNotAllowed);
  router
    .route('/api/bulkpayout/status')
    .get(...merchantAccess(deps, 'FAILED'), async (req, res) => {
      const { BatchID } = parseQuery(batchQuerySchema, req.query);
      const batch = await findBulkBatchState(deps.db, merchantOf(res).id, BatchID);
      if (!batch) throw new AppError('NOT_FOUND', MESSAGES.transactionNotFound, { details: { BatchID } });
      sendJson(res, 200, bulkStatusBody(batch));
    })
    .all(methodNotAllowed);
  return router;
}
