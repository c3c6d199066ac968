import { jsonNumber } from './json.js';
import type { Payout } from './payout.js';
import { formatRupees } from './money.js';
import { payoutMessage, type PayoutStatus } from './payout-state.js';

/** What a payout result is built from: the payout as recorded (the state where the message depends on it). */
export type PayoutResultSource = Pick<
  Payout,
  'mode' | 'status' | 'transactionId' | 'amountPaise' | 'ackNo' | 'account' | 'ifsc' | 'bankReference' | 'failureReason'
> &
  Partial<Pick<Payout, 'state'>>;

/**
 * The `Bankriff` of a result or lookup: the rail's UTR for a SUCCESS, and for a reversed payout too, which
 * keeps the reference of the payment that came back (CONTRACT.md, "Reversal after success"); "" otherwise.
 */
export function bankriff(p: Pick<PayoutResultSource, 'status' | 'failureReason' | 'bankReference'>): string {
  const paidAtSomePoint = p.status === 'SUCCESS' || p.failureReason === 'REVERSED_BY_BENEFICIARY_BANK';
  return paidAtSomePoint ? (p.bankReference ?? '') : '';
}

/** The HTTP status of a payout result by status (spec section 3). */
export const PAYOUT_RESULT_HTTP_STATUS: Record<PayoutStatus, number> = { PENDING: 202, SUCCESS: 200, FAILED: 400 };

/**
 * A JSON number literal with these exact digits — except that JSON has no literal with a leading zero,
 * so "00123" (which a merchant can send as a string) stays a string rather than lose its zeros.
 */
function digitsAsNumber(digits: string): unknown {
  return /^0[0-9]/.test(digits) ? digits : jsonNumber(digits);
}

/**
 * The payout result of spec 2.6 as CONTRACT.md completes it — the body of both payout operations and of
 * the payout webhook. IMPS carries `ifsc`; UPI does not, and its `account` is the UPI address. `Amount`
 * and `TransactionID` are JSON numbers (exact literals, written with `stringifyJson`) in UPI PENDING and
 * SUCCESS results and strings everywhere else.
 */
export function payoutResult(p: PayoutResultSource): { httpStatus: number; body: Record<string, unknown> } {
  const amount = formatRupees(p.amountPaise);
  const numeric = p.mode === 'UPI' && p.status !== 'FAILED';
  const body: Record<string, unknown> = {
    error: p.status === 'FAILED',
    status_code: PAYOUT_RESULT_HTTP_STATUS[p.status],
    status: p.status,
    account: p.account,
  };
  if (p.mode === 'IMPS') body.ifsc = p.ifsc ?? '';
  body.Amount = numeric ? jsonNumber(amount) : amount;
  body.Bankriff = bankriff(p);
  body.Ack_no = p.ackNo;
  body.TransactionID = numeric ? digitsAsNumber(p.transactionId) : p.transactionId;
  body.message = payoutMessage(p.status, p.failureReason, p.state);
  return { httpStatus: PAYOUT_RESULT_HTTP_STATUS[p.status], body };
}
