import {
  acceptPayouts,
  findPayoutByTransactionId,
  type AcceptResult,
  type PayoutInstructionRecord,
  type PayoutSummary,
  type PrismaClient,
} from '@payout/db';

/**
 * Records payout instructions (claim TransactionID, reserve balance, write ledger and event). The seam
 * where concurrent accepts may be coalesced into one database round trip.
 */
export interface PayoutAccepter {
  accept(instruction: PayoutInstructionRecord): Promise<AcceptResult>;
  /**
   * The payout a merchant already recorded under a TransactionID, or null: asked only for a request that may
   * be recorded only as a replay (a ScheduledAt outside the window of a new payout, docs/api.md "Scheduling a
   * payout"), never on the accept's own path.
   */
  findRecorded(merchantId: number, transactionId: string): Promise<PayoutSummary | null>;
}

/** One statement per payout. */
export function directAccepter(db: PrismaClient): PayoutAccepter {
  return {
    async accept(instruction) {
      const [result] = await acceptPayouts(db, [instruction]);
      if (!result) throw new Error('accept_payouts returned no row');
      return result;
    },
    findRecorded: (merchantId, transactionId) => findPayoutByTransactionId(db, merchantId, transactionId),
  };
}
