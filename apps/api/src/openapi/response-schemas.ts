import { z } from 'zod';
import { ACK_NO_PATTERN, FAILURE_REASON_TEXT, payoutMessage, type FailureReason } from '@payout/domain';
import { MESSAGES } from '../http/error-responses.js';

// The bodies the five endpoints answer with, as CONTRACT.md and docs/api.md fix them, written as zod
// schemas for the OpenAPI document only: the routes build these bodies themselves. test/docs checks real
// answers against the published document, so a drift between the two fails a test.

const PENDING_MESSAGE = payoutMessage('PENDING');
const SUCCESS_MESSAGE = payoutMessage('SUCCESS');
const FAILED_MESSAGES = (Object.keys(FAILURE_REASON_TEXT) as FailureReason[]).map((reason) =>
  payoutMessage('FAILED', reason),
) as [string, ...string[]];

// ----- members

const ackNo = z
  .string()
  .regex(ACK_NO_PATTERN)
  .meta({
    description: 'Our reference for the payout, assigned when it is accepted; also the reference sent to the bank.',
    examples: ['06F3K9Q2ZC4M7XR1B8TD'],
  });

const amountText = z
  .string()
  .regex(/^(0|[1-9][0-9]*)\.[0-9]{2}$/)
  .meta({ description: 'Rupees, always with two fraction digits.', examples: ['101.00'] });

const amountNumber = z.number().meta({
  description: 'Rupees as a JSON number literal written with two fraction digits, e.g. 101.00 (exact, never rounded).',
  examples: [101.0],
});

const transactionIdText = z
  .string()
  .regex(/^[0-9]{1,30}$/)
  .meta({ description: 'The TransactionID you sent, digit for digit.', examples: ['20240601000123'] });

const transactionIdNumber = z
  .union([
    z.number().meta({
      type: 'integer',
      minimum: 0,
      description: 'The TransactionID you sent, as a JSON number with exactly its digits.',
    }),
    z
      .string()
      .regex(/^0[0-9]{1,29}$/)
      .meta({ description: 'A TransactionID with leading zeros (sent as a string): JSON has no such number literal.' }),
  ])
  .meta({
    description:
      'The TransactionID you sent, as a JSON number with exactly its digits (23 digits stay 23 digits: parse it ' +
      'losslessly); one with leading zeros, which only a string can carry, comes back as that string.',
    examples: [20240601000123],
  });

const bankriffEmpty = z.literal('').meta({ description: 'The bank reference (UTR): empty until the payout succeeds.' });
// A payout reversed after success is FAILED but keeps the UTR of the payment that came back (CONTRACT.md,
// "Reversal after success").
const bankriffFailed = z.string().meta({
  description: 'Empty, except for a payout reversed after success, which keeps the UTR of its payment.',
  examples: ['', '412345678901'],
});
const bankriffUtr = z
  .string()
  .min(1)
  .meta({ description: "The bank's reference (UTR) for the transfer.", examples: ['412345678901'] });

const accountNumber = z
  .string()
  .meta({ description: "The beneficiary's account number, as you sent it.", examples: ['123456789012'] });
const upiAddress = z
  .string()
  .meta({ description: 'The UPI address paid, as you sent it.', examples: ['asha.kumar@okhdfc'] });
const ifsc = z.string().meta({ description: 'The IFSC, upper case.', examples: ['HDFC0001234'] });

const failedMessage = z.enum(FAILED_MESSAGES).meta({
  description: 'MP007 followed by the reason, one of a fixed list.',
  examples: [payoutMessage('FAILED', 'INSUFFICIENT_BALANCE')],
});

// ----- payout results (spec 2.6): IMPS carries ifsc; UPI does not, and its PENDING and SUCCESS results
// carry Amount and TransactionID as JSON numbers.

const pendingHead = { error: z.literal(false), status_code: z.literal(202), status: z.literal('PENDING') };
const successHead = { error: z.literal(false), status_code: z.literal(200), status: z.literal('SUCCESS') };
const failedHead = { error: z.literal(true), status_code: z.literal(400), status: z.literal('FAILED') };

