import { z } from 'zod';
import { MODE_CEILING_PAISE, type PayoutMode, type PayoutRequest } from '@payout/domain';
import {
  accountNumberField,
  amountField,
  emailField,
  ifscField,
  mobileField,
  optional,
  text,
  timeWithOffsetField,
  transactionIdField,
  upiField,
} from './request-fields.js';
import { validate } from './validate.js';

// Request bodies of the two payout operations (docs/api.md, "Request members"). Members not
// listed are ignored. docs/api.md says which members are required. The `.meta` calls only describe the
// members for the OpenAPI document (apps/api/src/openapi); they change nothing in validation.

const OPTIONAL = 'Optional: absent, null and "" all mean not given.';

const members = {
  TransactionID: transactionIdField.meta({
    description:
      'Your own reference for this payout, unique per MID across IMPS and UPI: 1 to 30 digits, as a JSON number or ' +
      'a string, kept digit for digit (a 23-digit number keeps every digit). Sending the same TransactionID again ' +
      'with the same details is safe: it answers the existing payout instead of making a second one.',
    examples: ['20240601000123', 20240601000123],
  }),
  Name: text('Name', 1, 100).meta({
    description: "The beneficiary's name: 1 to 100 characters after trimming, printable, no control characters.",
    examples: ['Asha Kumar'],
  }),
  Mobile: optional(mobileField).meta({
    description: `The beneficiary's mobile number: 10 digits starting with 6 to 9, as a JSON number or a string. ${OPTIONAL}`,
    examples: ['9876543210'],
  }),
  Email: optional(emailField).meta({
    description: `The beneficiary's e-mail address. ${OPTIONAL}`,
    examples: ['asha@example.com'],
  }),
  Description: optional(text('Description', 0, 255, { multiline: true })).meta({
    description: `Free text for your records: at most 255 characters; line breaks allowed, other control characters not. ${OPTIONAL}`,
    examples: ['Salary June'],
  }),
  ScheduledAt: optional(timeWithOffsetField('ScheduledAt')).meta({
    description:
      'When to send the payout, as an ISO 8601 time with an offset (Z or ±hh:mm): at least one minute and at most ' +
      '90 days after it is accepted. It is accepted and reserved at once, answered PENDING "MP006 - Your ' +
      'transaction is scheduled for <IST time>", and sent to the bank at that minute, not before; it can be ' +
      `cancelled until then. ${OPTIONAL}`,
    examples: ['2026-12-24T10:00:00+05:30'],
  }),
};

export const impsPayoutRequestSchema = z
  .object({
    TransactionID: members.TransactionID,
    Amount: amountField(MODE_CEILING_PAISE.IMPS),
    Account: accountNumberField.meta({
      description: "The beneficiary's bank account number: 9 to 18 digits, as a JSON number or a string.",
      examples: ['123456789012'],
    }),
    Ifsc: ifscField.meta({
      description:
        "The IFSC of the beneficiary's branch: 4 letters, a zero, then 6 letters or digits (upper-cased first).",
      examples: ['HDFC0001234'],
    }),
    Name: members.Name,
    BankName: optional(text('BankName', 1, 100)).meta({
      description: `The beneficiary's bank, for your records: 1 to 100 characters. ${OPTIONAL}`,
      examples: ['HDFC Bank'],
    }),
    Mobile: members.Mobile,
    Email: members.Email,
    Description: members.Description,
    ScheduledAt: members.ScheduledAt,
  })
  .meta({
    id: 'ImpsPayoutRequest',
    description: 'A bank transfer over IMPS. Members not listed are ignored.',
  });

export const upiPayoutRequestSchema = z
  .object({
    TransactionID: members.TransactionID,
    Amount: amountField(MODE_CEILING_PAISE.UPI),
    Upi: upiField.meta({
      description: 'The UPI address to pay, such as name@bank.',
      examples: ['asha.kumar@okhdfc'],
    }),
    Name: members.Name,
    Mobile: members.Mobile,
    Email: members.Email,
    Description: members.Description,
    ScheduledAt: members.ScheduledAt,
  })
  .meta({
    id: 'UpiPayoutRequest',
    description: 'A transfer to a UPI address. Members not listed are ignored.',
  });

export type ImpsPayoutRequest = z.infer<typeof impsPayoutRequestSchema>;
export type UpiPayoutRequest = z.infer<typeof upiPayoutRequestSchema>;

/** The query of the two status lookups. */
export const transactionQuerySchema = z.object({
  TransactionID: transactionIdField.meta({
    // A query parameter is always text, so the bounds of the JSON-number form do not apply.
    type: 'string',
    minimum: undefined,
    exclusiveMaximum: undefined,
    description: 'The TransactionID you sent the transaction with: 1 to 30 digits.',
    examples: ['20240601000123'],
  }),
});

/** The body of a cancel (docs/api.md, "Cancelling a payout"). Members not listed are ignored. */
export const cancelPayoutRequestSchema = z
  .object({
    TransactionID: transactionIdField.meta({
      description: 'The TransactionID you sent the payout with: 1 to 30 digits, as a JSON number or a string.',
      examples: ['20240601000123', 20240601000123],
    }),
  })
  .meta({
    id: 'CancelPayoutRequest',
    description: 'The payout to cancel. Members not listed are ignored.',
  });

/** The TransactionID of a cancel, or the contract's 422. */
export function cancelledTransactionId(body: unknown): string {
  return validate(cancelPayoutRequestSchema, body).TransactionID;
}

const fromImps = (r: ImpsPayoutRequest): PayoutRequest => ({
  mode: 'IMPS',
  transactionId: r.TransactionID,
  amountPaise: r.Amount,
  account: r.Account,
  ifsc: r.Ifsc,
  name: r.Name,
  bankName: r.BankName ?? null,
  mobile: r.Mobile ?? null,
  email: r.Email ?? null,
  description: r.Description ?? null,
  scheduledAt: r.ScheduledAt ?? null,
});

const fromUpi = (r: UpiPayoutRequest): PayoutRequest => ({
  mode: 'UPI',
  transactionId: r.TransactionID,
  amountPaise: r.Amount,
  account: r.Upi,
  ifsc: null,
  name: r.Name,
  bankName: null,
  mobile: r.Mobile ?? null,
  email: r.Email ?? null,
  description: r.Description ?? null,
  scheduledAt: r.ScheduledAt ?? null,
});

/**
 * Each mode's payout operation: its path, and how its body becomes a payout request (a 422 for a member its
 * schema refuses). The bulk endpoint reads its items with the same functions.
 */
export const PAYOUT_OPERATIONS: Record<PayoutMode, { path: string; requestOf: (body: unknown) => PayoutRequest }> = {
  IMPS: { path: '/api/impspayout', requestOf: (body) => fromImps(validate(impsPayoutRequestSchema, body)) },
  UPI: { path: '/api/payout', requestOf: (body) => fromUpi(validate(upiPayoutRequestSchema, body)) },
};
