import type { Merchant } from '../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../client.js';
import { findMerchantByMid } from './merchant-repository.js';

export interface QueueSettings {
  /** Queue payouts that do not fit the balance instead of refusing them (docs/api.md, "Queue if low balance"). */
  queueIfLowBalance?: boolean;
  /** How long a queued payout waits for balance before it fails. */
  queueWindowSeconds?: number;
}

/**
 * Changes a merchant's queueing. Turning it off queues nothing new; payouts already queued keep their place
 * and are still released by credits or failed when their window passes.
 */
export async function updateQueueSettings(
  db: PrismaClientOrTransaction,
  mid: string,
  settings: QueueSettings,
): Promise<Merchant | null> {
  const { count } = await db.merchant.updateMany({ where: { mid }, data: settings });
  return count ? findMerchantByMid(db, mid) : null;
}

/** How a merchant's payouts are routed among the sponsor banks (docs/banks.md, "Routing" and "Holding"). */
export interface RoutingSettings {
  /** The one bank its payouts go to; null routes them by health. */
  pinnedBank?: string | null;
  /** How long a payout is held through a downtime of every bank serving its mode before it fails. */
  downtimeHoldSeconds?: number;
}

/**
 * Changes a merchant's routing. A pin or a hold window applies to payouts routed from now on; a payout
 * already sent stays with its bank.
 */
export async function updateRoutingSettings(
  db: PrismaClientOrTransaction,
  mid: string,
  settings: RoutingSettings,
): Promise<Merchant | null> {
  const { count } = await db.merchant.updateMany({ where: { mid }, data: settings });
  return count ? findMerchantByMid(db, mid) : null;
}
