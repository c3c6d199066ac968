import { z } from 'zod';
import {
  bankriff,
  FAILURE_REASON_RETRYABLE,
  FAILURE_REASON_TEXT,
  formatRupees,
  payoutResultMessage,
  type BankName,
  type FailureReason,
  type Paise,
  type PayoutResultSource,
  type PayoutStatus,
} from '@payout/domain';
import { ackNo, amountText, okHead, payoutMessageMember, rupeesText, transactionIdText } from './members.js';

// The bodies of the three lookups (docs/api.md, "Lookups" and "Response bodies").

export const payoutStatusSchema = z
  .object({
    error: z.literal(false),
    status_code: z.literal(200),
    status: z.enum(['Pending', 'Success', 'Failed']).meta({
      description: 'Capitalised as this lookup does. Pending covers every state that is not final.',
    }),
    account: z
      .string()
      .meta({ description: 'The account number (IMPS) or UPI address (UPI).', examples: ['123456789012'] }),
    ifsc: z.string().meta({ description: 'The IFSC for IMPS; "" for UPI.', examples: ['HDFC0001234'] }),
    Amount: amountText,
    Bankriff: z.string().meta({
      description: 'The bank reference (UTR); "" unless Success, or Failed after a reversal (the original UTR).',
      examples: ['412345678901'],
    }),
    Ack_no: ackNo,
    TransactionID: transactionIdText,
    mode: z.enum(['IMPS', 'UPI']),
    message: payoutMessageMember,
    // Additions of CONTRACT.md "Several banks": present only where the payout has them.
    bank: z
      .string()
      .optional()
      .meta({
        description:
          'The alias of the sponsor bank the payout was sent to (never its account); absent until it is sent.',
        examples: ['primary'],
      }),
    reason_code: z
      .enum(Object.keys(FAILURE_REASON_TEXT) as [FailureReason, ...FailureReason[]])
      .optional()
      .meta({
        description: 'Why a Failed payout failed, machine-readable; absent unless Failed.',
        examples: ['BANK_DOWNTIME'],
      }),
    retryable: z
      .boolean()
      .optional()
      .meta({
        description:
          'With reason_code: true when sending the same payout again, under a new TransactionID, is safe and may ' +
          'go through (nothing was paid; the cause was passing).',
      }),
  })
  .meta({ id: 'PayoutStatus', description: 'A payout found by its TransactionID, with its mode and message.' });

export type PayoutStatusBody = z.infer<typeof payoutStatusSchema>;

const LOOKUP_STATUS_TEXT: Record<PayoutStatus, PayoutStatusBody['status']> = {
  PENDING: 'Pending',
  SUCCESS: 'Success',
  FAILED: 'Failed',
};

/** What a status lookup is built from: the payout's result, and the bank it went to when known. */
export type PayoutStatusSource = PayoutResultSource & { bank?: BankName | null };

/**
 * The payout status lookup's body: `mode` and `message` added, status capitalised "Success"; then `bank`
 * once the payout was sent, and `reason_code` with `retryable` once it failed (CONTRACT.md "Several banks").
 */
export function payoutStatusBody(p: PayoutStatusSource): PayoutStatusBody {
  const body: PayoutStatusBody = {
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
    message: payoutResultMessage(p),
  };
  if (p.bank) body.bank = p.bank;
  if (p.status === 'FAILED' && p.failureReason) {
    body.reason_code = p.failureReason;
    body.retryable = FAILURE_REASON_RETRYABLE[p.failureReason];
  }
  return body;
}

export const collectionStatusSchema = z
  .object({
    error: z.literal(false),
    status_code: z.literal(200),
    status: z.enum(['SUCCESS', 'PENDING', 'FAILED']).meta({ description: 'Upper case in this lookup.' }),
    mode: z.enum(['INTENT', 'COLLECT', 'QR']),
    account: z
      .string()
      .meta({ description: 'The payer\'s UPI address; may be "" for INTENT.', examples: ['payer@okicici'] }),
    Amount: amountText,
    Bankriff: z.string().meta({ description: 'The bank reference.', examples: ['412345678901'] }),
    Ack_no: z.string().meta({ examples: ['06F3K9Q2ZC4M7XR1B8TD'] }),
    TransactionID: transactionIdText,
  })
  .meta({ id: 'CollectionStatus', description: 'A pay-in (collection) found by its TransactionID.' });

export type CollectionStatusBody = z.infer<typeof collectionStatusSchema>;

/** A pay-in as recorded, as far as its lookup shows it. */
export interface CollectionStatusSource {
  transactionId: string;
  mode: CollectionStatusBody['mode'];
  payerAccount: string;
  amountPaise: Paise;
  bankReference: string;
  ackNo: string;
  status: CollectionStatusBody['status'];
}

/** The pay-in status lookup's body: status upper case, `account` may be "" for INTENT. */
export function collectionStatusBody(c: CollectionStatusSource): CollectionStatusBody {
  return {
    error: false,
    status_code: 200,
    status: c.status,
    mode: c.mode,
    account: c.payerAccount,
    Amount: formatRupees(c.amountPaise),
    Bankriff: c.bankReference,
    Ack_no: c.ackNo,
    TransactionID: c.transactionId,
  };
}

export const mainWalletSchema = z
  .object({
    ...okHead(200, 'Success'),
    mainwallet: rupeesText(
      'The available balance in rupees: credits minus payouts settled and payouts still in progress.',
      ['4765.00'],
    ),
    message: z.literal('Success.'),
  })
  .meta({ id: 'MainWallet', description: 'The main wallet.' });

export type MainWalletBody = z.infer<typeof mainWalletSchema>;

/** GET /api/checkMainWallet's body: the available balance of the main wallet. */
export function mainWalletBody(availablePaise: Paise): MainWalletBody {
  return {
    error: false,
    status_code: 200,
    status: 'Success',
    mainwallet: formatRupees(availablePaise),
    message: 'Success.',
  };
}
