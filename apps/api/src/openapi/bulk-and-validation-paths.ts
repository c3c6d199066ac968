import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { MAX_BULK_ITEMS } from '@payout/domain';
import {
  accountVerdictSchema,
  badBodySchema,
  batchConflictSchema,
  batchNotFoundSchema,
  bulkAcceptedSchema,
  bulkPayloadTooLargeSchema,
  bulkStatusSchema,
  railUnavailableSchema,
  upiVerdictSchema,
  batchQuerySchema,
  bulkItemSchemas,
  bulkPayoutRequestSchema,
} from '@payout/contract';
import {
  accountValidationRequestSchema,
  upiValidationRequestSchema,
} from '../beneficiaries/beneficiary-request-schemas.js';

// The bulk and beneficiary-validation operations (docs/api.md, "Bulk payouts" and "Beneficiary
// validation"), their bodies from the wire contract. Registered by openapi-document.ts with its shared
// outcomes.

interface SharedOutcomes {
  response: (description: string, schema: z.ZodType, extra?: Partial<ResponseConfig>) => ResponseConfig;
  common: Record<number, ResponseConfig>;
  postOnly: Record<number, ResponseConfig>;
  validation: (what: string) => ResponseConfig;
  /** The invalid-MID body with status FAILED. */
  invalidMid: z.ZodType;
  security: { MID: string[]; Token: string[] }[];
}

// The envelope the route validates takes each item as unknown, so that a bad item is refused alone; the
// document shows what an item must be (the single endpoints' very schemas plus Mode).
const bulkRequestDocument = bulkPayoutRequestSchema
  .extend({
    Payouts: z
      .array(z.union([bulkItemSchemas.imps, bulkItemSchemas.upi]))
      .min(1)
      .max(MAX_BULK_ITEMS)
      .meta(bulkPayoutRequestSchema.shape.Payouts.meta() ?? {}),
  })
  .meta({ id: 'BulkPayoutRequest', description: 'A batch of payouts.' });

export function registerBulkAndValidationPaths(registry: OpenAPIRegistry, shared: SharedOutcomes): void {
  registerBulkPaths(registry, shared);
  registerValidationPaths(registry, shared);
}

/** A POST's 400: a malformed MID (or a suspended merchant), or a body that is not a JSON object. */
function refusedBeforeReading({ response, invalidMid }: SharedOutcomes): ResponseConfig {
  return response(
    'Malformed MID (or merchant suspended), or the body is not a JSON object.',
    z.union([invalidMid, badBodySchema]),
  );
}

function registerBulkPaths(registry: OpenAPIRegistry, shared: SharedOutcomes): void {
  const { response, common, postOnly, validation, invalidMid, security } = shared;
  registry.registerPath({
    method: 'post',
    path: '/api/bulkpayout',
    operationId: 'bulkPayout',
    tags: ['Bulk payouts'],
    summary: `Up to ${MAX_BULK_ITEMS} payouts in one request`,
    description:
      'Each item (`BulkImpsItem` or `BulkUpiItem`: a single payout body plus `Mode`) is a payout of its own, ' +
      'judged and reserved in order exactly as if sent alone; `results[i]` is what the single endpoint would ' +
      'answer. The same BatchID and items again answers the batch as it now stands; different items, 409. ' +
      'The body may be up to 8 MiB.',
    security,
    request: { body: { required: true, content: { 'application/json': { schema: bulkRequestDocument } } } },
    responses: {
      202: response('The batch, one result per item.', bulkAcceptedSchema),
      400: refusedBeforeReading(shared),
      409: response(
        'The BatchID is already used for a batch with different items. Nothing changed.',
        batchConflictSchema,
      ),
      ...postOnly,
      413: response('Body over 8 MiB.', bulkPayloadTooLargeSchema),
      422: validation(`BatchID not 1 to 30 digits, or Payouts not an array of 1 to ${MAX_BULK_ITEMS} items`),
      ...common,
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/bulkpayout/status',
    operationId: 'bulkPayoutStatus',
    tags: ['Bulk payouts'],
    summary: 'Status of a batch',
    description: 'The batch sent with this BatchID, with the counts by status and each item as it now stands.',
    security,
    request: { query: batchQuerySchema },
    responses: {
      200: response('The batch.', bulkStatusSchema),
      400: response('Malformed MID, or merchant suspended.', invalidMid),
      404: response('No batch of yours has this BatchID.', batchNotFoundSchema),
      422: validation('BatchID missing, repeated, or not 1 to 30 digits'),
      ...common,
    },
  });
}

const validationDescription = (what: string) =>
  `Asks the bank whether ${what} exists and in whose name (a penny-less check: no money moves). Verdicts are ` +
  'cached for a while per beneficiary. 503 when the bank does not answer in time; asking again is safe.';

function registerValidationPaths(registry: OpenAPIRegistry, shared: SharedOutcomes): void {
  const { response, common, postOnly, validation, security } = shared;
  registry.registerPath({
    method: 'post',
    path: '/api/validate/account',
    operationId: 'validateAccount',
    tags: ['Beneficiary validation'],
    summary: 'Check a bank account before paying it',
    description: validationDescription('a bank account'),
    security,
    request: { body: { required: true, content: { 'application/json': { schema: accountValidationRequestSchema } } } },
    responses: {
      200: response('The verdict.', accountVerdictSchema),
      400: refusedBeforeReading(shared),
      ...postOnly,
      422: validation('Account or Ifsc missing or malformed'),
      ...common,
      503: response('The bank did not answer in time.', railUnavailableSchema),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/api/validate/upi',
    operationId: 'validateUpi',
    tags: ['Beneficiary validation'],
    summary: 'Check a UPI address before paying it',
    description: validationDescription('a UPI address'),
    security,
    request: { body: { required: true, content: { 'application/json': { schema: upiValidationRequestSchema } } } },
    responses: {
      200: response('The verdict.', upiVerdictSchema),
      400: refusedBeforeReading(shared),
      ...postOnly,
      422: validation('Upi missing or not a UPI address'),
      ...common,
      503: response('The UPI network did not answer in time.', railUnavailableSchema),
    },
  });
}
