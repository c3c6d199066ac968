import { Router } from 'express';
import { collectionStatusBody, transactionQuerySchema, parseQuery } from '@payout/contract';
import { AppError } from '@payout/domain';
import { lookUpCollection, type PrismaClient } from '@payout/db';
import { merchantOf } from '../auth/authenticate.js';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { MESSAGES } from '../http/error-responses.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { sendJson } from '../http/send-json.js';

/** GET /api/payin/status. */
export function collectionRoutes(
  deps: { db: PrismaClient; readDb?: PrismaClient | undefined } & MerchantAccessDeps,
): Router {
  const router = Router();
  router
    .route('/api/payin/status')
    .get(...merchantAccess(deps, 'FAILED'), async (req, res) => {
      const { TransactionID } = parseQuery(transactionQuerySchema, req.query);
      const lookups = { primary: deps.db, replica: deps.readDb };
      const collection = await lookUpCollection(lookups, merchantOf(res).id, TransactionID);
      if (!collection) throw new AppError('NOT_FOUND', MESSAGES.transactionNotFound, { details: { TransactionID } });
      sendJson(res, 200, collectionStatusBody(collection));
    })
    .all(methodNotAllowed);
  return router;
}
