import { z } from 'zod';
import type { AppError, ErrorCode, FieldError } from '@payout/domain';
import { DIGITS_1_TO_30, transactionIdText } from './members.js';

// Error bodies (docs/api.md, "Errors at large"): error true, status_code equal to the HTTP status, a status text and
// a message; a 422 lists each failing member in `errors`; a refusal about one TransactionID or BatchID
// names it.

/** The `status` text of each error, as docs/api.md spells it. */
export const STATUS_TEXT: Record<ErrorCode, string> = {
  BAD_REQUEST: 'BAD REQUEST',
  VALIDATION_FAILED: 'VALIDATION ERROR',
  UNAUTHENTICATED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  INVALID_MID: 'BAD REQUEST',
  NOT_FOUND: 'NOT FOUND',
  METHOD_NOT_ALLOWED: 'METHOD NOT ALLOWED',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED MEDIA TYPE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD TOO LARGE',
  TRANSACTION_ID_CONFLICT: 'CONFLICT',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'TOO MANY REQUESTS',
  DEPENDENCY_UNAVAILABLE: 'SERVICE UNAVAILABLE',
  INTERNAL: 'INTERNAL SERVER ERROR',
};

// The messages, by where they are answered (docs/api.md, "Order of checks", "Lookups", "Errors at large").
const AUTHENTICATION = {
  unauthenticated:
    'Authentication credentials are missing or invalid. Please provide valid credentials to access the resource.',
  invalidMid: 'Please Input Valid MID',
};
const LOOKUPS = {
  transactionNotFound: 'Transaction not found, Please Contact the Administrator.',
  walletNotFound: 'Data not found, please contact administrative !!.',
  invalidPayoutType: 'Something went wrong, please input valid payout type',
};
const CANCELS = {
  payoutAlreadySent: 'The payout was already sent to a bank, so it can no longer be cancelled.',
};
const REQUESTS = {
  routeNotFound: 'The requested resource does not exist.',
  methodNotAllowed: 'This method is not allowed on this resource.',
  unsupportedMediaType: 'Content-Type must be application/json.',
  payloadTooLarge: 'The request body must not exceed 16 KiB.',
  badJson: 'The request body must be a JSON object.',
};
const TOKENS = {
  tokenNotFound: 'None of your active tokens has this prefix.',
};
const FAULTS = {
  unavailable: 'The service is temporarily unavailable. Please retry with the same TransactionID.',
  internal: 'Something went wrong on our side. Please retry later or contact support.',
};

export const MESSAGES = { ...AUTHENTICATION, ...LOOKUPS, ...CANCELS, ...REQUESTS, ...TOKENS, ...FAULTS } as const;

const fieldError = z.object({
  field: z.string().meta({ examples: ['Ifsc'] }),
  message: z.string().meta({ examples: ['Ifsc must be 4 letters, a zero, then 6 letters or digits'] }),
});
const batchId = z.string().regex(DIGITS_1_TO_30);

