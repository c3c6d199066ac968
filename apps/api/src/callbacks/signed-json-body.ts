import type { RequestHandler } from 'express';
import { AppError, checkPayinSignature, PAYIN_SIGNATURE_HEADER } from '@payout/domain';
import { MESSAGES } from '../http/error-responses.js';
import { parseJsonObject, rawBodyReader } from '../http/json-body.js';

const BODY_LIMIT = '16kb';

export const SIGNATURE_MESSAGE = 'The callback signature is missing or invalid.';
export const STALE_SIGNATURE_MESSAGE =
  'The callback signature is more than 5 minutes old or ahead: sign each delivery with the current time.';

// The raw bytes are what was signed, so they are read as bytes (16 KiB at most) whatever the content type,
// and never decompressed (a compressed body is refused with 415).
const readRawBody = rawBodyReader(BODY_LIMIT);

/**
 * A JSON object body signed with `secret` (X-Payin-Signature: an HMAC-SHA256 of the timestamp and the raw
 * bytes, docs/webhooks.md). In order: no signature header → 401 before the body is read; body over 16 KiB →
 * 413, compressed → 415; signature not matching the timestamp and bytes → 401 (compared in constant time);
 * a genuine signature more than 5 minutes from our clock → 401, so a recorded callback cannot be replayed
 * later; then, as for merchant requests, 415 without the JSON content type and 400 for a body that is not
 * a JSON object. Nothing about the body is judged before it is proved to come from the provider.
 */
export function signedJsonBody(secret: string, nowSeconds: () => number = unixSeconds): RequestHandler[] {
  const requireSignatureHeader: RequestHandler = (req, _res, next) => {
    if (!req.get(PAYIN_SIGNATURE_HEADER)) throw new AppError('UNAUTHENTICATED', SIGNATURE_MESSAGE);
    next();
  };
  const verify: RequestHandler = (req, _res, next) => {
    const raw: unknown = req.body;
    const bytes = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
    const check = checkPayinSignature(secret, bytes, req.get(PAYIN_SIGNATURE_HEADER), nowSeconds());
    if (check === 'invalid') throw new AppError('UNAUTHENTICATED', SIGNATURE_MESSAGE);
    if (check === 'outside-window') throw new AppError('UNAUTHENTICATED', STALE_SIGNATURE_MESSAGE);
    if (!req.is('application/json')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGES.unsupportedMediaType);
    req.body = parseJsonObject(bytes);
    next();
  };
  return [requireSignatureHeader, ...readRawBody, verify];
}

const unixSeconds = () => Math.floor(Date.now() / 1000);
