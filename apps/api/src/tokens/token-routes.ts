import { Router } from 'express';
import {
  revokeTokenRequestSchema,
  rotateTokenRequestSchema,
  tokenRevokedBody,
  tokenLimitMessage,
  tokenRotatedBody,
  validate,
} from '@payout/contract';
import { AppError } from '@payout/domain';
import type { PrismaClient } from '@payout/db';
import { revokeOwnToken, rotateOwnToken } from '@payout/use-cases';
import { merchantOf, tokenDigestOf } from '../auth/authenticate.js';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { MESSAGES } from '../http/error-responses.js';
import { jsonBody } from '../http/json-body.js';
import { sendJson } from '../http/send-json.js';

/**
 * POST /api/token/rotate and POST /api/token/revoke (docs/api.md, "Token rotation"): a merchant changes
 * its own credential with one it holds, so a new token reaches the merchant and nobody else. This process
 * forgets the merchant's cached credentials at once; the others within AUTH_CACHE_TTL_MS.
 */
export function tokenRoutes(deps: { db: PrismaClient } & MerchantAccessDeps): Router {
  const router = Router();
  router
    .route('/api/token/rotate')
    .post(...merchantAccess(deps, 'FAILED'), ...jsonBody, async (req, res) => {
      validate(rotateTokenRequestSchema, req.body);
      const merchant = merchantOf(res);
      const rotated = await rotateOwnToken(deps, { merchantId: merchant.id, mid: merchant.mid });
      if (rotated.kind === 'at-limit') throw new AppError('CONFLICT', tokenLimitMessage(rotated.activePrefixes));
      deps.credentials.forget(merchant.mid);
      res.set('Cache-Control', 'no-store');
      sendJson(res, 200, tokenRotatedBody(rotated.token, rotated.prefix));
    })
    .all(methodNotAllowed);
  router
    .route('/api/token/revoke')
    .post(...merchantAccess(deps, 'FAILED'), ...jsonBody, async (req, res) => {
      const { TokenPrefix } = validate(revokeTokenRequestSchema, req.body);
      const merchant = merchantOf(res);
      const revoked = await revokeOwnToken(deps, {
        merchantId: merchant.id,
        mid: merchant.mid,
        prefix: TokenPrefix,
        callerDigest: tokenDigestOf(res),
      });
      if (revoked.kind === 'no-token') throw new AppError('NOT_FOUND', MESSAGES.tokenNotFound);
      if (revoked.kind === 'own-token') throw new AppError('CONFLICT', MESSAGES.tokenRevokesItself);
      deps.credentials.forget(merchant.mid);
      sendJson(res, 200, tokenRevokedBody(revoked.prefix));
    })
    .all(methodNotAllowed);
  return router;
}
