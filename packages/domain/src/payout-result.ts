import type { Paise } from './money.js';
import type { FailureReason, PayoutMode, PayoutState, PayoutStatus } from './payout-state.js';

/** What a payout result is built from: the payout as recorded (the body itself is built in @payout/contract). */
export interface PayoutResultSource {
  mode: PayoutMode;
  status: PayoutStatus;
  transactionId: string;
  amountPaise: Paise;
  ackNo: string;
  /** Account number (IMPS) or UPI address (UPI). */
  account: string;
  ifsc: string | null;
  bankReference: string | null;
  failureReason: FailureReason | null;
  /** The inside state, where the message depends on it (a queued payout says so). */
  state?: PayoutState;
}

/**
 * The `Bankriff` of a result or lookup: the rail's UTR for a SUCCESS, and for a reversed payout too, which
 * keeps the reference of the payment that came back (docs/api.md, "Payout results"); "" otherwise.
 */
export function bankriff(p: Pick<PayoutResultSource, 'status' | 'failureReason' | 'bankReference'>): string {
  const paidAtSomePoint = p.status === 'SUCCESS' || p.failureReason === 'REVERSED_BY_BENEFICIARY_BANK';
  return paidAtSomePoint ? (p.bankReference ?? '') : '';
}
