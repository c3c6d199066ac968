import type { PayoutInstruction, RailFailureReason } from '@payout/rails';

export type BankStatus = 'SUCCESS' | 'FAILED' | 'PENDING';

/** What the simulated bank holds for one reference. */
export interface BankPayout extends PayoutInstruction {
  status: BankStatus;
  /** The 12-digit bank reference of a SUCCESS. */
  utr?: string;
  reason?: RailFailureReason;
  /** When the bank first accepted the reference (epoch ms). */
  acceptedAt: number;
  /** A PENDING payout that settles: the moment from which it is reported SUCCESS (epoch ms). */
  settleAt?: number;
  /** Submit requests that carried this reference, refused ones included. */
  submissions: number;
}
