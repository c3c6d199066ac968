import { Router, type Request, type Response } from 'express';
import { accountVerdictBody, upiVerdictBody, validate } from '@payout/contract';
import type { PrismaClient } from '@payout/db';
import { merchantOf } from '../auth/authenticate.js';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { idempotencyKey } from '../http/idempotency.js';
import { jsonBody } from '../http/json-body.js';
import { sendJson } from '../http/send-json.js';
import { accountValidationRequestSchema, upiValidationRequestSchema } from './beneficiary-request-schemas.js';
import type { BeneficiaryValidator } from './beneficiary-validator.js';

export interface BeneficiaryRouteDeps extends MerchantAccessDeps {
  beneficiaryValidator: BeneficiaryValidator;
  /** Where Idempotency-Keys are kept (http/idempotency.ts). */
  db: PrismaClient;
}

/**
 * POST /api/validate/account and POST /api/validate/upi (docs/api.md, "Beneficiary validation"): each asked
 * for the authenticated merchant, within its validation quota.
 */
export function beneficiaryRoutes(deps: BeneficiaryRouteDeps): Router {
  const keyed = idempotencyKey(deps.db);
  const router = Router();
  router
    .route('/api/validate/account')
    .post(...merchantAccess(deps, 'FAILED'), ...jsonBody, keyed, async (req: Request, res: Response) => {
      const { Account, Ifsc } = validate(accountValidationRequestSchema, req.body);
      const verdict = await deps.beneficiaryValidator.account(req.log, merchantOf(res).mid, {
        account: Account,
        ifsc: Ifsc,
      });
      sendJson(res, 200, accountVerdictBody(verdict, { account: Account, ifsc: Ifsc }));
    })
    .all(methodNotAllowed);
  router
    .route('/api/validate/upi')
    .post(...merchantAccess(deps, 'FAILED'), ...jsonBody, keyed, async (req: Request, res: Response) => {
      const { Upi } = validate(upiValidationRequestSchema, req.body);
      const verdict = await deps.beneficiaryValidator.upi(req.log, merchantOf(res).mid, Upi);
      sendJson(res, 200, upiVerdictBody(verdict, { upi: Upi }));
    })
    .all(methodNotAllowed);
  return router;
}
