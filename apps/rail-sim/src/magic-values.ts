import type { PayoutInstruction, RailFailureReason } from '@payout/rails';

/** What the simulated bank does with a new reference; docs/rail-sim.md has the table. */
export type Scenario =
  | { kind: 'pay' }
  | { kind: 'fail'; reason: RailFailureReason }
  | { kind: 'settle-later' }
  | { kind: 'pay-but-lose-reply' }
  | { kind: 'fail-but-lose-reply'; reason: RailFailureReason }
  | { kind: 'unavailable-twice' }
  | { kind: 'pending-forever' }
  /** PENDING for RAIL_SIM_DEEMED_SUCCESS_MS, then SUCCESS (NPCI's deemed success). */
  | { kind: 'deemed-success' }
  /**
   * The bank that loses a paid payout's reply: pays, loses the reply, its status API says NOT_FOUND for
   * RAIL_SIM_STATUS_LAG_MS, and a resubmit is refused with 400 DUPLICATE_REFERENCE.
   */
  | { kind: 'lost-reply-lagging-status' }
  /** SUCCESS, then REVERSED RAIL_SIM_REVERSE_AFTER_MS after the payment (the credit bounced). */
  | { kind: 'pay-then-reverse' }
  /** Pays, but the reply to the first submit is garbled; the status API answers properly. */
  | { kind: 'pay-but-garble-reply'; garbage: Garbage };

/** The garbled replies a bank's front end sends now and then. */
export const GARBAGE = ['html-502', 'truncated-json', 'long-utr', 'nul-in-json'] as const;
export type Garbage = (typeof GARBAGE)[number];

/**
 * The paise of a payout the bank books in bulk: it is paid like any other, but the day's statement has one
 * DEBIT for the total of every such payout paid that day, narrated "BULK …", in place of a line each — as a
 * bank that pays a merchant's bulk file in one debit does (docs/rail-sim.md, docs/reconciliation.md,
 * "Matching beyond the reference"). The instruction carries nothing that names a batch, so the amount does.
 */
export const BOOKED_IN_BULK_PAISE = 83n;

export function isBookedInBulk(amountPaise: bigint): boolean {
  return amountPaise % 100n === BOOKED_IN_BULK_PAISE;
}

/** How many submits of a `.44` reference are answered 503 before one is accepted. */
export const UNAVAILABLE_SUBMITS = 2;

export function scenarioFor(instruction: PayoutInstruction): Scenario {
  const paise = instruction.amountPaise % 100n;
  // The bank's front door is down before it looks at the beneficiary, so `.44` wins over a bad account.
  if (paise === 44n) return { kind: 'unavailable-twice' };
  if (instruction.mode === 'IMPS' && instruction.account.startsWith('0000')) {
    return { kind: 'fail', reason: 'INVALID_BENEFICIARY_ACCOUNT' };
  }
  if (instruction.mode === 'UPI' && instruction.account.toLowerCase().startsWith('invalid')) {
    return { kind: 'fail', reason: 'INVALID_UPI_ADDRESS' };
  }
  switch (paise) {
    case 11n:
      return { kind: 'fail', reason: 'DECLINED_BY_BENEFICIARY_BANK' };
    case 22n:
      return { kind: 'settle-later' };
    case 33n:
      return { kind: 'pay-but-lose-reply' };
    case 55n:
      return { kind: 'pending-forever' };
    case 66n:
      return { kind: 'deemed-success' };
    case 77n:
      return { kind: 'fail-but-lose-reply', reason: 'DECLINED_BY_BENEFICIARY_BANK' };
    case 88n:
      return { kind: 'lost-reply-lagging-status' };
    case 91n:
    case 92n:
    case 93n:
    case 94n:
      return { kind: 'pay-but-garble-reply', garbage: GARBAGE[Number(paise - 91n)]! };
    case 99n:
      return { kind: 'pay-then-reverse' };
    default:
      return { kind: 'pay' };
  }
}
