import { z } from 'zod';
import { AppError, isJsonNumber, MAX_BULK_ITEMS, type PayoutRequest } from '@payout/domain';
import { MESSAGES } from '../errors.js';
import { impsPayoutRequestSchema, PAYOUT_OPERATIONS, upiPayoutRequestSchema } from './payout-requests.js';
import { digits } from './request-fields.js';
import { validate } from './validate.js';

// The bulk endpoint's request (docs/api.md, "Bulk payouts"). The envelope is judged whole:
// a bad BatchID or a Payouts member that is not 1 to 5,000 items refuses the batch (422). Each item is
// then judged on its own, by exactly the single endpoints' schemas, so a bad item is refused alone.

const batchIdField = digits('BatchID', /^[0-9]{1,30}$/, '1 to 30 digits').meta({
  minimum: 0,
  exclusiveMaximum: 1e30,
});

export const bulkPayoutRequestSchema = z
  .object({
    BatchID: batchIdField.meta({
      description:
        'Your own reference for this batch, unique per MID: 1 to 30 digits, as a JSON number or a string, kept digit ' +
        'for digit. Sending the same BatchID again with the same items answers the batch as it now stands; with ' +
        'different items it is refused (409).',
      examples: ['20240601'],
    }),
    Payouts: z
      .array(z.unknown(), { error: 'Payouts must be an array of payouts' })
      .min(1, { error: 'Payouts must hold at least one payout' })
      .max(MAX_BULK_ITEMS, { error: `Payouts must hold at most ${MAX_BULK_ITEMS} payouts` })
      .meta({
        description:
          `1 to ${MAX_BULK_ITEMS} payouts, reserved in this order. Each is the body of POST /api/impspayout or ` +
          'POST /api/payout plus `Mode`, and is judged exactly as if it had been sent alone.',
      }),
  })
  .meta({ description: 'A batch of payouts.' });

export type BulkPayoutRequest = z.infer<typeof bulkPayoutRequestSchema>;

/** One item of a batch, for the OpenAPI document: a single payout's body plus its Mode. */
export const bulkItemSchemas = {
  imps: impsPayoutRequestSchema.extend({ Mode: z.literal('IMPS') }).meta({
    id: 'BulkImpsItem',
    description: 'An IMPS payout in a batch: the body of POST /api/impspayout plus Mode.',
  }),
  upi: upiPayoutRequestSchema
    .extend({ Mode: z.literal('UPI') })
    .meta({ id: 'BulkUpiItem', description: 'A UPI payout in a batch: the body of POST /api/payout plus Mode.' }),
};

const modeSchema = z.object({
  Mode: z.enum(['IMPS', 'UPI'], {
    error: (issue) => (issue.input === undefined ? 'Mode is required' : 'Mode must be "IMPS" or "UPI"'),
  }),
});

/** The query of the batch status lookup. */
export const batchQuerySchema = z.object({
  BatchID: batchIdField.meta({
    type: 'string',
    minimum: undefined,
    exclusiveMaximum: undefined,
    description: 'The BatchID you sent the batch with: 1 to 30 digits.',
    examples: ['20240601'],
  }),
});

/**
 * One item as a payout, or the AppError the single endpoint would have answered it with: 400 for an item
 * that is not a JSON object (a body that is not an object), 422 for a missing or unknown Mode or any
 * member the single endpoint's schema refuses.
 */
export function parseBulkItem(item: unknown): PayoutRequest {
  if (item === null || typeof item !== 'object' || Array.isArray(item) || isJsonNumber(item)) {
    throw new AppError('BAD_REQUEST', MESSAGES.badJson);
  }
  const { Mode } = validate(modeSchema, item);
  return PAYOUT_OPERATIONS[Mode].requestOf(item);
}
