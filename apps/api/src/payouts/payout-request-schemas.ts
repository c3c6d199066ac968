import { z } from 'zod';
import { MODE_CEILING_PAISE } from '@payout/domain';
import {
  accountNumberField,
  amountField,
  emailField,
  ifscField,
  mobileField,
  optional,
  text,
  transactionIdField,
  upiField,
} from '../validation/request-fields.js';

// Request bodies of the two payout operations (spec 2.4 and 2.5 with CONTRACT.md's rules). Members not
// listed are ignored. docs/api.md says which members are required.

export const impsPayoutRequestSchema = z.object({
  TransactionID: transactionIdField,
  Amount: amountField(MODE_CEILING_PAISE.IMPS),
  Account: accountNumberField,
  Ifsc: ifscField,
  Name: text('Name', 1, 100),
  BankName: optional(text('BankName', 1, 100)),
  Mobile: optional(mobileField),
  Email: optional(emailField),
  Description: optional(text('Description', 0, 255, { multiline: true })),
});

export const upiPayoutRequestSchema = z.object({
  TransactionID: transactionIdField,
  Amount: amountField(MODE_CEILING_PAISE.UPI),
  Upi: upiField,
  Name: text('Name', 1, 100),
  Mobile: optional(mobileField),
  Email: optional(emailField),
  Description: optional(text('Description', 0, 255, { multiline: true })),
});

export type ImpsPayoutRequest = z.infer<typeof impsPayoutRequestSchema>;
export type UpiPayoutRequest = z.infer<typeof upiPayoutRequestSchema>;

/** The query of the two status lookups. */
export const transactionQuerySchema = z.object({ TransactionID: transactionIdField });
