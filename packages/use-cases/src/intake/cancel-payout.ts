import type { Queue } from 'bullmq';
import { cancelPayout as cancelInDatabase, type CancelResult, type PrismaClient } from '@payout/db';
import { queueFirstAttempt } from '@payout/queue';
import { maskAccount, type Logger } from '@payout/telemetry';

export interface CancelPayoutDeps {
  db: PrismaClient;
  /** Where the cancel's webhook is nudged; if Redis does not take it, the worker's webhook sweeper sends it. */
  webhookQueue: Queue;
}

/**
 * A merchant cancels one of its payouts that no bank was sent: accepted and not yet claimed by a worker, held
 * through a downtime, or queued for balance (docs/api.md, "Cancelling a payout"). It fails with
 * CANCELLED_BY_MERCHANT, what was reserved goes back to the main wallet, and the merchant's webhook tells of
 * it. A payout a bank has (or had) is left as it is: the answer says `sent`. Null: no such payout.
 */
export async function cancelPayout(
  deps: CancelPayoutDeps,
  input: { merchantId: number; transactionId: string; log: Pick<Logger, 'info'> },
): Promise<CancelResult | null> {
  const result = await cancelInDatabase(deps.db, {
    merchantId: input.merchantId,
    transactionId: input.transactionId,
    actor: 'merchant',
  });
  if (result?.outcome === 'cancelled') {
    const { payout, webhookDeliveryId } = result;
    input.log.info(
      { ackNo: payout.ackNo, mode: payout.mode, account: maskAccount(payout.account) },
      'payout cancelled by its merchant',
    );
    if (webhookDeliveryId !== null) await queueFirstAttempt(deps.webhookQueue, webhookDeliveryId);
  }
  return result;
}
