import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, isAppError, JsonSyntaxError } from '@payout/domain';
import { errorBody } from '@payout/contract';
import { isDatabaseUnavailable } from '@payout/db';
import { MESSAGES } from './error-responses.js';
import { sendJson } from './send-json.js';

/** Unknown route: 404. */
export const notFound: RequestHandler = () => {
  throw new AppError('NOT_FOUND', MESSAGES.routeNotFound);
};

/** A known path asked with a method it does not serve: 405. */
export const methodNotAllowed: RequestHandler = () => {
  throw new AppError('METHOD_NOT_ALLOWED', MESSAGES.methodNotAllowed);
};

/**
 * Answers every error raised while Express handles a request, with the body the wire contract's
 * `errorBody` builds (packages/contract/src/errors.ts); a request Node cannot parse never gets here and is
 * answered in api-server.ts. Expected errors are logged at warn; anything unexpected at error, with the
 * detail kept in the log and a generic message in the response.
 */
export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const appError = toAppError(error);
  if (appError.operational) req.log.warn({ code: appError.code, detail: appError.message }, 'request refused');
  else req.log.error({ err: error }, 'request failed');

  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (typeof appError.details.retryAfterSeconds === 'number') {
    res.setHeader('Retry-After', String(appError.details.retryAfterSeconds));
  }
  sendJson(res, appError.httpStatus, errorBody(appError));
};

// Errors raised by Express's body reader carry a `type`; PostgreSQL and Redis outages are 503.
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (error instanceof JsonSyntaxError) return new AppError('BAD_REQUEST', MESSAGES.badJson, { cause: error });
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', MESSAGES.payloadTooLarge);
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.unsupportedMediaType);
  }
  if (type === 'request.aborted' || type === 'request.size.invalid' || type === 'entity.verify.failed') {
    return new AppError('BAD_REQUEST', MESSAGES.badJson);
  }
  if (isDatabaseUnavailable(error)) {
    return new AppError('DEPENDENCY_UNAVAILABLE', MESSAGES.unavailable, { cause: error });
  }
  return new AppError('INTERNAL', error instanceof Error ? error.message : String(error), {
    cause: error,
    operational: false,
  });
}
