import { Router } from 'express';
import { cancelledTransactionId, payoutStatusBody } from '@payout/contract';
import { AppError } from '@payout/domain';
import { cancelPayout, type CancelPayoutDeps } from '@payout/use-cases';
import { merchantOf } from '../auth/authenticate.js';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { MESSAGES } from '../http/error-responses.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { idempotencyKey } from '../http/idempotency.js';
import { jsonBody } from '../http/json-body.js';
import { requestLines } from '../http/request-context.js';
import { sendJson } from '../http/send-json.js';

/**
 * POST /api/payout/cancel `{TransactionID}` (docs/api.md, "Cancelling a payout"): 200 with the payout's lookup
 * body once it is cancelled (and again for a repeat); 409 when a bank already has it; 404 when there is none.
 */
export function cancelPayoutRoutes(deps: CancelPayoutDeps & MerchantAccessDeps): Router {
  const router = Router();
  router
    .route('/api/payout/cancel')
    .post(...merchantAccess(deps, 'FAILED'), ...jsonBody, idempotencyKey(deps.db), async (req, res) => {
      const transactionId = cancelledTransactionId(req.body);
      const result = await cancelPayout(deps, {
        merchantId: merchantOf(res).id,
        transactionId,
        log: requestLines(req),
      });
      if (!result) {
        throw new AppError('NOT_FOUND', MESSAGES.transactionNotFound, { details: { TransactionID: transactionId } });
      }
      if (result.outcome === 'sent') {
        throw new AppError('CONFLICT', MESSAGES.payoutAlreadySent, { details: { TransactionID: transactionId } });
      }
      sendJson(res, 200, payoutStatusBody(result.payout));
    })
    .all(methodNotAllowed);
  return router;
}
