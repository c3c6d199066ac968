import type { Payout } from './payout.js';
import { payoutMessage } from './payout-state.js';

/** What a payout result is built from: the payout as recorded (the body itself is built in @payout/contract). */
export type PayoutResultSource = Pick<
  Payout,
  'mode' | 'status' | 'transactionId' | 'amountPaise' | 'ackNo' | 'account' | 'ifsc' | 'bankReference' | 'failureReason'
> &
  Partial<Pick<Payout, 'state' | 'heldSince' | 'scheduledAt'>>;

/** Whether the payout waits, reserved and unsent, for a bank serving its mode to recover (docs/banks.md, "Holding"). */
export function isHeld(p: Pick<PayoutResultSource, 'state' | 'heldSince'>): boolean {
  return p.state === 'ACCEPTED' && p.heldSince !== undefined && p.heldSince !== null;
}

/**
 * The message of the payout's result and lookups: its status, reason, and whether it is queued, held or
 * waiting for its scheduled time.
 */
export function payoutResultMessage(p: PayoutResultSource): string {
  return payoutMessage(p.status, p.failureReason, p.state, isHeld(p), p.scheduledAt);
}

/**
 * The `Bankriff` of a result or lookup: the rail's UTR for a SUCCESS, and for a reversed payout too, which
 * keeps the reference of the payment that came back (docs/api.md, "Payout results"); "" otherwise.
 */
export function bankriff(p: Pick<PayoutResultSource, 'status' | 'failureReason' | 'bankReference'>): string {
  const paidAtSomePoint = p.status === 'SUCCESS' || p.failureReason === 'REVERSED_BY_BENEFICIARY_BANK';
  return paidAtSomePoint ? (p.bankReference ?? '') : '';
}
