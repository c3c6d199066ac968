import { z } from 'zod';
import {
  bankriff,
  formatRupees,
  jsonNumber,
  payoutResultMessage,
  type JsonNumber,
  type PayoutMode,
  type PayoutResultSource,
  type PayoutStatus,
} from '@payout/domain';
import {
  ackNo,
  amountNumber,
  amountText,
  failedMessage,
  payoutMessageMember,
  pendingMessage,
  SUCCESS_MESSAGE,
  transactionIdNumber,
  transactionIdText,
  type OnTheWire,
} from './members.js';

// The payout result (docs/api.md, "Payout results"): the body of both payout operations, of each bulk
// item and of the payout webhook. Each mode has one schema naming its members in wire order; the six
// documented variants narrow it by status. IMPS carries `ifsc`; UPI does not, and its `account` is the
// UPI address. UPI PENDING and SUCCESS results carry `Amount` and `TransactionID` as JSON numbers.

/** The HTTP status of a payout result by status (docs/api.md, "Payout results"). */
const PAYOUT_RESULT_HTTP_STATUS = { PENDING: 202, SUCCESS: 200, FAILED: 400 } as const satisfies Record<
  PayoutStatus,
  number
>;

const resultHead = {
  error: z.boolean(),
  status_code: z.literal([202, 200, 400]),
  status: z.enum(['PENDING', 'SUCCESS', 'FAILED']),
};
const accountNumber = z
  .string()
  .meta({ description: "The beneficiary's account number, as you sent it.", examples: ['123456789012'] });
const upiAddress = z
  .string()
  .meta({ description: 'The UPI address paid, as you sent it.', examples: ['asha.kumar@okhdfc'] });
const ifsc = z.string().meta({ description: 'The IFSC, upper case.', examples: ['HDFC0001234'] });

const impsPayoutResult = z.object({
  ...resultHead,
  account: accountNumber,
  ifsc,
  Amount: amountText,
  Bankriff: z.string(),
  Ack_no: ackNo,
  TransactionID: transactionIdText,
  message: payoutMessageMember,
});
const upiPayoutResult = z.object({
  ...resultHead,
  account: upiAddress,
  Amount: z.union([amountNumber, amountText]),
  Bankriff: z.string(),
  Ack_no: ackNo,
  TransactionID: z.union([transactionIdNumber, transactionIdText]),
  message: payoutMessageMember,
});

export type ImpsPayoutResult = OnTheWire<z.infer<typeof impsPayoutResult>>;
export type UpiPayoutResult = OnTheWire<z.infer<typeof upiPayoutResult>>;
export type PayoutResultBody = ImpsPayoutResult | UpiPayoutResult;

// What each status fixes in a result, whatever the mode.
const byStatus = {
  PENDING: {
    error: z.literal(false),
    status_code: z.literal(202),
    status: z.literal('PENDING'),
    Bankriff: z.literal('').meta({ description: 'The bank reference (UTR): empty until the payout succeeds.' }),
    message: pendingMessage,
  },
  SUCCESS: {
    error: z.literal(false),
    status_code: z.literal(200),
    status: z.literal('SUCCESS'),
    Bankriff: z
      .string()
      .min(1)
      .meta({ description: "The bank's reference (UTR) for the transfer.", examples: ['412345678901'] }),
    message: z.literal(SUCCESS_MESSAGE),
  },
  FAILED: {
    error: z.literal(true),
    status_code: z.literal(400),
    status: z.literal('FAILED'),
    // A payout reversed after success is FAILED but keeps the UTR of the payment that came back
    // (docs/api.md, "Payout results").
    Bankriff: z.string().meta({
      description: 'Empty, except for a payout reversed after success, which keeps the UTR of its payment.',
      examples: ['', '412345678901'],
    }),
    message: failedMessage,
  },
} satisfies Record<PayoutStatus, z.ZodRawShape>;

const UPI_NUMBERS = { Amount: amountNumber, TransactionID: transactionIdNumber };
const UPI_STRINGS = { Amount: amountText, TransactionID: transactionIdText };
const FAILED_NOTE = 'that has failed; the amount is back in the main wallet.';

