import type { PayoutStatus } from './payout-state.js';

/** Most items in one bulk batch (docs/api.md, "Bulk payouts": 1 to 5,000). */
export const MAX_BULK_ITEMS = 5_000;

/** How one item of a batch stands: its payout's status, or refused before a payout existed (422, 409, 400). */
export type BulkItemStanding = PayoutStatus | 'REJECTED';

interface BulkCounts {
  total: number;
  pending: number;
  success: number;
  failed: number;
  rejected: number;
}

/** The batch's counts by item; every item is counted exactly once. */
export function bulkCounts(items: readonly BulkItemStanding[]): BulkCounts {
  const counts: BulkCounts = { total: items.length, pending: 0, success: 0, failed: 0, rejected: 0 };
  for (const item of items) {
    if (item === 'PENDING') counts.pending++;
    else if (item === 'SUCCESS') counts.success++;
    else if (item === 'FAILED') counts.failed++;
    else counts.rejected++;
  }
  return counts;
}
