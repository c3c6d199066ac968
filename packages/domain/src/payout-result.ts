import type { Payout } from './payout.js';

/** What a payout result is built from: the payout as recorded (the body itself is built in @payout/contract). */
export type PayoutResultSource = Pick<
  Payout,
  'mode' | 'status' | 'transactionId' | 'amountPaise' | 'ackNo' | 'account' | 'ifsc' | 'bankReference' | 'failureReason'
> &
  Partial<Pick<Payout, 'state'>>;

/**
 * The `Bankriff` of a result or lookup: the rail's UTR for a SUCCESS, and for a reversed payout too, which
 * keeps the reference of the payment that came back (docs/api.md, "Payout results"); "" otherwise.
 */
export function bankriff(p: Pick<PayoutResultSource, 'status' | 'failureReason' | 'bankReference'>): string {
  const paidAtSomePoint = p.status === 'SUCCESS' || p.failureReason === 'REVERSED_BY_BENEFICIARY_BANK';
  return paidAtSomePoint ? (p.bankReference ?? '') : '';
}
