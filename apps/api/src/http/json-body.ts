import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import typeis from 'type-is';
import { AppError, isJsonNumber, parseJson } from '@payout/domain';
import { MESSAGES } from './error-responses.js';

const BODY_LIMIT = '16kb';
const utf8 = new TextDecoder('utf-8', { fatal: true });

// Whether a Content-Type is JSON, by the header's exact text. Parsing the media type (type-is, behind
// req.is) cost about 4 % of an accept's CPU, for a header that takes a handful of values across all
// clients (docs/performance.md, "The accept path"). Bounded, so odd headers cannot grow it.
const MAX_REMEMBERED_CONTENT_TYPES = 64;
const jsonContentTypes = new Map<string, boolean>();

/** What `req.is('application/json')` answers (type-is, as Express asks it), remembered by the Content-Type header's text. */
function isJsonRequest(req: Request): boolean {
  // No body at all (neither length nor chunked) is not JSON, as type-is's hasBody rules.
  const { 'transfer-encoding': chunked, 'content-length': length, 'content-type': contentType } = req.headers;
  if (chunked === undefined && (length === undefined || Number.isNaN(Number(length)))) return false;
  if (contentType === undefined) return false;
  let isJson = jsonContentTypes.get(contentType);
  if (isJson === undefined) {
    isJson = Boolean(typeis(req, ['application/json']));
    if (jsonContentTypes.size < MAX_REMEMBERED_CONTENT_TYPES) jsonContentTypes.set(contentType, isJson);
  }
  return isJson;
}

const requireJsonContentType: RequestHandler = (req, _res, next) => {
  if (!isJsonRequest(req)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.unsupportedMediaType);
  next();
};

// A repeated `Content-Encoding: identity` reaches us joined into one list ("identity, identity"). A list of
// identities is still no coding at all, so it is read like a body without the header rather than refused.
const dropIdentityOnlyEncoding: RequestHandler = (req, _res, next) => {
  const encoding = req.headers['content-encoding'];
  if (encoding?.split(',').every((coding) => coding.trim().toLowerCase() === 'identity')) {
    delete req.headers['content-encoding'];
  }
  next();
};

/**
 * A body's bytes, `limit` at most, whatever its content type. Compressed bodies are refused (415): a
 * payout request is a few hundred bytes, and a decompressor only adds a way to fail (or to smuggle a large
 * body past the limit) — and a signed body must be checked against exactly the bytes that arrived.
 */
export function rawBodyReader(limit: string | number): RequestHandler[] {
  return [dropIdentityOnlyEncoding, express.raw({ type: () => true, limit, inflate: false })];
}

// Read as bytes and parse losslessly: JSON.parse would turn big numbers into floats.
const readRawBody = rawBodyReader(BODY_LIMIT);

/** A request body's bytes as a JSON object, parsed losslessly; anything else (not UTF-8, not JSON, not an object) is a 400. */
export function parseJsonObject(bytes: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseJson(utf8.decode(bytes));
  } catch {
    throw new AppError('BAD_REQUEST', MESSAGES.badJson);
  }
  // Numbers parse to JsonNumber objects, so "an object" needs more than typeof.
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || isJsonNumber(parsed)) {
    throw new AppError('BAD_REQUEST', MESSAGES.badJson);
  }
  return parsed as Record<string, unknown>;
}

const parseBody: RequestHandler = (req, _res, next) => {
  // A client that hung up mid-body, while the request waited for its credential check, leaves the reader
  // the bytes that had come: that is an aborted request, not a malformed body (error-handler.ts).
  if (!req.complete) {
    next(Object.assign(new Error('request aborted'), { type: 'request.aborted', status: 400 }));
    return;
  }
  const raw: unknown = req.body;
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
  // Kept (the same buffer, no copy): an Idempotency-Key's request is told from another by these very bytes.
  (req as RequestWithBytes)[BODY_BYTES] = bytes;
  req.body = parseJsonObject(bytes);
  next();
};

const BODY_BYTES = Symbol('body bytes');
type RequestWithBytes = Request & { [BODY_BYTES]?: Buffer };

/** The bytes of the body {@link jsonBody} or {@link largeJsonBody} parsed, exactly as they arrived. */
export function bodyBytesOf(req: Request): Buffer | undefined {
  return (req as RequestWithBytes)[BODY_BYTES];
}

/** A JSON object body: 415 without the JSON content type, 413 over 16 KiB, 400 if not a JSON object. */
export const jsonBody: RequestHandler[] = [requireJsonContentType, ...readRawBody, parseBody];

/**
 * A JSON object body of up to `limitBytes`, for the one endpoint whose body is legitimately large (a bulk
 * batch of up to 5,000 payouts); otherwise the same rules as {@link jsonBody}. Over the limit: 413 with
 * `tooLargeMessage`.
 */
export function largeJsonBody(limitBytes: number, tooLargeMessage: string): (RequestHandler | ErrorRequestHandler)[] {
  const readLargeRawBody = rawBodyReader(limitBytes);
  const tooLarge: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
    const type = (error as { type?: unknown } | null)?.type;
    next(type === 'entity.too.large' ? new AppError('PAYLOAD_TOO_LARGE', tooLargeMessage) : error);
  };
  return [requireJsonContentType, ...readLargeRawBody, tooLarge, parseBody];
}
