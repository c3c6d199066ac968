import { Router, type Request, type Response } from 'express';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { jsonBody } from '../http/json-body.js';
import { sendJson } from '../http/send-json.js';
import { validate } from '../validation/validate.js';
import { accountValidationRequestSchema, upiValidationRequestSchema } from './beneficiary-request-schemas.js';
import type { BeneficiaryValidator, BeneficiaryVerdict } from './beneficiary-validator.js';

export interface BeneficiaryRouteDeps extends MerchantAccessDeps {
  beneficiaryValidator: BeneficiaryValidator;
}

const MESSAGES = {
  account: { VALID: 'The beneficiary account exists', INVALID: 'No such beneficiary account at this IFSC' },
  upi: { VALID: 'The UPI address exists', INVALID: 'No such UPI address' },
} as const;

function verdictBody(verdict: BeneficiaryVerdict, asked: Record<string, string>, kind: keyof typeof MESSAGES) {
  return {
    error: false,
    status_code: 200,
    status: verdict.status,
    ...asked,
    registered_name: verdict.registeredName,
    message: MESSAGES[kind][verdict.status],
  };
}

/** POST /api/validate/account and POST /api/validate/upi (CONTRACT.md "Beneficiary validation"). */
export function beneficiaryRoutes(deps: BeneficiaryRouteDeps): Router {
  const router = Router();
  router
    .route('/api/validate/account')
    .post(...merchantAccess(deps, 'FAILED'), ...jsonBody, async (req: Request, res: Response) => {
      const { Account, Ifsc } = validate(accountValidationRequestSchema, req.body);
      const verdict = await deps.beneficiaryValidator.account(req.log, { account: Account, ifsc: Ifsc });
      sendJson(res, 200, verdictBody(verdict, { account: Account, ifsc: Ifsc }, 'account'));
    })
    .all(methodNotAllowed);
  router
    .route('/api/validate/upi')
    .post(...merchantAccess(deps, 'FAILED'), ...jsonBody, async (req: Request, res: Response) => {
      const { Upi } = validate(upiValidationRequestSchema, req.body);
      const verdict = await deps.beneficiaryValidator.upi(req.log, Upi);
      sendJson(res, 200, verdictBody(verdict, { upi: Upi }, 'upi'));
    })
    .all(methodNotAllowed);
  return router;
}
