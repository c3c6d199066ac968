import { z } from 'zod';
import { bulkCounts, type BulkItemStanding, type PayoutResultSource } from '@payout/domain';
import { badBodySchema, conflictSchema, validationErrorSchema } from './errors.js';
import { DIGITS_1_TO_30 } from './members.js';
import { payoutStatusBody, payoutStatusSchema } from './lookups.js';
import { payoutResult, payoutResultSchemas } from './payout-result.js';

// The two bulk bodies (docs/api.md, "Bulk payouts"). Each item's entry is exactly what the single endpoint
// answers (the result, or the error body; the status lookup's body for the batch lookup) plus its
// `index`, built by the very same builders.

const index = z.number().int().min(0).meta({ description: "The item's position in Payouts, from 0." });
const count = (what: string) => z.number().int().min(0).meta({ description: what });
const refusals = [validationErrorSchema, conflictSchema, badBodySchema] as const;

const bulkItemResult = z.intersection(z.union([...payoutResultSchemas, ...refusals]), z.object({ index })).meta({
  description:
    'Exactly what the single endpoint answers for this item (its payout result, or the 422, 409 or 400 body it ' +
    'was refused with), plus `index`.',
});

const bulkHead = <C extends number, S extends string>(statusCode: C, status: S, batchIdDescription?: string) => ({
  error: z.literal(false),
  status_code: z.literal(statusCode),
  status: z.literal(status),
  BatchID: batchIdDescription
    ? z.string().regex(DIGITS_1_TO_30).meta({ description: batchIdDescription })
    : z.string().regex(DIGITS_1_TO_30),
  total: count('Items in the batch.'),
});

export const bulkAcceptedSchema = z
  .object({
    ...bulkHead(202, 'ACCEPTED', 'Your BatchID, digit for digit.'),
    accepted: count('Items whose payout is in progress or paid (PENDING or SUCCESS).'),
    failed: count('Items whose payout failed (MP007), such as one that did not fit the balance.'),
    rejected: count('Items refused before a payout existed (422, 409 or 400): nothing was recorded for them.'),
    message: z.string(),
    results: z.array(bulkItemResult),
  })
  .meta({ id: 'BulkPayoutAccepted', description: 'The batch as it now stands, one result per item in order.' });

export const bulkStatusSchema = z
  .object({
    ...bulkHead(200, 'Success'),
    pending: count('Items whose payout is not final yet.'),
    success: count('Items whose payout succeeded.'),
    failed: count('Items whose payout failed.'),
    rejected: count('Items refused before a payout existed.'),
    message: z.string(),
    results: z.array(
      z.intersection(z.union([payoutStatusSchema, ...refusals]), z.object({ index })).meta({
        description: "The item's payout status lookup body (or the body it was refused with), plus `index`.",
      }),
    ),
  })
  .meta({ id: 'BulkPayoutStatus', description: 'A batch found by its BatchID, each item as it now stands.' });

/** A refused item's body is the error body it was refused with (built by `errorBody`). */
type Results<T> = (T & { index: number })[];
export type BulkAcceptedBody = Omit<z.infer<typeof bulkAcceptedSchema>, 'results'> & {
  results: Results<ReturnType<typeof payoutResult>['body'] | Record<string, unknown>>;
};
export type BulkStatusBody = Omit<z.infer<typeof bulkStatusSchema>, 'results'> & {
  results: Results<ReturnType<typeof payoutStatusBody> | Record<string, unknown>>;
};

/** A batch as it now stands: each item a payout, or the error body it was refused with. */
export interface BulkBatch {
  batchId: string;
  items: ({ index: number; payout: PayoutResultSource } | { index: number; refusal: Record<string, unknown> })[];
}

const standing = (item: BulkBatch['items'][number]): BulkItemStanding =>
  'payout' in item ? item.payout.status : 'REJECTED';

/** POST /api/bulkpayout's 202 body. `accepted` counts items whose payout is not FAILED (PENDING or SUCCESS). */
export function bulkAcceptedBody(batch: BulkBatch): BulkAcceptedBody {
  const counts = bulkCounts(batch.items.map(standing));
  const accepted = counts.pending + counts.success;
  return {
    error: false,
    status_code: 202,
    status: 'ACCEPTED',
    BatchID: batch.batchId,
    total: counts.total,
    accepted,
    failed: counts.failed,
    rejected: counts.rejected,
    message: `Batch received: ${accepted} accepted, ${counts.failed} failed, ${counts.rejected} rejected`,
    results: batch.items.map((item) => ({
      ...('payout' in item ? payoutResult(item.payout).body : item.refusal),
      index: item.index,
    })),
  };
}

/** GET /api/bulkpayout/status's 200 body. */
export function bulkStatusBody(batch: BulkBatch): BulkStatusBody {
  const counts = bulkCounts(batch.items.map(standing));
  return {
    error: false,
    status_code: 200,
    status: 'Success',
    BatchID: batch.batchId,
    total: counts.total,
    pending: counts.pending,
    success: counts.success,
    failed: counts.failed,
    rejected: counts.rejected,
    message: `${counts.pending} pending, ${counts.success} success, ${counts.failed} failed, ${counts.rejected} rejected`,
    results: batch.items.map((item) => ({
      ...('payout' in item ? payoutStatusBody(item.payout) : item.refusal),
      index: item.index,
    })),
  };
}
