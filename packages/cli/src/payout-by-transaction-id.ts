import { findPayoutByTransactionId, type PayoutSummary, type PrismaClient } from '@payout/db';
import { merchantByMid } from './merchant-by-mid.js';
import { CommandFailure } from './usage-error.js';

/** The failure of a command whose `--mid` and `--TransactionID` name no payout. */
export function noPayout(mid: string, transactionId: string): CommandFailure {
  return new CommandFailure(`no payout ${transactionId} for MID ${mid}`);
}

/** The payout a command's `--mid` and `--TransactionID` name; the command fails when there is none. */
export async function payoutByTransactionId(
  db: PrismaClient,
  mid: string,
  transactionId: string,
): Promise<PayoutSummary> {
  const merchant = await merchantByMid(db, mid);
  const payout = await findPayoutByTransactionId(db, merchant.id, transactionId);
  if (!payout) throw noPayout(mid, transactionId);
  return payout;
}
