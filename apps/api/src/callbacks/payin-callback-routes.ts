import { Router } from 'express';
import type { PrismaClient } from '@payout/db';
import { collectionStatusBody, validate } from '@payout/contract';
import { methodNotAllowed } from '../http/error-handler.js';
import { sendJson } from '../http/send-json.js';
import { payinCallbackSchema } from './payin-callback-schema.js';
import { recordPayin } from './record-payin.js';
import { signedJsonBody } from './signed-json-body.js';

export interface PayinCallbackDeps {
  db: PrismaClient;
  /** The collection provider's shared secret (PAYIN_CALLBACK_SECRET). */
  payinCallbackSecret: string;
}

/**
 * POST /api/callbacks/payin: the collection provider reports a pay-in, authenticated by the HMAC signature
 * of its raw body (not by a merchant's MID and Token). The answer is the collection as the pay-in status
 * lookup shows it, plus `outcome` (created, updated or unchanged) and whether this report credited the wallet.
 */
export function payinCallbackRoutes(deps: PayinCallbackDeps): Router {
  const router = Router();
  router
    .route('/api/callbacks/payin')
    .post(...signedJsonBody(deps.payinCallbackSecret), async (req, res) => {
      const report = validate(payinCallbackSchema, req.body);
      const { result, collection } = await recordPayin(deps.db, req.log, report);
      sendJson(res, 200, { ...collectionStatusBody(collection), outcome: result.outcome, credited: result.credited });
    })
    .all(methodNotAllowed);
  return router;
}
