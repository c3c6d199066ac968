import type { PrismaClientOrTransaction } from '../client.js';

// The low-balance queue lives in SQL (packages/db/sql/functions/): accept_payouts queues, every credit
// releases in the credit's own transaction (release_queued_after_credit → release_queued_payouts), and
// expire_queued_payouts fails what waited past its merchant's window. This module is how TypeScript reaches it.

/** Fails every queued payout older than its merchant's queue window; returns how many failed. */
export async function expireQueuedPayouts(db: PrismaClientOrTransaction): Promise<number> {
  const [row] = await db.$queryRaw<{ expired: number }[]>`SELECT expire_queued_payouts() AS expired`;
  return row?.expired ?? 0;
}
