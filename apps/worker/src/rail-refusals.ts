import type { PrismaClientOrTransaction } from '@payout/db';

/**
 * When the rail first refused a submit of this payout, or null. Read from the payout's own event log, where
 * every step the worker takes keeps the rail answer behind it, so the refusal needs no bookkeeping of its
 * own; it is asked only when the rail's status API says NOT_FOUND, the one answer it changes.
 */
export async function firstRefusalAt(db: PrismaClientOrTransaction, payoutId: bigint): Promise<Date | null> {
  const [row] = await db.$queryRaw<{ at: Date | null }[]>`
    SELECT min(created_at) AS at
      FROM payout_events
     WHERE payout_id = ${payoutId} AND rail_answer->>'outcome' = 'REFUSED'`;
  return row?.at ?? null;
}
