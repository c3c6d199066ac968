import { OpenAPIRegistry, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { IDEMPOTENCY_MESSAGES, IDEMPOTENT_REPLAY_HEADER, SECRETS_SHOWN_ONCE } from '../http/idempotency.js';

// The Idempotency-Key every merchant POST takes (docs/api.md, "Idempotency keys"; apps/api/src/http/idempotency.ts),
// and the answers it adds, documented once for all of them: each POST registered on an IdempotentPostsRegistry
// gets the header and the answers. The pay-in callback is not in this document (it is the provider's, not a merchant's).

const keyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[!-~]+$/)
    .optional()
    .meta({
      description:
        'Any 1 to 255 visible ASCII characters, new for each operation you mean (a UUID will do); kept 24 hours ' +
        "per MID. The same key with the same request (method, path and body bytes) is answered the first request's " +
        `answer again, byte for byte, with \`${IDEMPOTENT_REPLAY_HEADER}: true\`; with another request, 422; while ` +
        'the first request still runs, 409. A 5xx or 429 answer is not kept: the same key then runs the request ' +
        'again. Without it, nothing changes (a payout is still idempotent by its TransactionID).',
      examples: ['4f1c2b7e-9a0d-4e55-8b3a-0c6f1d2e3a4b'],
    }),
});

const refusal = (id: string, httpStatus: number, status: string, message: z.ZodType, description: string) =>
  z
    .object({ error: z.literal(true), status_code: z.literal(httpStatus), status: z.literal(status), message })
    .meta({ id, description });

const malformedKey = refusal(
  'IdempotencyKeyMalformed',
  400,
  'BAD REQUEST',
  z.literal(IDEMPOTENCY_MESSAGES.malformed),
  'The Idempotency-Key is empty, longer than 255, has a character outside visible ASCII, or was sent twice. Nothing changed.',
);
const keyInProgress = refusal(
  'IdempotencyKeyInProgress',
  409,
  'CONFLICT',
  z.literal(IDEMPOTENCY_MESSAGES.inProgress),
  'The first request with this Idempotency-Key is still running. Retry later with the same key.',
);
const keyUsedForAnotherRequest = z
  .object({
    error: z.literal(true),
    status_code: z.literal(422),
    status: z.literal('VALIDATION ERROR'),
    message: z.literal(IDEMPOTENCY_MESSAGES.otherRequest),
    errors: z
      .array(z.object({ field: z.literal('Idempotency-Key'), message: z.literal(IDEMPOTENCY_MESSAGES.otherRequest) }))
      .min(1)
      .max(1),
  })
  .meta({
    id: 'IdempotencyKeyReused',
    description: 'This Idempotency-Key was sent with another method, path or body within 24 hours. Nothing changed.',
  });
const secretShownOnce = refusal(
  'IdempotencyKeySecretShownOnce',
  409,
  'CONFLICT',
  z
    .string()
    .regex(/^This Idempotency-Key's request issued a new /)
    .meta({ examples: [SECRETS_SHOWN_ONCE.token.replayRefusal('pgt_Xk3q9Z')] }),
  'The first request with this Idempotency-Key was answered a secret, which is shown once and never kept: named ' +
    'by its prefix. Nothing changed.',
);

// The operations whose success shows a secret once: a replay of it is refused instead.
const SHOWS_A_SECRET = new Set(['/api/token/rotate', '/api/webhook/secret']);

/** An OpenAPI registry on which every POST takes an Idempotency-Key and documents what it adds. */
export class IdempotentPostsRegistry extends OpenAPIRegistry {
  override registerPath(route: RouteConfig): void {
    super.registerPath(route.method === 'post' ? withIdempotencyKey(route) : route);
  }
}

function withIdempotencyKey(route: RouteConfig): RouteConfig {
  if (route.request?.headers) throw new Error(`${route.path}: merge its own headers with the Idempotency-Key here`);
  const responses = { ...route.responses };
  // An answer the operation did not have yet carries the headers its other answers carry (X-Request-Id).
  const headers = Object.values(responses).find((r): r is ResponseConfig => !('$ref' in r) && !!r.headers)?.headers;
  const add = (status: number, description: string, schema: z.ZodType) => {
    responses[status] = addAnswer(responses[status], description, schema, headers);
  };
  add(400, 'Or the Idempotency-Key is malformed.', malformedKey);
  add(409, 'Or the first request with this Idempotency-Key is still running.', keyInProgress);
  if (SHOWS_A_SECRET.has(route.path)) {
    add(409, 'Or this Idempotency-Key was answered a secret already, which is shown only once.', secretShownOnce);
  }
  add(422, 'Or this Idempotency-Key was used with another request.', keyUsedForAnotherRequest);
  return { ...route, request: { ...route.request, headers: keyHeader }, responses };
}

/** A response that may now also be `schema`: its schema widened to a union, its description extended. */
function addAnswer(
  existing: RouteConfig['responses'][string] | undefined,
  description: string,
  schema: z.ZodType,
  headers: ResponseConfig['headers'],
): ResponseConfig {
  if (existing === undefined) {
    const alone = description.replace(/^Or t/, 'T');
    return { description: alone, ...(headers && { headers }), content: { 'application/json': { schema } } };
  }
  if ('$ref' in existing) throw new Error('a referenced response cannot take the Idempotency-Key answers');
  const media = existing.content?.['application/json'];
  if (!media || '$ref' in media || !(media.schema instanceof z.ZodType)) {
    throw new Error('a response without a JSON schema cannot take the Idempotency-Key answers');
  }
  const options = media.schema instanceof z.ZodUnion ? [...(media.schema.options as z.ZodType[])] : [media.schema];
  return {
    ...existing,
    description: `${existing.description ?? ''} ${description}`.trim(),
    content: { 'application/json': { ...media, schema: z.union([...options, schema]) } },
  };
}
