import { sql, sqlRows, type PrismaClient } from '../client.js';
import { findPayoutByTransactionId, type PayoutLookup } from './payout-repository.js';

/**
 * What a merchant's cancel did: `cancelled` it now; it was `already-cancelled` (a repeat: nothing changed);
 * or it was `sent` to a bank already, or settled another way, and nothing changed.
 */
export type CancelOutcome = 'cancelled' | 'already-cancelled' | 'sent';

export interface CancelResult {
  outcome: CancelOutcome;
  /** The payout as it stands after the cancel. */
  payout: PayoutLookup;
  /** The webhook delivery the cancel recorded (only when `cancelled` and the merchant has an endpoint). */
  webhookDeliveryId: bigint | null;
}

/**
 * Cancels a merchant's payout that no bank was sent (SQL function `cancel_payout`,
 * packages/db/sql/functions/cancel_payout.sql: the table of transitions' `cancel` rows); null when the merchant
 * has no payout with that TransactionID. On the primary, its own transaction: the cancel and the worker's claim
 * of the payout are decided under the payout's row lock.
 */
export async function cancelPayout(
  db: PrismaClient,
  input: { merchantId: number; transactionId: string; actor: string },
): Promise<CancelResult | null> {
  const [row] = await sqlRows<{ outcome: CancelOutcome; payout_id: bigint; webhook_delivery_id: bigint | null }>(
    db,
    sql`SELECT * FROM cancel_payout(${input.merchantId}::int, ${input.transactionId}, ${input.actor})`,
  );
  if (!row) return null;
  const payout = await findPayoutByTransactionId(db, input.merchantId, input.transactionId);
  if (!payout) throw new Error(`payout ${row.payout_id} vanished after its cancel`);
  return { outcome: row.outcome, payout, webhookDeliveryId: row.webhook_delivery_id };
}
