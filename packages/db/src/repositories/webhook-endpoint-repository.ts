import type { PrismaClientOrTransaction } from '../client.js';

/** A merchant's webhook endpoint as operators may see it: never the secret, only its first characters. */
export interface WebhookEndpointView {
  merchantId: number;
  url: string;
  secretPrefix: string;
  /** Until when deliveries are also signed with the secret this one replaced; null when there is none. */
  previousSecretValidUntil: Date | null;
  /** Set while the endpoint is disabled for failing a whole retry window (docs/webhooks.md). */
  disabledAt: Date | null;
  updatedAt: Date;
}

interface EndpointRow {
  merchant_id: number;
  url: string;
  secret_prefix: string;
  previous_secret_expires_at: Date | null;
  disabled_at: Date | null;
  updated_at: Date;
}

const toView = (r: EndpointRow): WebhookEndpointView => ({
  merchantId: r.merchant_id,
  url: r.url,
  secretPrefix: r.secret_prefix,
  previousSecretValidUntil: r.previous_secret_expires_at,
  disabledAt: r.disabled_at,
  updatedAt: r.updated_at,
});

/**
 * Registers a merchant's webhook endpoint with a new signing secret, or replaces both. A replaced secret
 * keeps signing deliveries (as a second signature) for `overlapMs`, so the merchant can deploy the new one
 * without missing a delivery.
 */
export async function registerWebhookEndpoint(
  db: PrismaClientOrTransaction,
  merchantId: number,
  endpoint: { url: string; secret: string; secretPrefix: string },
  overlapMs: number,
): Promise<WebhookEndpointView> {
  const [row] = await db.$queryRaw<EndpointRow[]>`
    INSERT INTO webhook_endpoints (merchant_id, url, signing_secret, secret_prefix)
    VALUES (${merchantId}, ${endpoint.url}, ${endpoint.secret}, ${endpoint.secretPrefix})
    ON CONFLICT (merchant_id) DO UPDATE
      SET url = EXCLUDED.url,
          signing_secret = EXCLUDED.signing_secret,
          secret_prefix = EXCLUDED.secret_prefix,
          previous_secret = webhook_endpoints.signing_secret,
          previous_secret_expires_at = now() + make_interval(secs => ${overlapMs / 1000}),
          updated_at = now()
    RETURNING merchant_id, url, secret_prefix, previous_secret_expires_at, disabled_at, updated_at`;
  if (!row) throw new Error('webhook endpoint upsert returned no row');
  return toView(row);
}

/** Points a merchant's endpoint at another URL, keeping its secret; null when it has no endpoint. */
export async function changeWebhookUrl(
  db: PrismaClientOrTransaction,
  merchantId: number,
  url: string,
): Promise<WebhookEndpointView | null> {
  const [row] = await db.$queryRaw<EndpointRow[]>`
    UPDATE webhook_endpoints SET url = ${url}, updated_at = now() WHERE merchant_id = ${merchantId}
    RETURNING merchant_id, url, secret_prefix, previous_secret_expires_at, disabled_at, updated_at`;
  return row ? toView(row) : null;
}

export async function findWebhookEndpoint(
  db: PrismaClientOrTransaction,
  merchantId: number,
): Promise<WebhookEndpointView | null> {
  const [row] = await db.$queryRaw<EndpointRow[]>`
    SELECT merchant_id, url, secret_prefix,
           CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at,
           disabled_at, updated_at
      FROM webhook_endpoints WHERE merchant_id = ${merchantId}`;
  return row ? toView(row) : null;
}
