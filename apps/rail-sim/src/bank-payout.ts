import type { PayoutInstruction, RailFailureReason } from '@payout/rails';

/** REVERSED: paid, and the money came back (a `.99` payout after RAIL_SIM_REVERSE_AFTER_MS). */
export type BankStatus = 'SUCCESS' | 'FAILED' | 'PENDING' | 'REVERSED';

/** What the simulated bank holds for one reference. */
export interface BankPayout extends PayoutInstruction {
  status: BankStatus;
  /** The 12-digit bank reference of a SUCCESS (kept when it is REVERSED). */
  utr?: string;
  reason?: RailFailureReason;
  /** When the bank first accepted the reference (epoch ms). */
  acceptedAt: number;
  /** A PENDING payout that settles: the moment from which it is reported SUCCESS (epoch ms). */
  settleAt?: number;
  /** A paid payout that comes back: the moment from which it is reported REVERSED (epoch ms). */
  reverseAt?: number;
  /** When the money left, if later than acceptance (a `.22` or `.66` payout settling) (epoch ms). */
  paidAt?: number;
  /** When the money of a REVERSED payout came back (epoch ms). */
  reversedAt?: number;
  /** The status API lags: before this moment it answers NOT_FOUND for the reference (epoch ms). */
  visibleAt?: number;
  /** A resubmit of this reference is refused with 400 DUPLICATE_REFERENCE (the strict bank's manner). */
  refuseDuplicates?: boolean;
  /** Submit requests that carried this reference, refused ones included. */
  submissions: number;
}
