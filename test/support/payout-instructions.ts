import type { PayoutInstructionRecord } from '@payout/db';
import { newAckNo } from '@payout/domain';

let sequence = 0;

/** A UPI payout instruction as the API hands it to the accept path; a fresh TransactionID unless one is given. */
export function upiInstruction(
  merchantId: number,
  amountPaise: bigint,
  transactionId = `${Date.now()}${++sequence}`,
): PayoutInstructionRecord {
  return {
    merchantId,
    transactionId,
    mode: 'UPI',
    amountPaise,
    ackNo: newAckNo(),
    account: 'asha@okhdfc',
    ifsc: null,
    name: 'Asha',
    bankName: null,
    mobile: null,
    email: null,
    description: null,
    scheduledAt: null,
  };
}
