import { isJsonObject, JsonParseError, parseJsonLossless, type JsonObject } from './lossless-json.js';
import { failureReason, isPayoutResult } from './outcomes.js';
import type { Downtime, PayoutResult } from './types.js';

/**
 * What a webhook tells you. `type` is open: the gateway may add event types, and this client hands
 * them to you (with the body, parsed losslessly) instead of refusing them. Known today:
 * - `payout.success` and `payout.failed`: the payout reached its final result;
 * - `payout.reversed`: a payout that had succeeded came back (the credit bounced); its amount is back in
 *   your main wallet, the status lookup says Failed, and `Bankriff` is still the original UTR;
 * - `downtime.started` and `downtime.resolved`: a sponsor bank went down (or degraded) for a mode, or
 *   recovered (`downtime`; GET /api/downtimes lists those open now).
 */
export type WebhookEventType =
  'payout.success' | 'payout.failed' | 'payout.reversed' | 'downtime.started' | 'downtime.resolved' | (string & {});

export interface WebhookEvent {
  type: WebhookEventType;
  /** X-Webhook-Id: the same for every retry of one delivery. */
  deliveryId: string | undefined;
  /** X-Webhook-Attempt: 1 for the first attempt of this delivery. */
  attempt: number | undefined;
  /**
   * The event counter (the body's `sequence`, which is signed, else X-Webhook-Sequence), rising with each
   * event of one payout, or with each downtime event sent to you: keep the highest you have applied (per
   * payout, or per bank and mode) and ignore a lower one, since deliveries are not ordered. Undefined when
   * the gateway does not send one.
   */
  sequence: number | undefined;
  /** When the gateway signed the delivery (Unix seconds, the `t` of the signature). */
  signedAt: number;
  /** The payout's result (docs/api.md, "Response bodies"), Amount and TransactionID as exact strings; undefined for other events. */
  payout: PayoutResult | undefined;
  /** For failed and reversed payouts: the reason after "MP007 - Transaction failed: ". */
  reason: string | undefined;
  /** For downtime events: the bank, mode, since and status; undefined for other events. */
  downtime: Downtime | undefined;
  /** The whole body, parsed losslessly: members this client does not know yet are here too. */
  body: JsonObject;
}

export type WebhookRefusal =
  'missing_signature' | 'malformed_signature' | 'signature_mismatch' | 'timestamp_outside_window' | 'malformed_body';

export type WebhookVerification =
  { ok: true; event: WebhookEvent } | { ok: false; reason: WebhookRefusal; message: string };

/** Request headers as fetch (`Headers`), Node's `req.headers` or a plain object give them. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** The request body exactly as received, before any JSON parsing. */
  rawBody: string | Uint8Array;
  headers: HeadersLike;
  /** Your whsec_… secret; while you move to a new one, both (either may have signed). */
  secret: string | readonly string[];
  /** How far `t` may be from your clock. Default 300 s. */
  toleranceSeconds?: number;
  /** Your clock, in milliseconds (for tests). Default Date.now(). */
  now?: number;
}

const REFUSALS: Record<WebhookRefusal, string> = {
  missing_signature: 'no X-Webhook-Signature header: not a delivery of the payout gateway',
  malformed_signature: 'X-Webhook-Signature is not "t=<unix seconds>,v1=<hex>[,v1=<hex>]"',
  signature_mismatch: 'no v1 signature matches this body and secret: the body was changed, or the secret is wrong',
  timestamp_outside_window: 'the signature is genuine but its timestamp is outside the tolerance: a replayed delivery',
  malformed_body: 'the signed body is not a JSON object',
};

const encoder = new TextEncoder();

