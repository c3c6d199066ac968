import { bankriff, formatRupees, payoutMessage, type PayoutStatus } from '@payout/domain';
import type { PayoutSummary } from '@payout/db';

// The payout result (spec 2.6) is built in packages/domain, so the API and the worker's webhooks share it.
export { payoutResult } from '@payout/domain';

const LOOKUP_STATUS_TEXT: Record<PayoutStatus, string> = { PENDING: 'Pending', SUCCESS: 'Success', FAILED: 'Failed' };

/** The payout status lookup's body: spec 2.2 plus `mode` and `message`, status capitalised "Success". */
export function payoutStatusBody(p: PayoutSummary): Record<string, unknown> {
  return {
    error: false,
    status_code: 200,
    status: LOOKUP_STATUS_TEXT[p.status],
    account: p.account,
    ifsc: p.ifsc ?? '',
    Amount: formatRupees(p.amountPaise),
    Bankriff: bankriff(p),
    Ack_no: p.ackNo,
    TransactionID: p.transactionId,
    mode: p.mode,
    message: payoutMessage(p.status, p.failureReason, p.state),
  };
}
