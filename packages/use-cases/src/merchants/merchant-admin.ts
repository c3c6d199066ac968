import { randomInt } from 'node:crypto';
import {
  createMerchant,
  MidTakenError,
  setMerchantStatus,
  updateQueueSettings,
  type Merchant,
  type PrismaClient,
  type QueueSettings,
} from '@payout/db';
import { formatRupees, hashToken, newApiToken, rupees, tokenDisplayPrefix, type Paise } from '@payout/domain';
import { audit, type Requested } from '../audit.js';

/** The largest per-payout limit a merchant may be given, per mode (the rails' own ceilings). */
export const MERCHANT_LIMIT_CEILING = { imps: rupees(500_000), upi: rupees(100_000) } as const;

export type CreateMerchantOutcome =
  | { kind: 'created'; merchant: Merchant; token: string }
  | { kind: 'mid-taken'; mid: string }
  | { kind: 'limit-too-high'; field: 'impsLimit' | 'upiLimit'; ceiling: string };

/**
 * Creates a merchant with its first API token, handed to the person who created it once (only its digest
 * is stored). A generated MID that collides with an existing one is drawn again (up to five times); an
 * explicit MID that is taken is refused. The creation and its audit entry are one transaction.
 */
export async function createMerchantAction(
  deps: { db: PrismaClient },
  input: Requested & { name: string; mid?: string; impsLimitPaise?: Paise; upiLimitPaise?: Paise },
): Promise<CreateMerchantOutcome> {
  if (input.impsLimitPaise !== undefined && input.impsLimitPaise > MERCHANT_LIMIT_CEILING.imps) {
    return { kind: 'limit-too-high', field: 'impsLimit', ceiling: formatRupees(MERCHANT_LIMIT_CEILING.imps) };
  }
  if (input.upiLimitPaise !== undefined && input.upiLimitPaise > MERCHANT_LIMIT_CEILING.upi) {
    return { kind: 'limit-too-high', field: 'upiLimit', ceiling: formatRupees(MERCHANT_LIMIT_CEILING.upi) };
  }
  const token = newApiToken();
  for (let attempt = 0; ; attempt++) {
    const mid = input.mid ?? generatedMid();
    try {
      const merchant = await deps.db.$transaction(async (tx) => {
        const created = await createMerchant(tx, {
          mid,
          name: input.name,
          firstTokenHash: hashToken(token),
          firstTokenPrefix: tokenDisplayPrefix(token),
          ...(input.impsLimitPaise !== undefined && { impsMaxPaise: input.impsLimitPaise }),
          ...(input.upiLimitPaise !== undefined && { upiMaxPaise: input.upiLimitPaise }),
        });
        await audit(tx, input, 'merchant.create', {
          merchantId: created.id,
          detail: { mid: created.mid, name: created.name, tokenPrefix: tokenDisplayPrefix(token) },
        });
        return created;
      });
      return { kind: 'created', merchant, token };
    } catch (error) {
      if (!(error instanceof MidTakenError)) throw error;
      if (input.mid || attempt >= 5) return { kind: 'mid-taken', mid };
    }
  }
}

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

function generatedMid(): string {
  return `M${randomInt(10 ** 11, 10 ** 12)}`;
}