export const impsPayoutPendingSchema = z
  .object({
    ...pendingHead,
    account: accountNumber,
    ifsc,
    Amount: amountText,
    Bankriff: bankriffEmpty,
    Ack_no: ackNo,
    TransactionID: transactionIdText,
    message: z.literal(PENDING_MESSAGE),
  })
  .meta({ id: 'ImpsPayoutPending', description: 'An IMPS payout in progress.' });

export const impsPayoutSuccessSchema = z
  .object({
    ...successHead,
    account: accountNumber,
    ifsc,
    Amount: amountText,
    Bankriff: bankriffUtr,
    Ack_no: ackNo,
    TransactionID: transactionIdText,
    message: z.literal(SUCCESS_MESSAGE),
  })
  .meta({ id: 'ImpsPayoutSuccess', description: 'An IMPS payout that has succeeded.' });

export const impsPayoutFailedSchema = z
  .object({
    ...failedHead,
    account: accountNumber,
    ifsc,
    Amount: amountText,
    Bankriff: bankriffFailed,
    Ack_no: ackNo,
    TransactionID: transactionIdText,
    message: failedMessage,
  })
  .meta({
    id: 'ImpsPayoutFailed',
    description: 'An IMPS payout that has failed; the amount is back in the main wallet.',
  });

export const upiPayoutPendingSchema = z
  .object({
    ...pendingHead,
    account: upiAddress,
    Amount: amountNumber,
    Bankriff: bankriffEmpty,
    Ack_no: ackNo,
    TransactionID: transactionIdNumber,
    message: z.literal(PENDING_MESSAGE),
  })
  .meta({
    id: 'UpiPayoutPending',
    description: 'A UPI payout in progress. Amount and TransactionID are JSON numbers.',
  });

export const upiPayoutSuccessSchema = z
  .object({
    ...successHead,
    account: upiAddress,
    Amount: amountNumber,
    Bankriff: bankriffUtr,
    Ack_no: ackNo,
    TransactionID: transactionIdNumber,
    message: z.literal(SUCCESS_MESSAGE),
  })
  .meta({
    id: 'UpiPayoutSuccess',
    description: 'A UPI payout that has succeeded. Amount and TransactionID are JSON numbers.',
  });

export const upiPayoutFailedSchema = z
  .object({
    ...failedHead,
    account: upiAddress,
    Amount: amountText,
    Bankriff: bankriffFailed,
    Ack_no: ackNo,
    TransactionID: transactionIdText,
    message: failedMessage,
  })
  .meta({
    id: 'UpiPayoutFailed',
    description:
      'A UPI payout that has failed; the amount is back in the main wallet. Amount and TransactionID are strings.',
  });

// ----- lookups

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
    message: z.enum([PENDING_MESSAGE, SUCCESS_MESSAGE, ...FAILED_MESSAGES]).meta({
      description: 'The result code and its text, as in the payout result.',
    }),
  })
  .meta({ id: 'PayoutStatus', description: 'A payout found by its TransactionID (spec 2.2 plus mode and message).' });

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
  .meta({ id: 'CollectionStatus', description: 'A pay-in (collection) found by its TransactionID (spec 2.1).' });

export const walletSchema = z
  .object({
    error: z.literal(false),
    status_code: z.literal(200),
    status: z.literal('Success'),
    mainwallet: z
      .string()
      .regex(/^(0|[1-9][0-9]*)\.[0-9]{2}$/)
      .meta({
        description: 'The available balance in rupees: credits minus payouts settled and payouts still in progress.',
        examples: ['4765.00'],
      }),
    message: z.literal('Success.'),
  })
  .meta({ id: 'MainWallet', description: 'The main wallet (spec 2.3).' });

// ----- errors: error true, status_code equal to the HTTP status, status text, message.