/** Every error body: what `errorBody` builds. The documented errors below narrow it. */
export const errorBodySchema = z.object({
  error: z.literal(true),
  status_code: z.number().int(),
  status: z.string(),
  message: z.string(),
  errors: z.array(fieldError).min(1).optional(),
  TransactionID: transactionIdText.optional(),
  BatchID: batchId.optional(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The error body for an error; also what a bulk batch's refused item is answered with. */
export function errorBody(appError: AppError): ErrorBody {
  const body: ErrorBody = {
    error: true,
    status_code: appError.httpStatus,
    status: statusText(appError),
    message: appError.operational ? appError.message : MESSAGES.internal,
  };
  if (appError.code === 'VALIDATION_FAILED') body.errors = appError.details.errors as FieldError[];
  if (typeof appError.details.TransactionID === 'string') body.TransactionID = appError.details.TransactionID;
  if (typeof appError.details.BatchID === 'string') body.BatchID = appError.details.BatchID;
  return body;
}

function statusText(error: AppError): string {
  // The invalid-MID answer's status text depends on the endpoint (docs/api.md, "Order of checks").
  if (error.code === 'INVALID_MID' && typeof error.details.status === 'string') return error.details.status;
  return STATUS_TEXT[error.code];
}

/** One documented error body: its status, status text and message, and the members it adds. */
function errorSchema(
  id: string,
  httpStatus: number,
  status: string,
  message: z.ZodType,
  description: string,
  extra: { TransactionID?: z.ZodType; BatchID?: z.ZodType; errors?: z.ZodType } = {},
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
  'MID or Token missing, unknown, or not matching each other; or sent from an address outside your IP allow-list.',
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

/** 404 for a TransactionID or a BatchID that names nothing of the merchant's. */
const notFoundSchema = (id: string, what: string, key: z.ZodType, keyName: 'TransactionID' | 'BatchID') =>
  errorSchema(
    id,
    404,
    'NOT FOUND',
    z.literal(MESSAGES.transactionNotFound),
    `No ${what} of yours has this ${keyName}.`,
    {
      [keyName]: key,
    },
  );

export const transactionNotFoundSchema = notFoundSchema(
  'TransactionNotFound',
  'transaction',
  transactionIdText,
  'TransactionID',
);
export const batchNotFoundSchema = notFoundSchema('BatchNotFound', 'batch', batchId, 'BatchID');

export const walletNotFoundSchema = errorSchema(
  'WalletNotFound',
  404,
  'NOT FOUND',
  z.literal(MESSAGES.walletNotFound),
  'Your main wallet has never been funded.',
);

/** 409 for a TransactionID or a BatchID already used for something else. */
const conflict = (id: string, keyName: 'TransactionID' | 'BatchID', key: z.ZodType, example: string, what: string) =>
  errorSchema(
    id,
    409,
    'CONFLICT',
    z.string().meta({ examples: [example] }),
    `The ${keyName} is already used for ${what}. Nothing changed.`,
    { [keyName]: key },
  );

export const conflictSchema = conflict(
  'TransactionIdConflict',
  'TransactionID',
  transactionIdText,
  'TransactionID 20240601000123 is already used for a different payout',
  'a payout with a different mode, beneficiary or amount',
);
export const batchConflictSchema = conflict(
  'BatchIdConflict',
  'BatchID',
  batchId,
  'BatchID 20240601 is already used for a different batch',
  'a batch with different items',
);

/** 409 for a cancel of a payout a bank already has (docs/api.md, "Cancelling a payout"). */
export const payoutAlreadySentSchema = errorSchema(
  'PayoutAlreadySent',
  409,
  'CONFLICT',
  z.literal(MESSAGES.payoutAlreadySent),
  'The payout was sent to a bank already (or settled another way), so it can no longer be cancelled. Nothing changed.',
  { TransactionID: transactionIdText },
);

/**
 * The refusal of a rotation at the limit names the active tokens' prefixes: a merchant whose rotation
 * answer was lost learns which token it never received, and revokes it with the one it holds.
 */
export function tokenLimitMessage(activePrefixes: readonly string[]): string {
  return (
    `You already hold two active tokens (${activePrefixes.join(', ')}). ` +
    'Revoke the one you no longer use (POST /api/token/revoke), then rotate again.'
  );
}

// The token endpoints' refusals (docs/api.md, "Token rotation").
export const tokenLimitSchema = errorSchema(
  'TokenLimit',
  409,
  'CONFLICT',
  z
    .string()
    .regex(/^You already hold two active tokens \(/)
    .meta({ examples: [tokenLimitMessage(['pgt_Xk3q9Z', 'pgt_b7QmR2'])] }),
  'You already hold two active tokens, named by their prefixes: no token was made. Revoke one first.',
);
export const tokenNotFoundSchema = errorSchema(
  'TokenNotFound',
  404,
  'NOT FOUND',
  z.literal(MESSAGES.tokenNotFound),
  'No active token of yours has this prefix. Nothing changed.',
);

export const payloadTooLargeSchema = errorSchema(
  'PayloadTooLarge',
  413,
  'PAYLOAD TOO LARGE',
  z.literal(MESSAGES.payloadTooLarge),
  'The body is over 16 KiB.',
);

export const bulkPayloadTooLargeSchema = errorSchema(
  'BulkPayloadTooLarge',
  413,
  'PAYLOAD TOO LARGE',
  z.string(),
  'Body over 8 MiB.',
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
  { errors: z.array(fieldError).min(1) },
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

export const railUnavailableSchema = errorSchema(
  'RailUnavailable',
  503,
  'SERVICE UNAVAILABLE',
  z.string(),
  'The bank did not answer in time (or PostgreSQL is unreachable). Asking again is safe: validation moves no money.',
);

export const internalErrorSchema = errorSchema(
  'InternalServerError',
  500,
  'INTERNAL SERVER ERROR',
  z.literal(MESSAGES.internal),
  'Anything unexpected; the detail is only in our log, under the X-Request-Id of the answer.',
);