/**
 * Verifies a payout webhook and returns its event, or why it must be refused (answer 401 and do nothing).
 * The signature (docs/webhooks.md) is the hex HMAC-SHA256 of `<t>.<raw body>` keyed with your secret; it is
 * compared in constant time, and `t` must be within `toleranceSeconds` of your clock so that a recorded
 * delivery cannot be replayed later. Runs on the Web Crypto API: Node 20+, Deno, Bun, worker runtimes.
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookVerification> {
  const header = headerValue(options.headers, 'X-Webhook-Signature');
  if (header === undefined || header.trim() === '') return refuse('missing_signature');
  const signature = parseSignatureHeader(header);
  if (!signature) return refuse('malformed_signature');

  const body = rawBytes(options.rawBody);
  const signed = concat(encoder.encode(`${signature.t}.`), body);
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  let matched = false;
  // Every secret against every signature, without stopping at the first match: the time taken does not
  // depend on which (or how much of one) matched.
  for (const secret of secrets) {
    const expected = await hmacSha256(secret, signed);
    for (const given of signature.v1) matched = constantTimeEqual(expected, given) || matched;
  }
  if (!matched) return refuse('signature_mismatch');

  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - signature.t) > (options.toleranceSeconds ?? 300)) return refuse('timestamp_outside_window');

  let parsed;
  try {
    parsed = parseJsonLossless(typeof options.rawBody === 'string' ? options.rawBody : new TextDecoder().decode(body));
  } catch (error) {
    if (error instanceof JsonParseError) return refuse('malformed_body');
    throw error;
  }
  if (!isJsonObject(parsed)) return refuse('malformed_body');
  return { ok: true, event: webhookEvent(parsed, options.headers, signature.t) };
}

/**
 * The body's bytes. The most common mistake with signed webhooks is verifying a body a framework has
 * already parsed (express.json()): its re-serialised form is not what was signed, so refuse it loudly.
 */
function rawBytes(rawBody: unknown): Uint8Array {
  if (typeof rawBody === 'string') return encoder.encode(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  throw new TypeError(
    'rawBody must be the body exactly as received (a string or bytes), not a parsed object: ' +
      "with Express use express.raw({ type: 'application/json' }) on the webhook route",
  );
}

function webhookEvent(body: JsonObject, headers: HeadersLike, signedAt: number): WebhookEvent {
  // The payout result is the body without the members the webhook adds to it (docs/webhooks.md).
  const { event: _event, sequence: _sequence, ...result } = body;
  const payout = isPayoutResult(result) ? (result as unknown as PayoutResult) : undefined;
  const failed = payout?.status === 'FAILED';
  const downtime =
    typeof body.event === 'string' && body.event.startsWith('downtime.') ? downtimeOf(result) : undefined;
  return {
    type: eventType(body, payout),
    deliveryId: headerValue(headers, 'X-Webhook-Id'),
    attempt: integer(headerValue(headers, 'X-Webhook-Attempt')),
    sequence: integer(body.sequence ?? headerValue(headers, 'X-Webhook-Sequence')),
    signedAt,
    payout,
    reason: failed ? failureReason(payout.message) : undefined,
    downtime,
    body,
  };
}

/** The downtime members of a downtime event's body (docs/webhooks.md, "Downtime webhooks"). */
function downtimeOf(members: JsonObject): Downtime | undefined {
  const { mode, bank, since, status } = members;
  if (typeof bank !== 'string' || typeof since !== 'string') return undefined;
  if ((mode !== 'IMPS' && mode !== 'UPI') || (status !== 'DOWN' && status !== 'DEGRADED')) return undefined;
  return { mode, bank, since, status };
}

/** The body's own `event` member when it names one; else what a payout result says. */
function eventType(body: JsonObject, payout: PayoutResult | undefined): WebhookEventType {
  if (typeof body.event === 'string' && body.event !== '') return body.event;
  if (!payout) return 'unknown';
  if (payout.status === 'SUCCESS') return 'payout.success';
  if (payout.status === 'FAILED') {
    return /reversed/i.test(payout.message) ? 'payout.reversed' : 'payout.failed';
  }
  return `payout.${payout.status.toLowerCase()}`;
}

function parseSignatureHeader(header: string): { t: number; v1: Uint8Array[] } | undefined {
  const parts = header.split(',').map((part) => part.trim());
  const t = parts.find((part) => part.startsWith('t='))?.slice(2);
  const v1 = parts
    .filter((part) => part.startsWith('v1='))
    .map((part) => hexBytes(part.slice(3)))
    .filter((bytes): bytes is Uint8Array => bytes !== undefined);
  if (t === undefined || !/^[0-9]{1,12}$/.test(t) || v1.length === 0) return undefined;
  return { t: Number(t), v1 };
}

async function hmacSha256(secret: string, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, data));
}

/** Equal bytes, in a time that depends on the lengths only. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

function hexBytes(hex: string): Uint8Array | undefined {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}

function headerValue(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value.join(',') : value;
  }
  return undefined;
}

function integer(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && /^[0-9]{1,15}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

function refuse(reason: WebhookRefusal): WebhookVerification {
  return { ok: false, reason, message: REFUSALS[reason] };
}