export function errorSchema(
  id: string,
  httpStatus: number,
  status: string,
  message: z.ZodType,
  description: string,
  extra: z.ZodRawShape = {},
) {
  return z
    .object({
      error: z.literal(true),
      status_code: z.literal(httpStatus),
      status: z.literal(status),
      message,
      ...extra,
    })
    .meta({ id, description });
}

export const invalidMidSchema = (status: 'FAILED' | 'BAD REQUEST', id: string) =>
  errorSchema(
    id,
    400,
    status,
    z.literal(MESSAGES.invalidMid),
    'The MID is not well formed (1 to 64 of A-Z a-z 0-9 _ -), or the merchant is suspended.',
  );

export const unauthorizedSchema = errorSchema(
  'Unauthorized',
  401,
  'UNAUTHORIZED',
  z.literal(MESSAGES.unauthenticated),
  'MID or Token missing, unknown, or not matching each other.',
);

export const badBodySchema = errorSchema(
  'BadRequestBody',
  400,
  'BAD REQUEST',
  z.literal(MESSAGES.badJson),
  'The body is not a JSON object (not JSON, not UTF-8, duplicate keys with different values, nested deeper than 32 levels).',
);

export const invalidPayoutTypeSchema = errorSchema(
  'InvalidPayoutType',
  400,
  'BAD REQUEST',
  z.literal(MESSAGES.invalidPayoutType),
  'PayoutType is missing or not Main_Wallet_Balance.',
);

export const transactionNotFoundSchema = errorSchema(
  'TransactionNotFound',
  404,
  'NOT FOUND',
  z.literal(MESSAGES.transactionNotFound),
  'No transaction of yours has this TransactionID.',
  { TransactionID: transactionIdText },
);

export const walletNotFoundSchema = errorSchema(
  'WalletNotFound',
  404,
  'NOT FOUND',
  z.literal(MESSAGES.walletNotFound),
  'Your main wallet has never been funded.',
);

export const conflictSchema = errorSchema(
  'TransactionIdConflict',
  409,
  'CONFLICT',
  z.string().meta({ examples: ['TransactionID 20240601000123 is already used for a different payout'] }),
  'The TransactionID is already used for a payout with a different mode, beneficiary or amount. Nothing changed.',
  { TransactionID: transactionIdText },
);

export const payloadTooLargeSchema = errorSchema(
  'PayloadTooLarge',
  413,
  'PAYLOAD TOO LARGE',
  z.literal(MESSAGES.payloadTooLarge),
  'The body is over 16 KiB.',
);

export const unsupportedMediaTypeSchema = errorSchema(
  'UnsupportedMediaType',
  415,
  'UNSUPPORTED MEDIA TYPE',
  z.literal(MESSAGES.unsupportedMediaType),
  'The request is not sent with Content-Type: application/json.',
);

export const validationErrorSchema = errorSchema(
  'ValidationError',
  422,
  'VALIDATION ERROR',
  z.string(),
  'One entry in `errors` per failing member.',
  {
    errors: z
      .array(
        z.object({
          field: z.string().meta({ examples: ['Ifsc'] }),
          message: z.string().meta({ examples: ['Ifsc must be 4 letters, a zero, then 6 letters or digits'] }),
        }),
      )
      .min(1),
  },
);

export const rateLimitedSchema = errorSchema(
  'TooManyRequests',
  429,
  'TOO MANY REQUESTS',
  z.string(),
  'Too many requests for this MID; wait as long as Retry-After says.',
);

export const unavailableSchema = errorSchema(
  'ServiceUnavailable',
  503,
  'SERVICE UNAVAILABLE',
  z.literal(MESSAGES.unavailable),
  'A dependency is down. Retrying with the same TransactionID is safe.',
);

export const internalErrorSchema = errorSchema(
  'InternalServerError',
  500,
  'INTERNAL SERVER ERROR',
  z.literal(MESSAGES.internal),
  'Anything unexpected; the detail is only in our log, under the X-Request-Id of the answer.',
);
