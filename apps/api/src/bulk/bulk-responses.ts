import { bulkCounts, type BulkItemStanding } from '@payout/domain';
import { payoutResult, payoutStatusBody } from '../payouts/payout-responses.js';
import type { BulkBatchState, BulkItemState } from './submit-bulk-payout.js';

// The two bulk bodies (CONTRACT.md "Bulk payouts"). Each item's entry is exactly what the single endpoint
// answers (the result shape or the error body; the status lookup's body for the batch lookup) plus its
// `index`, built by the very same builders.

const standing = (item: BulkItemState): BulkItemStanding => ('payout' in item ? item.payout.status : 'REJECTED');

/** POST /api/bulkpayout's 202 body. `accepted` counts items whose payout is not FAILED (PENDING or SUCCESS). */
export function bulkAcceptedBody(batch: BulkBatchState): Record<string, unknown> {
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
export function bulkStatusBody(batch: BulkBatchState): Record<string, unknown> {
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
