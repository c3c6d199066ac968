import {
  setMerchantStatus,
  updateQueueSettings,
  type Merchant,
  type PrismaClient,
  type QueueSettings,
} from '@payout/db';
import { rupees } from '@payout/domain';
import { audit, type Requested } from '../audit.js';

/** The largest per-payout limit a merchant may be given, per mode (the rails' own ceilings). */
export const MERCHANT_LIMIT_CEILING = { imps: rupees(500_000), upi: rupees(100_000) } as const;

export type SetMerchantStatusOutcome = { kind: 'changed'; merchant: Merchant } | { kind: 'no-merchant' };

/**
 * Suspends or activates a merchant: a suspended merchant's requests are refused (docs/operations.md).
 * It moves no money, so one person does it; the change and its audit entry are one transaction.
 */
export async function setMerchantStatusAction(
  deps: { db: PrismaClient },
  input: Requested & { mid: string; status: Merchant['status'] },
): Promise<SetMerchantStatusOutcome> {
  return deps.db.$transaction(async (tx) => {
    const merchant = await setMerchantStatus(tx, input.mid, input.status);
    if (!merchant) return { kind: 'no-merchant' } as const;
    await audit(tx, input, input.status === 'SUSPENDED' ? 'merchant.suspend' : 'merchant.activate', {
      merchantId: merchant.id,
      detail: { mid: merchant.mid, status: merchant.status },
    });
    return { kind: 'changed', merchant } as const;
  });
}

/**
 * Changes whether a merchant's payouts that do not fit the balance wait for a credit, and for how long
 * (docs/api.md, "Queue if low balance"). It moves no money, so one person does it, with an audit entry.
 */
export async function updateQueueSettingsAction(
  deps: { db: PrismaClient },
  input: Requested & { mid: string; settings: QueueSettings },
): Promise<SetMerchantStatusOutcome> {
  return deps.db.$transaction(async (tx) => {
    const merchant = await updateQueueSettings(tx, input.mid, input.settings);
    if (!merchant) return { kind: 'no-merchant' } as const;
    await audit(tx, input, 'merchant.queue-settings', {
      merchantId: merchant.id,
      detail: { queueIfLowBalance: merchant.queueIfLowBalance, queueWindowSeconds: merchant.queueWindowSeconds },
    });
    return { kind: 'changed', merchant } as const;
  });
}
