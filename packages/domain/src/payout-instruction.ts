import type { Paise } from './money.js';
import type { InstructionIdentity } from './payout.js';
import type { PayoutMode } from './payout-state.js';

/**
 * Whether a repeated request (same merchant and TransactionID) asks for the same payout: same mode,
 * beneficiary (account or UPI address, IFSC, name), amount and scheduled time (the same instant, however its
 * offset was written; none on both). A replay of the same payout is answered with its current state;
 * anything else is a conflict, because the TransactionID is already spent on a different payout. Contact
 * details and the description do not identify a payout and are not compared.
 */
export function isSameInstruction(a: InstructionIdentity, b: InstructionIdentity): boolean {
  return (
    a.mode === b.mode &&
    a.amountPaise === b.amountPaise &&
    a.account === b.account &&
    (a.ifsc ?? null) === (b.ifsc ?? null) &&
    a.name === b.name &&
    (a.scheduledAt?.getTime() ?? null) === (b.scheduledAt?.getTime() ?? null)
  );
}

/** The largest single payout the contract allows per mode; a merchant may be configured lower. */
export const MODE_CEILING_PAISE: Record<PayoutMode, Paise> = {
  IMPS: 50_000_000n,
  UPI: 10_000_000n,
};

/** The smallest payout: 1.00. */
export const MINIMUM_PAYOUT_PAISE: Paise = 100n;
