import { Router } from 'express';
import {
  CREDENTIAL_MESSAGES,
  revokeTokenRequestSchema,
  rotateTokenRequestSchema,
  tokenRevokedBody,
  tokenLimitMessage,
  tokenRotatedBody,
  validate,
  webhookSecretIssuedBody,
  webhookSecretRequestSchema,
} from '@payout/contract';
import { AppError } from '@payout/domain';
import type { PrismaClient } from '@payout/db';
import { revokeOwnToken, rotateOwnToken, rotateOwnWebhookSecret, type RevokeOwnTokenOutcome } from '@payout/use-cases';
import { merchantOf, tokenDigestOf } from '../auth/authenticate.js';
import { merchantAccess, type MerchantAccessDeps } from '../auth/merchant-access.js';
import { methodNotAllowed } from '../http/error-handler.js';
import { MESSAGES } from '../http/error-responses.js';
import { idempotencyKey, SECRETS_SHOWN_ONCE } from '../http/idempotency.js';
import { jsonBody } from '../http/json-body.js';
import { sendJson } from '../http/send-json.js';

/**
 * A merchant's own credentials, changed with one it holds, so what they answer reaches the merchant and
 * nobody else: POST /api/token/rotate and POST /api/token/revoke (docs/api.md, "Token rotation"), and
 * POST /api/webhook/secret (docs/webhooks.md, "The signing secret"). A token change makes this process
 * forget the merchant's cached credentials at once; the others within AUTH_CACHE_TTL_MS.
 */
export function tokenRoutes(deps: { db: PrismaClient } & MerchantAccessDeps): Router {
  // An Idempotency-Key's stored answer never holds the token or secret these show once (http/idempotency.ts).
  const rotationKey = idempotencyKey(deps.db, SECRETS_SHOWN_ONCE.token);
  const secretKey = idempotencyKey(deps.db, SECRETS_SHOWN_ONCE.webhookSecret);
  const router = Router();
  router
    .route('/api/token/rotate')
    .post(...merchantAccess(deps, 'FAILED'), ...jsonBody, rotationKey, async (req, res) => {
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
    .post(...merchantAccess(deps, 'FAILED'), ...jsonBody, idempotencyKey(deps.db), async (req, res) => {
      const { TokenPrefix } = validate(revokeTokenRequestSchema, req.body);
      const merchant = merchantOf(res);
      const revoked = await revokeOwnToken(deps, {
        merchantId: merchant.id,
        mid: merchant.mid,
        prefix: TokenPrefix,
        callerDigest: tokenDigestOf(res),
      });
      if (revoked.kind !== 'revoked') throw revocationRefused(revoked);
      deps.credentials.forget(merchant.mid);
      sendJson(res, 200, tokenRevokedBody(revoked.prefix));
    })
    .all(methodNotAllowed);
  router
    .route('/api/webhook/secret')
    .post(...merchantAccess(deps, 'FAILED'), ...jsonBody, secretKey, async (req, res) => {
      validate(webhookSecretRequestSchema, req.body);
      const merchant = merchantOf(res);
      const issued = await rotateOwnWebhookSecret(deps, { merchantId: merchant.id, mid: merchant.mid });
      if (issued.kind === 'no-endpoint') throw new AppError('NOT_FOUND', CREDENTIAL_MESSAGES.webhookNotRegistered);
      res.set('Cache-Control', 'no-store');
      sendJson(res, 200, webhookSecretIssuedBody(issued.secret, issued.prefix, issued.previousValidUntil));
    })
    .all(methodNotAllowed);
  return router;
}

function revocationRefused(refused: Exclude<RevokeOwnTokenOutcome, { kind: 'revoked' }>): AppError {
  switch (refused.kind) {
    case 'no-token':
      return new AppError('NOT_FOUND', MESSAGES.tokenNotFound);
    case 'older-token':
      return new AppError('CONFLICT', CREDENTIAL_MESSAGES.tokenRevokesOlder);
    case 'last-token':
      return new AppError('CONFLICT', CREDENTIAL_MESSAGES.lastToken);
    case 'caller-revoked':
      // Revoked while this request waited: it answers as any request with a revoked token would.
      return new AppError('UNAUTHENTICATED', MESSAGES.unauthenticated);
  }
}
