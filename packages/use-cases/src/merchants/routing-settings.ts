import { updateRoutingSettings, type Merchant, type PrismaClient, type RoutingSettings } from '@payout/db';
import { audit, type Requested } from '../audit.js';
import type { ConfiguredBank } from '../banks/bank-controls.js';

/** The longest and shortest hold window a merchant may have (the database CHECKs the same). */
export const DOWNTIME_HOLD_SECONDS = { min: 1, max: 86_400 } as const;

export type UpdateRoutingSettingsOutcome =
  | { kind: 'no-merchant' }
  | { kind: 'unknown-bank'; bank: string; known: string[] }
  | { kind: 'changed'; merchant: Merchant };

/**
 * Pins a merchant to one bank (or unpins it) and sets how long its payouts are held through a downtime
 * (docs/banks.md, "Routing" and "Holding"). A pin must name a configured bank. No money moves, so one
 * person does it, with an audit entry in the same transaction.
 */
export async function updateRoutingSettingsAction(
  deps: { db: PrismaClient; banks: readonly ConfiguredBank[] },
  input: Requested & { mid: string; settings: RoutingSettings },
): Promise<UpdateRoutingSettingsOutcome> {
  const { pinnedBank } = input.settings;
  if (pinnedBank !== undefined && pinnedBank !== null && !deps.banks.some((b) => b.name === pinnedBank)) {
    return { kind: 'unknown-bank', bank: pinnedBank, known: deps.banks.map((b) => b.name) };
  }
  return deps.db.$transaction(async (tx) => {
    const merchant = await updateRoutingSettings(tx, input.mid, input.settings);
    if (!merchant) return { kind: 'no-merchant' } as const;
    await audit(tx, input, 'merchant.routing', {
      merchantId: merchant.id,
      detail: { pinnedBank: merchant.pinnedBank, downtimeHoldSeconds: merchant.downtimeHoldSeconds },
    });
    return { kind: 'changed', merchant } as const;
  });
}
