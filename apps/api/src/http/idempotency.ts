import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError, stringifyJson, parseJson } from '@payout/domain';
import { claimIdempotencyKey, recordIdempotentAnswer, releaseIdempotencyKey, type PrismaClient } from '@payout/db';
import { merchantOf } from '../auth/authenticate.js';
import { bodyBytesOf } from './json-body.js';
import { requestLines } from './request-context.js';
import { recordAnswerBeforeSending, sendJsonText, type AnswerRecorder } from './send-json.js';

// The `Idempotency-Key` header of the merchant POSTs (docs/api.md, "Idempotency keys"; CONTRACT.md, "The merchant
// API beyond the seed"): the same key and request within 24 hours is answered the first answer again, byte for
// byte; the same key with another request is 422; a key whose first request is still running is 409. The key is
// the merchant's own: two merchants may send the same one. TransactionID rules are untouched: a payout sent again
// without a key (or with a new one) is still answered by its TransactionID.

/** How long a key answers its first answer again (CONTRACT.md). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claimed key waits for its first request's answer before another request may take it over (that
 * request died with its process). Longer than any request runs: the longest, a 5,000-item bulk batch, is ten
 * statements of 500 items, each bounded by the 5 s statement time-out after at most a 5 s wait for a connection
 * (README, "Configuration"); a queued job's enqueue never holds an answer.
 */
export const IDEMPOTENCY_KEY_LEASE_MS = 120_000;

export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';

export const IDEMPOTENCY_MESSAGES = {
  malformed: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
  otherRequest: 'This Idempotency-Key was used with another request.',
  inProgress: 'A request with this Idempotency-Key is still in progress; retry later.',
} as const;

/**
 * An operation whose success shows a secret once (a token, a webhook signing secret). No secret is ever stored:
 * its answer is stored without `member`, and a replay of it is refused with a 409 naming the secret's prefix
 * (the answer's `prefix`), since the secret cannot be shown again.
 */
export interface SecretShownOnce {
  member: string;
  replayRefusal(prefix: string): string;
}

export const SECRETS_SHOWN_ONCE = {
  token: {
    member: 'token',
    replayRefusal: (prefix: string) =>
      `This Idempotency-Key's request issued a new token (${prefix}), shown only once and not kept, so it cannot ` +
      'be shown again. If you did not receive it, revoke it (POST /api/token/revoke) with the token you hold, ' +
      'then rotate again with a new Idempotency-Key.',
  },
  webhookSecret: {
    member: 'secret',
    replayRefusal: (prefix: string) =>
      `This Idempotency-Key's request issued a new webhook signing secret (${prefix}), shown only once and not ` +
      'kept, so it cannot be shown again. If you did not receive it, fetch another with a new Idempotency-Key.',
  },
} as const satisfies Record<string, SecretShownOnce>;

// Visible ASCII, 0x21 to 0x7E. A repeated header reaches us joined by ", ", whose space is not visible: refused too.
const WELL_FORMED_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The idempotency step of a merchant POST: after authentication, the rate limit and the body (the key is the
 * merchant's, and the request is told by its bytes), before the operation. Without the header it is one header
 * read and nothing else, so the accept path pays nothing for it (docs/performance.md, "The accept path").
 */
export function idempotencyKey(db: PrismaClient, secret?: SecretShownOnce): RequestHandler {
  return (req, res, next) => {
    const key = req.headers['idempotency-key'];
    if (key === undefined) {
      next();
      return undefined;
    }
    return honourKey(db, secret, key, req, res, next);
  };
}

async function honourKey(
  db: PrismaClient,
  secret: SecretShownOnce | undefined,
  key: string | string[],
  req: Request,
  res: Response,
  next: NextFunction,
): Promise<void> {
  if (typeof key !== 'string' || !WELL_FORMED_KEY.test(key)) {
    throw new AppError('BAD_REQUEST', IDEMPOTENCY_MESSAGES.malformed);
  }
  const merchantId = merchantOf(res).id;
  const requestDigest = digestOf(req);
  const found = await claimIdempotencyKey(
    db,
    { merchantId, key, requestDigest },
    { ttlMs: IDEMPOTENCY_KEY_TTL_MS, leaseMs: IDEMPOTENCY_KEY_LEASE_MS },
  );
  if (found.kind === 'claimed') {
    recordAnswerBeforeSending(res, answerRecorder(db, secret, { merchantId, key, claimedAt: found.claimedAt }, req));
    next();
    return;
  }
  if (found.requestDigest !== requestDigest) {
    throw AppError.validation([{ field: 'Idempotency-Key', message: IDEMPOTENCY_MESSAGES.otherRequest }]);
  }
  if (found.kind === 'in-flight') throw new AppError('CONFLICT', IDEMPOTENCY_MESSAGES.inProgress);
  if (secret && isSuccess(found.statusCode)) {
    throw new AppError('CONFLICT', secret.replayRefusal(prefixOf(found.body)));
  }
  // A key may be anything the merchant sent: only its first characters are logged.
  requestLines(req).info(
    { idempotencyKey: key.slice(0, 8), status: found.statusCode },
    'answered again from its Idempotency-Key',
  );
  res.setHeader(IDEMPOTENT_REPLAY_HEADER, 'true');
  sendJsonText(res, found.statusCode, found.body);
}

/**
 * What tells one request from another under the same key: SHA-256 of the method, the route's path and the body's
 * bytes as they arrived (so `101.5` and `"101.50"` are two requests, as the merchant sent two different bodies).
 */
function digestOf(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return createHash('sha256')
    .update(`${req.method} ${typeof path === 'string' ? path : req.path}\n`)
    .update(bodyBytesOf(req) ?? Buffer.alloc(0))
    .digest('hex');
}

/**
 * Stores the claimed request's answer before it is sent: status and body as sent, the secret left out. A 5xx or
 * a 429 says "not now", not what the request does: the key is released instead, so a retry runs the operation
 * again. A store that fails leaves the key in flight until its lease ends; the answer is sent all the same.
 */
function answerRecorder(
  db: PrismaClient,
  secret: SecretShownOnce | undefined,
  claim: { merchantId: number; key: string; claimedAt: Date },
  req: Request,
): AnswerRecorder {
  return async (httpStatus, body, payload) => {
    try {
      if (httpStatus >= 500 || httpStatus === 429) {
        await releaseIdempotencyKey(db, claim);
        return;
      }
      const stored = secret && secret.member in body ? stringifyJson(without(body, secret.member)) : payload;
      await recordIdempotentAnswer(db, claim, { statusCode: httpStatus, body: stored });
    } catch (error) {
      requestLines(req).warn(
        { err: (error as Error).message, idempotencyKey: claim.key.slice(0, 8) },
        'could not store the answer of an Idempotency-Key; the key stays in flight until its lease ends',
      );
    }
  };
}

function without(body: Record<string, unknown>, member: string): Record<string, unknown> {
  const { [member]: _secret, ...rest } = body;
  return rest;
}

function isSuccess(httpStatus: number): boolean {
  return httpStatus >= 200 && httpStatus < 300;
}

/** The `prefix` of a stored answer that showed a secret (the token's and the webhook secret's both have one). */
function prefixOf(storedBody: string): string {
  const prefix = (parseJson(storedBody) as { prefix?: unknown }).prefix;
  return typeof prefix === 'string' ? prefix : '';
}
