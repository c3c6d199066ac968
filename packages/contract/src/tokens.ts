import { z } from 'zod';
import { okHead } from './members.js';

// A merchant's own credential work (docs/api.md, "Token rotation" and "Webhook signing secret"): the
// requests, their 200 bodies and the refusals of their own. Nobody at the gateway is shown what they answer.

const prefix = z
  .string()
  .meta({ description: "The token's first 10 characters: how you name it to revoke it.", examples: ['pgt_Xk3q9Z'] });

// Members not listed are ignored, as in every request of this API.
export const rotateTokenRequestSchema = z
  .object({})
  .meta({ id: 'TokenRotationRequest', description: 'No members: the token you send in the headers is the proof.' });

export const revokeTokenRequestSchema = z
  .object({
    TokenPrefix: z
      .string({
        error: (issue) => (issue.input === undefined ? 'TokenPrefix is required' : 'TokenPrefix must be text'),
      })
      .regex(/^pgt_[A-Za-z0-9_-]{6}$/, { error: 'TokenPrefix must be the first 10 characters of a token (pgt_…)' })
      .meta({
        description:
          'The prefix of the token to revoke: the token this request is sent with (while you hold another), or a ' +
          'newer one, never an older one.',
        examples: ['pgt_Xk3q9Z'],
      }),
  })
  .meta({ id: 'TokenRevocationRequest', description: 'The token to revoke, by its prefix.' });

export const tokenRotatedSchema = z
  .object({
    ...okHead(200, 'Success'),
    token: z
      .string()
      .regex(/^pgt_[A-Za-z0-9_-]{43}$/)
      .meta({
        description:
          'Your new token. It is shown this once and stored only as a digest: keep it now. The token you sent ' +
          'keeps working until you revoke it (with itself, once your clients use the new one).',
        examples: ['pgt_Xk3q9Z0bYw8sN1rT5uVv2cD4eF6gH7iJ8kL9mN0pQ1r'],
      }),
    prefix,
    message: z.literal('New token issued. Revoke the old one once your clients use the new one.'),
  })
  .meta({ id: 'TokenRotated', description: 'The new token, once.' });

export const tokenRevokedSchema = z
  .object({
    ...okHead(200, 'Success'),
    prefix,
    message: z.literal('Token revoked.'),
  })
  .meta({ id: 'TokenRevoked', description: 'The token no longer works.' });

export type TokenRotatedBody = z.infer<typeof tokenRotatedSchema>;
export type TokenRevokedBody = z.infer<typeof tokenRevokedSchema>;

/** POST /api/token/rotate's 200 body. */
export function tokenRotatedBody(token: string, tokenPrefix: string): TokenRotatedBody {
  return {
    error: false,
    status_code: 200,
    status: 'Success',
    token,
    prefix: tokenPrefix,
    message: 'New token issued. Revoke the old one once your clients use the new one.',
  };
}

/** POST /api/token/revoke's 200 body. */
export function tokenRevokedBody(tokenPrefix: string): TokenRevokedBody {
  return { error: false, status_code: 200, status: 'Success', prefix: tokenPrefix, message: 'Token revoked.' };
}

/** The refusals of the merchant's own credential work, beside the shared ones of errors.ts. */
export const CREDENTIAL_MESSAGES = {
  tokenRevokesOlder:
    'A token cannot revoke an older token. Send this request with the token you are revoking: a token may ' +
    'revoke itself while you hold another.',
  lastToken:
    'This is your only active token: revoking it would lock you out. Rotate first (POST /api/token/rotate), ' +
    'then revoke it with itself.',
  webhookNotRegistered:
    'No webhook URL is registered for you yet. Ask us to register it, then fetch your signing secret.',
} as const;

/** A refusal body of one status and message, as errors.ts describes each of the shared ones. */
function refusalSchema(id: string, httpStatus: number, status: string, message: string, description: string) {
  return z
    .object({
      error: z.literal(true),
      status_code: z.literal(httpStatus),
      status: z.literal(status),
      message: z.literal(message),
    })
    .meta({ id, description });
}

export const tokenRevokesOlderSchema = refusalSchema(
  'TokenRevokesOlder',
  409,
  'CONFLICT',
  CREDENTIAL_MESSAGES.tokenRevokesOlder,
  'The prefix names a token older than the one this request was sent with. Nothing changed.',
);
export const lastTokenSchema = refusalSchema(
  'LastToken',
  409,
  'CONFLICT',
  CREDENTIAL_MESSAGES.lastToken,
  'The prefix names the token this request was sent with, and you hold no other. Nothing changed.',
);

// Members not listed are ignored, as in every request of this API.
export const webhookSecretRequestSchema = z.object({}).meta({
  id: 'WebhookSecretRequest',
  description: 'No members: the token you send in the headers is the proof.',
});

const webhookSecretPrefix = z.string().meta({
  description: "The secret's first 12 characters: how our staff and logs name it.",
  examples: ['whsec_Q3vX9a'],
});

export const webhookSecretIssuedSchema = z
  .object({
    ...okHead(200, 'Success'),
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9_-]{43}$/)
      .meta({
        description:
          'Your new webhook signing secret. It is shown this once, to you only: nobody at the gateway sees it. ' +
          'Verify every delivery with it (X-Webhook-Signature).',
        examples: ['whsec_Q3vX9a2bYw8sN1rT5uVv2cD4eF6gH7iJ8kL9mN0pQ1r'],
      }),
    prefix: webhookSecretPrefix,
    previous_valid_until: z.iso
      .datetime()
      .nullable()
      .meta({
        description:
          'Until when deliveries also carry a signature with the secret this one replaced (24 hours), so you can ' +
          'deploy the new one without refusing a delivery; null for your first secret.',
        examples: ['2026-12-07T10:15:00.000Z'],
      }),
    message: z.literal('New signing secret issued. Deliveries are signed with it from now on.'),
  })
  .meta({ id: 'WebhookSecretIssued', description: 'The new signing secret, once.' });

export const webhookNotRegisteredSchema = refusalSchema(
  'WebhookNotRegistered',
  404,
  'NOT FOUND',
  CREDENTIAL_MESSAGES.webhookNotRegistered,
  'No webhook URL is registered for you yet. Nothing changed.',
);

export type WebhookSecretIssuedBody = z.infer<typeof webhookSecretIssuedSchema>;

/** POST /api/webhook/secret's 200 body. */
export function webhookSecretIssuedBody(
  secret: string,
  secretPrefix: string,
  previousValidUntil: Date | null,
): WebhookSecretIssuedBody {
  return {
    error: false,
    status_code: 200,
    status: 'Success',
    secret,
    prefix: secretPrefix,
    previous_valid_until: previousValidUntil?.toISOString() ?? null,
    message: 'New signing secret issued. Deliveries are signed with it from now on.',
  };
}
