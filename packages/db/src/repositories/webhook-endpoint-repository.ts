import type { PrismaClientOrTransaction } from '../client.js';
import type { Prisma } from '../generated/prisma/client.js';

/** A merchant's webhook endpoint as operators may see it: never the secret, only its first characters. */
export interface WebhookEndpointView {
  merchantId: number;
  url: string;
  /** Null until the merchant fetches its first signing secret; meanwhile deliveries are held. */
  secretPrefix: string | null;
  /** Until when deliveries are also signed with the secret this one replaced; null when there is none. */
  previousSecretValidUntil: Date | null;
  /**
   * Set while the endpoint is disabled: for failing a whole retry window, or while it waits for the merchant
   * to fetch its signing secret (docs/webhooks.md).
   */
  disabledAt: Date | null;
  updatedAt: Date;
}

/** Why a new endpoint holds its deliveries: only the merchant can give it a secret to sign with. */
export const AWAITING_SIGNING_SECRET =
  'waiting for the merchant to fetch its signing secret (POST /api/webhook/secret); deliveries are held until then';

interface EndpointRow {
  merchant_id: number;
  url: string;
  secret_prefix: string | null;
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
 * Points a merchant's webhooks at `url`. An endpoint that exists keeps its signing secret (the merchant's,
 * which no operator sees) and whether it is disabled. A new endpoint has no secret: it is made disabled,
 * so its deliveries are recorded and held, never sent unsigned nor given up, until the merchant fetches its
 * secret ({@link rotateWebhookSecret}). `created` says which happened.
 */
export async function setWebhookUrl(
  db: PrismaClientOrTransaction,
  merchantId: number,
  url: string,
): Promise<{ endpoint: WebhookEndpointView; created: boolean }> {
  const [row] = await db.$queryRaw<(EndpointRow & { created: boolean })[]>`
    INSERT INTO webhook_endpoints (merchant_id, url, signing_secret, secret_prefix, disabled_at, disabled_reason)
    VALUES (${merchantId}, ${url}, NULL, NULL, now(), ${AWAITING_SIGNING_SECRET})
    ON CONFLICT (merchant_id) DO UPDATE SET url = EXCLUDED.url, updated_at = now()
    RETURNING merchant_id, url, secret_prefix,
              CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END
                AS previous_secret_expires_at,
              disabled_at, updated_at, (xmax = 0) AS created`;
  if (!row) throw new Error('webhook endpoint upsert returned no row');
  return { endpoint: toView(row), created: row.created };
}

/**
 * Gives the merchant's endpoint a new signing secret, under a lock on its row. A secret it replaces keeps
 * signing deliveries (as a second signature) for `overlapMs`, so the merchant can deploy the new one without
 * refusing a delivery; the first secret replaces nothing. Null when the merchant has no endpoint.
 * `first` is true when the endpoint had no secret before: it is still disabled, waiting for this one.
 */
export async function rotateWebhookSecret(
  tx: Prisma.TransactionClient,
  merchantId: number,
  secret: { secret: string; secretPrefix: string },
  overlapMs: number,
): Promise<{ endpoint: WebhookEndpointView; first: boolean } | null> {
  const [before] = await tx.$queryRaw<{ signed: boolean }[]>`
    SELECT signing_secret IS NOT NULL AS signed FROM webhook_endpoints WHERE merchant_id = ${merchantId} FOR UPDATE`;
  if (!before) return null;
  // The right-hand sides read the row as it was: the replaced secret becomes the previous one.
  const [row] = await tx.$queryRaw<EndpointRow[]>`
    UPDATE webhook_endpoints
       SET signing_secret = ${secret.secret},
           secret_prefix = ${secret.secretPrefix},
           previous_secret = signing_secret,
           previous_secret_expires_at = CASE WHEN signing_secret IS NOT NULL
                                             THEN now() + make_interval(secs => ${overlapMs / 1000}) END,
           updated_at = now()
     WHERE merchant_id = ${merchantId}
    RETURNING merchant_id, url, secret_prefix, previous_secret_expires_at, disabled_at, updated_at`;
  if (!row) throw new Error('webhook endpoint vanished under its lock');
  return { endpoint: toView(row), first: !before.signed };
}

/**
 * Registers a merchant's webhook endpoint with a signing secret the caller made, or replaces both; the
 * replaced secret keeps signing for `overlapMs`. For a merchant's own development set-up and the tests,
 * where the secret's maker is its holder; a person at the gateway uses {@link setWebhookUrl}.
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
          previous_secret_expires_at = CASE WHEN webhook_endpoints.signing_secret IS NOT NULL
                                            THEN now() + make_interval(secs => ${overlapMs / 1000}) END,
          updated_at = now()
    RETURNING merchant_id, url, secret_prefix, previous_secret_expires_at, disabled_at, updated_at`;
  if (!row) throw new Error('webhook endpoint upsert returned no row');
  return toView(row);
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
