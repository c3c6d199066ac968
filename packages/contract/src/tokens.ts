import { z } from 'zod';
import { okHead } from './members.js';

// A merchant's own token work (docs/api.md, "Token rotation"): the two requests and their 200 bodies.

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
      .meta({ description: 'The prefix of the token to revoke, as rotation answered it.', examples: ['pgt_Xk3q9Z'] }),
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
          'keeps working until you revoke it.',
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
