import { z } from 'zod';
import { formatRupees, isJsonNumber, isMid, parseRupees, type Paise } from '@payout/domain';
import { text, transactionIdField } from '@payout/contract';

// The body of the collection provider's pay-in callback (docs/webhooks.md). Its members are named as the
// pay-in status lookup (docs/api.md, "Response bodies") names them, plus the merchant's MID. Parsed losslessly like every body:
// a TransactionID or Amount sent as a JSON number keeps its exact digits.

const numberAsText = (value: unknown): unknown => (isJsonNumber(value) ? value.toString() : value);
const upperCase = (value: unknown): unknown => (typeof value === 'string' ? value.trim().toUpperCase() : value);
const absentAsEmpty = (value: unknown): unknown => (value === undefined || value === null ? '' : value);

function required(field: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? `${field} is required` : undefined);
}

/**
 * The largest pay-in believed: ₹5,00,000, the highest per-transaction UPI limit of any merchant category.
 * A larger report is a provider's bug or a forged amount, and crediting it would create money.
 */
export const PAYIN_CEILING_PAISE: Paise = 50_000_000n;

/** A positive rupee amount up to the ceiling, at most two fraction digits: what the payer paid. */
const payinAmount = z.preprocess(
  numberAsText,
  z
    .string({ error: (issue) => required('Amount')(issue) ?? 'Amount must be a number' })
    .transform((value, ctx): Paise => {
      const paise = parseRupees(value);
      if (paise === undefined || paise <= 0n) {
        ctx.addIssue({ code: 'custom', message: 'Amount must be a positive amount with at most two fraction digits' });
        return z.NEVER;
      }
      if (paise > PAYIN_CEILING_PAISE) {
        ctx.addIssue({ code: 'custom', message: `Amount must be at most ${formatRupees(PAYIN_CEILING_PAISE)}` });
        return z.NEVER;
      }
      return paise;
    }),
);

const UPI_ADDRESS = /^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$/;

export const payinCallbackSchema = z
  .object({
    MID: z
      .string({ error: (issue) => required('MID')(issue) ?? 'MID must be a string' })
      .refine(isMid, { error: 'MID must be 1 to 64 letters, digits, _ or -' }),
    TransactionID: transactionIdField,
    Amount: payinAmount,
    mode: z.preprocess(
      upperCase,
      z.enum(['INTENT', 'COLLECT', 'QR'], {
        error: (issue) => required('mode')(issue) ?? 'mode must be INTENT, COLLECT or QR',
      }),
    ),
    /** The payer's UPI address; "" (or absent) only for INTENT, where the payer's app may not say. */
    account: z.preprocess(
      absentAsEmpty,
      z
        .string({ error: 'account must be a string' })
        .trim()
        .refine((v) => v === '' || UPI_ADDRESS.test(v), { error: 'account must be a UPI address such as name@bank' }),
    ),
    /** The bank reference (UTR); required for SUCCESS. */
    Bankriff: z.preprocess(absentAsEmpty, text('Bankriff', 0, 64)),
    status: z.preprocess(
      upperCase,
      z.enum(['PENDING', 'SUCCESS', 'FAILED'], {
        error: (issue) => required('status')(issue) ?? 'status must be PENDING, SUCCESS or FAILED',
      }),
    ),
  })
  .superRefine((body, ctx) => {
    if (body.account === '' && body.mode !== 'INTENT') {
      ctx.addIssue({ code: 'custom', path: ['account'], message: `account is required for mode ${body.mode}` });
    }
    if (body.Bankriff === '' && body.status === 'SUCCESS') {
      ctx.addIssue({ code: 'custom', path: ['Bankriff'], message: 'Bankriff is required for status SUCCESS' });
    }
  });

export type PayinCallback = z.infer<typeof payinCallbackSchema>;
