/**
 * Stable codes of every error the service reports. The API's response mapper turns a code into the
 * contract's status text and message; nothing else builds error bodies.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION_FAILED'
  | 'UNAUTHENTICATED'
  /** The admin listener only: a person whose role or standing does not allow the action. */
  | 'FORBIDDEN'
  | 'INVALID_MID'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'PAYLOAD_TOO_LARGE'
  | 'TRANSACTION_ID_CONFLICT'
  /** The thing asked about is no longer in the state the action needs (a merchant's cancel, the admin listener). */
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'DEPENDENCY_UNAVAILABLE'
  | 'INTERNAL';

const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  INVALID_MID: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  TRANSACTION_ID_CONFLICT: 409,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  DEPENDENCY_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** One failing member of a request, as listed in a 422 body. */
export interface FieldError {
  field: string;
  message: string;
}

interface AppErrorOptions {
  /** Public detail the response may carry (failing fields, the TransactionID asked for, …). */
  details?: Record<string, unknown>;
  /** Operational errors are expected (bad input, a dependency down) and logged at warn; others are bugs. */
  operational?: boolean;
  cause?: unknown;
}

/** The service's one error type: a stable code, its HTTP status, and whether it is expected. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly httpStatus: number;
  readonly details: Record<string, unknown>;
  readonly operational: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.httpStatus = HTTP_STATUS[code];
    this.details = options.details ?? {};
    this.operational = options.operational ?? code !== 'INTERNAL';
  }

  static validation(errors: FieldError[]): AppError {
    const message = errors.map((e) => e.message).join('; ');
    return new AppError('VALIDATION_FAILED', message, { details: { errors } });
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
