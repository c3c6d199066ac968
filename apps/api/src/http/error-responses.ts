import type { ErrorCode } from '@payout/domain';

/** The `status` text of each error, as CONTRACT.md spells it. */
export const STATUS_TEXT: Record<ErrorCode, string> = {
  BAD_REQUEST: 'BAD REQUEST',
  VALIDATION_FAILED: 'VALIDATION ERROR',
  UNAUTHENTICATED: 'UNAUTHORIZED',
  INVALID_MID: 'BAD REQUEST',
  NOT_FOUND: 'NOT FOUND',
  METHOD_NOT_ALLOWED: 'METHOD NOT ALLOWED',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED MEDIA TYPE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD TOO LARGE',
  TRANSACTION_ID_CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'TOO MANY REQUESTS',
  DEPENDENCY_UNAVAILABLE: 'SERVICE UNAVAILABLE',
  INTERNAL: 'INTERNAL SERVER ERROR',
};

export const MESSAGES = {
  unauthenticated:
    'Authentication credentials are missing or invalid. Please provide valid credentials to access the resource.',
  invalidMid: 'Please Input Valid MID',
  transactionNotFound: 'Transaction not found, Please Contact the Administrator.',
  walletNotFound: 'Data not found, please contact administrative !!.',
  invalidPayoutType: 'Something went wrong, please input valid payout type',
  routeNotFound: 'The requested resource does not exist.',
  methodNotAllowed: 'This method is not allowed on this resource.',
  unsupportedMediaType: 'Content-Type must be application/json.',
  payloadTooLarge: 'The request body must not exceed 16 KiB.',
  badJson: 'The request body must be a JSON object.',
  unavailable: 'The service is temporarily unavailable. Please retry with the same TransactionID.',
  internal: 'Something went wrong on our side. Please retry later or contact support.',
} as const;
