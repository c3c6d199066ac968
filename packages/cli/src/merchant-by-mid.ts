import { findMerchantByMid, type Merchant, type PrismaClient } from '@payout/db';
import { CommandFailure } from './usage-error.js';

/** The failure of a command whose `--mid` names no merchant. */
export function noMerchant(mid: string): CommandFailure {
  return new CommandFailure(`no merchant with MID ${mid}`);
}

/** The merchant a command's `--mid` names; the command fails when there is none. */
export async function merchantByMid(db: PrismaClient, mid: string): Promise<Merchant> {
  const merchant = await findMerchantByMid(db, mid);
  if (!merchant) throw noMerchant(mid);
  return merchant;
}