/** The documented result bodies, one per mode and status: what the OpenAPI document shows. */
export const PAYOUT_RESULT_SCHEMAS = {
  IMPS: {
    PENDING: impsPayoutResult
      .extend(byStatus.PENDING)
      .meta({ id: 'ImpsPayoutPending', description: 'An IMPS payout in progress.' }),
    SUCCESS: impsPayoutResult
      .extend(byStatus.SUCCESS)
      .meta({ id: 'ImpsPayoutSuccess', description: 'An IMPS payout that has succeeded.' }),
    FAILED: impsPayoutResult
      .extend(byStatus.FAILED)
      .meta({ id: 'ImpsPayoutFailed', description: `An IMPS payout ${FAILED_NOTE}` }),
  },
  UPI: {
    PENDING: upiPayoutResult.extend({ ...byStatus.PENDING, ...UPI_NUMBERS }).meta({
      id: 'UpiPayoutPending',
      description: 'A UPI payout in progress. Amount and TransactionID are JSON numbers.',
    }),
    SUCCESS: upiPayoutResult.extend({ ...byStatus.SUCCESS, ...UPI_NUMBERS }).meta({
      id: 'UpiPayoutSuccess',
      description: 'A UPI payout that has succeeded. Amount and TransactionID are JSON numbers.',
    }),
    FAILED: upiPayoutResult.extend({ ...byStatus.FAILED, ...UPI_STRINGS }).meta({
      id: 'UpiPayoutFailed',
      description: `A UPI payout ${FAILED_NOTE} Amount and TransactionID are strings.`,
    }),
  },
} satisfies Record<PayoutMode, Record<PayoutStatus, z.ZodType>>;

/** Every documented result body, IMPS first. */
export const payoutResultSchemas = (Object.values(PAYOUT_RESULT_SCHEMAS) as Record<PayoutStatus, z.ZodType>[]).flatMap(
  (byMode) => Object.values(byMode),
);

/**
 * A JSON number literal with these exact digits — except that JSON has no literal with a leading zero,
 * so "00123" (which a merchant can send as a string) stays a string rather than lose its zeros.
 */
function digitsAsNumber(digits: string): JsonNumber | string {
  return /^0[0-9]/.test(digits) ? digits : jsonNumber(digits);
}

/** Whether a UPI result writes Amount and TransactionID as JSON numbers, by status. */
const UPI_WRITES_NUMBERS: Record<PayoutStatus, boolean> = { PENDING: true, SUCCESS: true, FAILED: false };

const head = (p: PayoutResultSource) => ({
  error: p.status === 'FAILED',
  status_code: PAYOUT_RESULT_HTTP_STATUS[p.status],
  status: p.status,
  account: p.account,
});

// Bankriff to message, after the mode's own members; TransactionID as the mode writes it.
const tail = <T>(p: PayoutResultSource, transactionId: T) => ({
  Bankriff: bankriff(p),
  Ack_no: p.ackNo,
  TransactionID: transactionId,
  message: payoutResultMessage(p),
});

const RESULT_BODY: {
  [M in PayoutMode]: (p: PayoutResultSource) => { IMPS: ImpsPayoutResult; UPI: UpiPayoutResult }[M];
} = {
  IMPS: (p) => ({ ...head(p), ifsc: p.ifsc ?? '', Amount: formatRupees(p.amountPaise), ...tail(p, p.transactionId) }),
  UPI: (p) => {
    const amount = formatRupees(p.amountPaise);
    if (!UPI_WRITES_NUMBERS[p.status]) return { ...head(p), Amount: amount, ...tail(p, p.transactionId) };
    return { ...head(p), Amount: jsonNumber(amount), ...tail(p, digitsAsNumber(p.transactionId)) };
  },
};

/** The payout result and its HTTP status. Write the body with `stringifyJson` (UPI numbers are exact literals). */
export function payoutResult(p: PayoutResultSource): { httpStatus: number; body: PayoutResultBody } {
  return { httpStatus: PAYOUT_RESULT_HTTP_STATUS[p.status], body: RESULT_BODY[p.mode](p) };
}
