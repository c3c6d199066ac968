import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  badBodySchema,
  lastTokenSchema,
  revokeTokenRequestSchema,
  rotateTokenRequestSchema,
  tokenLimitSchema,
  tokenNotFoundSchema,
  tokenRevokedSchema,
  tokenRevokesOlderSchema,
  tokenRotatedSchema,
  webhookNotRegisteredSchema,
  webhookSecretIssuedSchema,
  webhookSecretRequestSchema,
} from '@payout/contract';

// The merchant's own credential operations (docs/api.md, "Token rotation" and "Webhook signing secret"),
// their bodies from the wire contract. Registered by openapi-document.ts with its shared outcomes.

interface SharedOutcomes {
  response: (description: string, schema: z.ZodType, extra?: Partial<ResponseConfig>) => ResponseConfig;
  common: Record<number, ResponseConfig>;
  postOnly: Record<number, ResponseConfig>;
  validation: (what: string) => ResponseConfig;
  /** The invalid-MID body with status FAILED. */
  invalidMid: z.ZodType;
  security: { MID: string[]; Token: string[] }[];
}

export function registerTokenPaths(registry: OpenAPIRegistry, shared: SharedOutcomes): void {
  const { response, common, postOnly, validation, invalidMid, security } = shared;
  const refusedBeforeReading = response(
    'Malformed MID (or merchant suspended), or the body is not a JSON object.',
    z.union([invalidMid, badBodySchema]),
  );
  registry.registerPath({
    method: 'post',
    path: '/api/token/rotate',
    operationId: 'rotateToken',
    tags: ['Tokens'],
    summary: 'Get a new token, keeping the current one until you revoke it',
    description:
      'Authenticated by a token you hold. Answers a new token once (only its digest is kept). Both tokens work ' +
      'until you revoke the old one with POST /api/token/revoke, sent with the old one itself. You hold at most ' +
      'two active tokens: at two, this is 409 and no token is made.',
    security,
    request: { body: { required: true, content: { 'application/json': { schema: rotateTokenRequestSchema } } } },
    responses: {
      200: response('The new token, shown this once.', tokenRotatedSchema),
      400: refusedBeforeReading,
      409: response('You already hold two active tokens. Nothing changed.', tokenLimitSchema),
      ...postOnly,
      ...common,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/token/revoke',
    operationId: 'revokeToken',
    tags: ['Tokens'],
    summary: 'Revoke one of your tokens by its prefix',
    description:
      'A token revokes itself, while you hold another, or a token newer than itself; never an older one, so a ' +
      'token rotated from a leaked one cannot take your original away. The token stops working at once on the ' +
      'server that answers, and everywhere within a few seconds.',
    security,
    request: { body: { required: true, content: { 'application/json': { schema: revokeTokenRequestSchema } } } },
    responses: {
      200: response('The token is revoked.', tokenRevokedSchema),
      400: refusedBeforeReading,
      404: response('No active token of yours has this prefix. Nothing changed.', tokenNotFoundSchema),
      409: response(
        'The prefix names a token older than the one this request was sent with, or this very token while you ' +
          'hold no other. Nothing changed.',
        z.union([tokenRevokesOlderSchema, lastTokenSchema]),
      ),
      ...postOnly,
      422: validation('TokenPrefix missing or not a token prefix'),
      ...common,
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/webhook/secret',
    operationId: 'rotateWebhookSecret',
    tags: ['Webhook signing secret'],
    summary: 'Get a new signing secret for your webhooks',
    description:
      'Authenticated by a token you hold. Answers a new signing secret once, to you only: nobody at the gateway ' +
      'sees it. The secret it replaces keeps signing deliveries, as a second signature, for 24 hours. A webhook ' +
      'URL our staff registered for you holds its deliveries until you fetch your first secret; they are sent ' +
      'once you have, none lost.',
    security,
    request: { body: { required: true, content: { 'application/json': { schema: webhookSecretRequestSchema } } } },
    responses: {
      200: response('The new signing secret, shown this once.', webhookSecretIssuedSchema),
      400: refusedBeforeReading,
      404: response('No webhook URL is registered for you yet. Nothing changed.', webhookNotRegisteredSchema),
      ...postOnly,
      ...common,
    },
  });
}
