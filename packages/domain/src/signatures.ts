import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// HMAC-SHA256 signatures of the two callbacks the service takes part in: the collection provider's pay-in
// callbacks to us, and our payout webhooks to merchants. docs/webhooks.md is the public description.

/** The header of a pay-in callback: `sha256=<hex HMAC-SHA256(secret, raw body)>`. */
export const PAYIN_SIGNATURE_HEADER = 'X-Payin-Signature';

/** The header of a payout webhook: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

const PAYIN_SIGNATURE_PATTERN = /^sha256=([0-9a-fA-F]{64})$/;

function hmacSha256(secret: string, data: string | Uint8Array): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

/** The pay-in signature header value for a raw body, as the collection provider computes it. */
export function payinSignature(secret: string, rawBody: string | Uint8Array): string {
  return `sha256=${hmacSha256(secret, rawBody).toString('hex')}`;
}

/**
 * Whether `header` is the pay-in signature of exactly these bytes. The digests are compared in constant
 * time, so the time taken says nothing about how much of a forged signature was right.
 */
export function isValidPayinSignature(secret: string, rawBody: Uint8Array, header: string | undefined): boolean {
  const match = PAYIN_SIGNATURE_PATTERN.exec(header?.trim() ?? '');
  if (!match) return false;
  const presented = Buffer.from(match[1]!, 'hex');
  return timingSafeEqual(presented, hmacSha256(secret, rawBody));
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
