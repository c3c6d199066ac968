import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// HMAC-SHA256 signatures of the two callbacks the service takes part in: the collection provider's pay-in
// callbacks to us, and our payout webhooks to merchants. docs/webhooks.md is the public description.

/**
 * The header of a pay-in callback: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, the
 * same scheme as our payout webhooks. Signing the timestamp with the body lets the service refuse a
 * recorded callback replayed later (docs/webhooks.md).
 */
export const PAYIN_SIGNATURE_HEADER = 'X-Payin-Signature';

/** The header of a payout webhook: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

/** How far a pay-in callback's timestamp may be from the service's clock, either way. */
const PAYIN_SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

const PAYIN_SIGNATURE_PATTERN = /^t=(\d{1,12}),v1=([0-9a-fA-F]{64})$/;

function hmacSha256(secret: string, data: string | Uint8Array): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

function timestamped(timestampSeconds: number | string, body: string | Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${timestampSeconds}.`), Buffer.from(body)]);
}

/** The pay-in signature header value for a raw body sent at `timestampSeconds`, as the provider computes it. */
export function payinSignature(secret: string, timestampSeconds: number, rawBody: string | Uint8Array): string {
  return `t=${timestampSeconds},v1=${hmacSha256(secret, timestamped(timestampSeconds, rawBody)).toString('hex')}`;
}

/** What checking a pay-in signature found: signed by the provider, not (or not these bytes), or too old/new. */
type PayinSignatureCheck = 'valid' | 'invalid' | 'outside-window';

/**
 * Checks `header` against exactly these bytes and the clock. The digests are compared in constant time, so
 * the time taken says nothing about how much of a forged signature was right; the timestamp is judged only
 * once the signature is proved, so an unsigned request learns nothing about the window.
 */
export function checkPayinSignature(
  secret: string,
  rawBody: Uint8Array,
  header: string | undefined,
  nowSeconds: number,
): PayinSignatureCheck {
  const match = PAYIN_SIGNATURE_PATTERN.exec(header?.trim() ?? '');
  if (!match) return 'invalid';
  const [, timestamp, hex] = match as unknown as [string, string, string];
  const presented = Buffer.from(hex, 'hex');
  if (!timingSafeEqual(presented, hmacSha256(secret, timestamped(timestamp, rawBody)))) return 'invalid';
  return Math.abs(nowSeconds - Number(timestamp)) <= PAYIN_SIGNATURE_TOLERANCE_SECONDS ? 'valid' : 'outside-window';
}

/**
 * The webhook signature header value: the timestamp, and one `v1` per secret (two while a rotated secret
 * is still honoured, so a merchant can switch secrets without missing a delivery). Signing the timestamp
 * with the body lets the merchant refuse an old delivery replayed by someone who recorded it.
 */
export function webhookSignature(secrets: readonly string[], timestampSeconds: number, body: string): string {
  const signed = `${timestampSeconds}.${body}`;
  return [`t=${timestampSeconds}`, ...secrets.map((s) => `v1=${hmacSha256(s, signed).toString('hex')}`)].join(',');
}

const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new webhook signing secret: 32 random bytes, base64url, with a recognisable prefix. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/** The leading characters operators see to tell secrets apart ("whsec_Ab12Cd"). */
export function webhookSecretDisplayPrefix(secret: string): string {
  return secret.slice(0, WEBHOOK_SECRET_PREFIX.length + 6);
}
