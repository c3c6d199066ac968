import { acceptPayouts, type AcceptResult, type PayoutInstructionRecord, type PrismaClient } from '@payout/db';

/**
 * Records payout instructions (claim TransactionID, reserve balance, write ledger and event). The seam
 * where concurrent accepts may be coalesced into one database round trip.
 */
export interface PayoutAccepter {
  accept(instruction: PayoutInstructionRecord): Promise<AcceptResult>;
}

/** One statement per payout. */
export function directAccepter(db: PrismaClient): PayoutAccepter {
  return {
    async accept(instruction) {
      const [result] = await acceptPayouts(db, [instruction]);
      if (!result) throw new Error('accept_payouts returned no row');
      return result;
    },
  };
}
