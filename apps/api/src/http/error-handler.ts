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
 * detail kept in the log and a generic message in the response. A body that could not be read is logged
 * by its reader's `type` and status alone (see {@link bodyReadingError}).
 */
export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const bodyError = bodyReadingError(error);
  const appError = bodyError?.answer ?? toAppError(error);
  if (bodyError?.type === 'request.aborted') {
    // The client hung up before its body arrived (a load generator stopping mid-request does so): nobody is
    // refused and nobody reads the answer, so it is not logged as a refusal.
    req.log.info({ type: bodyError.type }, 'request aborted by the client before its body arrived');
  } else if (bodyError) {
    const level = appError.operational ? 'warn' : 'error';
    req.log[level]({ type: bodyError.type, status: appError.httpStatus }, 'request body refused');
  } else if (appError.operational) {
    req.log.warn({ code: appError.code, detail: appError.message }, 'request refused');
  } else {
    req.log.error({ err: error }, 'request failed');
  }

  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (typeof appError.details.retryAfterSeconds === 'number') {
    res.setHeader('Retry-After', String(appError.details.retryAfterSeconds));
  }
  sendJson(res, appError.httpStatus, errorBody(appError));
};

/**
 * For a router whose other failures are answered in its own way (the console's pages): a body that could
 * not be read is answered here as everywhere else, in JSON and logged without the body; any other error
 * goes on to the router's own handler.
 */
export const answerBodyReadingErrors: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (bodyReadingError(error)) errorHandler(error, req, res, next);
  else next(error);
};

// What each refusal of Express's body readers (body-parser: express.json, express.urlencoded, express.raw)
// is answered with. The merchant API's own answers are the contract's (docs/api.md, "Errors at large").
const BODY_REFUSALS: Record<string, () => AppError> = {
  'entity.parse.failed': () => new AppError('BAD_REQUEST', MESSAGES.badJson),
  'entity.verify.failed': () => new AppError('BAD_REQUEST', MESSAGES.badJson),
  'request.aborted': () => new AppError('BAD_REQUEST', MESSAGES.badJson),
  'request.size.invalid': () => new AppError('BAD_REQUEST', MESSAGES.badJson),
  'querystring.parse.rangeError': () => new AppError('BAD_REQUEST', 'The form nests its fields too deeply.'),
  'entity.too.large': () => new AppError('PAYLOAD_TOO_LARGE', MESSAGES.payloadTooLarge),
  'parameters.too.many': () => new AppError('PAYLOAD_TOO_LARGE', 'The form has too many fields.'),
  'encoding.unsupported': () => new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.unsupportedMediaType),
  'charset.unsupported': () => new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be sent as UTF-8.'),
};

/**
 * A body reader's refusal, and what it is answered with; undefined for any other error. Such an error
 * carries an HTTP status and a `type`, and may carry the raw body (`body`, on a parse failure) and quote
 * it in its message — a JSON syntax error quotes the bytes around the fault, which may be a password — so
 * nothing of it but the type and status is kept: the answer has no cause, and the log line has the type.
 * A refusal this table does not know is a 400 if its status is 4xx; a 5xx one is our own fault (a stream
 * read twice).
 */
export function bodyReadingError(error: unknown): { type: string; answer: AppError } | undefined {
  if (typeof error !== 'object' || error === null || isAppError(error)) return undefined;
  const { type, status, code } = error as { type?: unknown; status?: unknown; code?: unknown };
  if (typeof status !== 'number') return undefined;
  // A compressed body that does not inflate: the reader passes zlib's error on with a 400 and no type.
  if (type === undefined && status === 400 && typeof code === 'string' && code.startsWith('Z_')) {
    return { type: 'entity.inflate.failed', answer: new AppError('BAD_REQUEST', 'The request body does not inflate.') };
  }
  if (typeof type !== 'string') return undefined;
  const known = Object.hasOwn(BODY_REFUSALS, type) ? BODY_REFUSALS[type] : undefined;
  if (known) return { type, answer: known() };
  if (status >= 400 && status < 500) {
    return { type, answer: new AppError('BAD_REQUEST', 'The request body could not be read.') };
  }
  return { type, answer: new AppError('INTERNAL', `body reader failed: ${type}`, { operational: false }) };
}

// Any other error: ours as it is, the lossless JSON parser's a 400, PostgreSQL and Redis outages 503.
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (error instanceof JsonSyntaxError) return new AppError('BAD_REQUEST', MESSAGES.badJson, { cause: error });
  if (isDatabaseUnavailable(error)) {
    return new AppError('DEPENDENCY_UNAVAILABLE', MESSAGES.unavailable, { cause: error });
  }
  return new AppError('INTERNAL', error instanceof Error ? error.message : String(error), {
    cause: error,
    operational: false,
  });
}
