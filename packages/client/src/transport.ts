import { PayoutClientError } from './errors.js';
import { isJsonObject, JsonParseError, parseJsonLossless, type JsonObject } from './lossless-json.js';

/** How hard a call tries before it gives up. Every call of the client (payouts and lookups) uses it. */
export interface RetryPolicy {
  /** Give up once this much time has passed since the call began. Default 30 000 ms. */
  deadlineMs: number;
  /** One request's limit, from sending to the last byte of the answer. Default 10 000 ms. */
  attemptTimeoutMs: number;
  /** The first wait between two attempts; it doubles up to maxDelayMs. Default 250 ms. */
  firstDelayMs: number;
  /** The longest wait between two attempts (a Retry-After can ask for more). Default 5 000 ms. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  deadlineMs: 30_000,
  attemptTimeoutMs: 10_000,
  firstDelayMs: 250,
  maxDelayMs: 5_000,
};

/** Statuses that say "not now" rather than "no": the same request may be sent again. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

export interface Transport {
  baseUrl: string;
  mid: string;
  token: string;
  fetch: typeof fetch;
  retry: RetryPolicy;
}

interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  /** The JSON body, already written: every attempt sends these very bytes. */
  body?: string;
  /** For error details only. */
  transactionId?: string;
  signal?: AbortSignal | undefined;
  /** Also take a 200 answer of this media type, as its text (the statement's CSV); errors stay JSON. */
  accept?: 'text/csv';
  /**
   * A POST's Idempotency-Key: the caller's, or else a new UUID for this call, sent with each of its attempts, so
   * a retry whose first attempt did reach the gateway is answered that attempt's answer (docs/api.md,
   * "Idempotency keys"). `false` sends none.
   */
  idempotencyKey?: string | false | undefined;
}

export interface ApiAnswer {
  status: number;
  requestId: string | undefined;
  /** The body, parsed losslessly. */
  body: JsonObject;
  /** The body's text, when it is the media type the request accepted instead of JSON (its `body` is then {}). */
  text?: string;
}

/**
 * Sends one API request and returns the first answer that is not "not now". A time-out, a lost connection,
 * a 5xx or a 429 is retried after a growing, jittered wait (at least the answer's Retry-After) until the
 * deadline; the request is sent again byte for byte, so a payout keeps its TransactionID. Being idempotent
 * per TransactionID, the gateway makes at most one payout however many of these attempts reach it.
 */
export async function send(transport: Transport, request: ApiRequest): Promise<ApiAnswer> {
  const { retry } = transport;
  const deadline = Date.now() + retry.deadlineMs;
  // Appended, not resolved: a gateway behind a path prefix (https://host/payouts) keeps its prefix.
  const url = new URL(transport.baseUrl.replace(/\/+$/, '') + request.path);
  for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = {
    Accept: request.accept ? `${request.accept}, application/json` : 'application/json',
    MID: transport.mid,
    Token: transport.token,
  };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  if (request.method === 'POST' && request.idempotencyKey !== false) {
    headers['Idempotency-Key'] = request.idempotencyKey ?? globalThis.crypto.randomUUID();
  }

  // The last answer the gateway gave, kept across attempts: when the deadline cuts the final attempt short,
  // what the gateway last said (a 503, say) is still what the caller wants to know.
  let lastAnswer: { status: number; requestId?: string } | undefined;
  for (let attempt = 1; ; attempt++) {
    let notNow: { why: string; retryAfterMs: number; cause?: unknown };
    const timeLeft = deadline - Date.now();
    const attemptSignal = AbortSignal.timeout(Math.max(1, Math.min(retry.attemptTimeoutMs, timeLeft)));
    const signal = request.signal ? AbortSignal.any([request.signal, attemptSignal]) : attemptSignal;
    try {
      const response = await transport.fetch(url, { method: request.method, headers, body: request.body, signal });
      const text = await response.text();
      const requestId = response.headers.get('X-Request-Id') ?? undefined;
      if (RETRYABLE_STATUSES.has(response.status)) {
        lastAnswer = { status: response.status, ...(requestId !== undefined && { requestId }) };
        notNow = {
          why: `HTTP ${response.status}: ${text.slice(0, 200)}`,
          retryAfterMs: retryAfterMs(response.headers.get('Retry-After')),
        };
      } else if (request.accept && response.status === 200 && isMediaType(response, request.accept)) {
        return { status: response.status, requestId, body: {}, text };
      } else {
        return { status: response.status, requestId, body: parseBody(text, response.status, requestId, request) };
      }
    } catch (error) {
      if (error instanceof PayoutClientError) throw error;
      // The caller's own abort ends the call; anything else (time-out, reset, refused) is "not now".
      if (request.signal?.aborted) throw request.signal.reason;
      notNow = { why: describeTransportError(error), retryAfterMs: 0, cause: error };
    }

    const wait = Math.max(backoffMs(retry, attempt), notNow.retryAfterMs);
    if (Date.now() + wait >= deadline) {
      throw new PayoutClientError(
        'GAVE_UP',
        `${request.method} ${request.path}: no answer to act on within ${retry.deadlineMs} ms (${attempt} attempts; ` +
          `last: ${notNow.why}).` +
          (request.method === 'POST'
            ? ' The payout may exist: look it up, or send it again with the same TransactionID.'
            : ''),
        {
          attempts: attempt,
          last: notNow.why,
          ...(lastAnswer && { httpStatus: lastAnswer.status }),
          ...(lastAnswer?.requestId !== undefined && { requestId: lastAnswer.requestId }),
          ...(request.transactionId !== undefined && { transactionId: request.transactionId }),
        },
        { cause: notNow.cause },
      );
    }
    await sleep(wait, request.signal);
  }
}

/** The wait before attempt `attempt + 1`: doubling steps, each between half and all of its step. */
export function backoffMs(retry: Pick<RetryPolicy, 'firstDelayMs' | 'maxDelayMs'>, attempt: number): number {
  const step = Math.min(retry.maxDelayMs, retry.firstDelayMs * 2 ** Math.min(attempt - 1, 30));
  return step / 2 + Math.random() * (step / 2);
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; 0 when absent or unreadable. */
function retryAfterMs(header: string | null): number {
  if (header === null) return 0;
  const trimmed = header.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
}

function parseBody(text: string, status: number, requestId: string | undefined, request: ApiRequest): JsonObject {
  try {
    const body = parseJsonLossless(text);
    if (isJsonObject(body)) return body;
  } catch (error) {
    if (!(error instanceof JsonParseError)) throw error;
  }
  throw new PayoutClientError(
    'UNEXPECTED_ANSWER',
    `${request.method} ${request.path} answered ${status} with a body that is not a JSON object`,
    {
      httpStatus: status,
      last: text.slice(0, 500),
      ...(requestId !== undefined && { requestId }),
      ...(request.transactionId !== undefined && { transactionId: request.transactionId }),
    },
  );
}

function isMediaType(response: Response, mediaType: string): boolean {
  return (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase() === mediaType;
}

function describeTransportError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'no answer in time';
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

/** Waits `ms`, or until the caller aborts (then throws the abort's reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
