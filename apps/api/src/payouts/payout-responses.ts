import { formatRupees, jsonNumber, payoutMessage, type PayoutStatus } from '@payout/domain';
import type { PayoutSummary } from '@payout/db';

const RESULT_HTTP_STATUS: Record<PayoutStatus, number> = { PENDING: 202, SUCCESS: 200, FAILED: 400 };
const LOOKUP_STATUS_TEXT: Record<PayoutStatus, string> = { PENDING: 'Pending', SUCCESS: 'Success', FAILED: 'Failed' };

/**
 * A JSON number literal with these exact digits — except that JSON has no literal with a leading zero,
 * so "00123" (which a merchant can send as a string) stays a string rather than lose its zeros.
 */
function digitsAsNumber(digits: string): unknown {
  return /^0[0-9]/.test(digits) ? digits : jsonNumber(digits);
}

/**
 * The payout result of spec 2.6 as CONTRACT.md completes it. IMPS carries `ifsc`; UPI does not, and its
 * `account` is the UPI address. `Amount` and `TransactionID` are JSON numbers in UPI PENDING and SUCCESS
 * results and strings everywhere else.
 */
export function payoutResult(p: PayoutSummary): { httpStatus: number; body: Record<string, unknown> } {
  const amount = formatRupees(p.amountPaise);
  const numeric = p.mode === 'UPI' && p.status !== 'FAILED';
  const body: Record<string, unknown> = {
    error: p.status === 'FAILED',
    status_code: RESULT_HTTP_STATUS[p.status],
    status: p.status,
    account: p.account,
  };
  if (p.mode === 'IMPS') body.ifsc = p.ifsc ?? '';
  body.Amount = numeric ? jsonNumber(amount) : amount;
  body.Bankriff = p.status === 'SUCCESS' ? (p.bankReference ?? '') : '';
  body.Ack_no = p.ackNo;
  body.TransactionID = numeric ? digitsAsNumber(p.transactionId) : p.transactionId;
  body.message = payoutMessage(p.status, p.failureReason);
  return { httpStatus: RESULT_HTTP_STATUS[p.status], body };
}

/** The payout status lookup's body: spec 2.2 plus `mode` and `message`, status capitalised "Success". */
export function payoutStatusBody(p: PayoutSummary): Record<string, unknown> {
  return {
    error: false,
    status_code: 200,
    status: LOOKUP_STATUS_TEXT[p.status],
    account: p.account,
    ifsc: p.ifsc ?? '',
    Amount: formatRupees(p.amountPaise),
    Bankriff: p.status === 'SUCCESS' ? (p.bankReference ?? '') : '',
    Ack_no: p.ackNo,
    TransactionID: p.transactionId,
    mode: p.mode,
    message: payoutMessage(p.status, p.failureReason),
  };
}
