import {
  enableWebhookEndpoint,
  findMerchantByMid,
  rotateWebhookSecret,
  setWebhookUrl,
  type PrismaClient,
  type WebhookEndpointView,
} from '@payout/db';
import { newWebhookSecret, webhookSecretDisplayPrefix, type WebhookDestinationPolicy } from '@payout/domain';
import { audit, type Requested } from './audit.js';
import type { TokenHolder } from './merchant-own-tokens.js';
import { webhookDestinationProblem } from './merchants/webhook-destination.js';

// A merchant's webhook (docs/webhooks.md, "Registering an endpoint" and "The signing secret"): staff point
// it at a URL; the signing secret is made for the merchant alone, through its own API, so nobody at the
// gateway can sign a notification the merchant would believe.

/** How long a replaced secret keeps signing deliveries (as a second signature) after the merchant rotates. */
const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type SetWebhookUrlOutcome =
  /** `awaitingSecret` while the merchant has not fetched a signing secret: its deliveries are held. */
  | { kind: 'registered'; endpoint: WebhookEndpointView; awaitingSecret: boolean }
  | { kind: 'no-merchant' }
  | { kind: 'refused-url'; why: string };

/**
 * Points a merchant's webhooks at a URL: the one thing about its webhook a person at the gateway does. The
 * signing secret is never theirs to see or change: a moved endpoint keeps the merchant's secret, and a new
 * one has none until the merchant fetches one, holding its deliveries meanwhile (nothing is lost). A URL that
 * could reach our own network is refused. The change and its audit entry are one transaction.
 */
export async function setWebhookUrlAction(
  deps: { db: PrismaClient; destinations: WebhookDestinationPolicy },
  input: Requested & { mid: string; url: string },
): Promise<SetWebhookUrlOutcome> {
  const problem = await webhookDestinationProblem(input.url, deps.destinations);
  if (problem) return { kind: 'refused-url', why: problem };
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  return deps.db.$transaction(async (tx) => {
    const { endpoint, created } = await setWebhookUrl(tx, merchant.id, input.url);
    const awaitingSecret = endpoint.secretPrefix === null;
    await audit(tx, input, 'webhook.register', {
      merchantId: merchant.id,
      detail: { url: endpoint.url, secretPrefix: endpoint.secretPrefix, created, awaitingSecret },
    });
    return { kind: 'registered', endpoint, awaitingSecret } as const;
  });
}

export type RotateOwnWebhookSecretOutcome =
  | {
      kind: 'rotated';
      secret: string;
      prefix: string;
      /** Until when the replaced secret still signs too; null for the endpoint's first secret. */
      previousValidUntil: Date | null;
      /** Deliveries held for the first secret, now pending again (the worker's webhook sweeper sends them). */
      resumed: number;
    }
  /** Nobody has registered the merchant's webhook URL yet. */
  | { kind: 'no-endpoint' };

/**
 * A new signing secret for the merchant's endpoint, answered to the merchant that asked, authenticated by a
 * token it holds, and to nobody else (only its first characters reach the audit log). A secret it replaces
 * keeps signing for 24 hours beside it. The endpoint's first secret also releases the deliveries held for
 * it: pending again with a fresh retry window, in the same transaction.
 */
export async function rotateOwnWebhookSecret(
  deps: { db: PrismaClient },
  holder: TokenHolder,
): Promise<RotateOwnWebhookSecretOutcome> {
  const secret = newWebhookSecret();
  const secretPrefix = webhookSecretDisplayPrefix(secret);
  return deps.db.$transaction(async (tx) => {
    const rotated = await rotateWebhookSecret(tx, holder.merchantId, { secret, secretPrefix }, SECRET_OVERLAP_MS);
    if (!rotated) return { kind: 'no-endpoint' } as const;
    const enabled = rotated.first ? await enableWebhookEndpoint(tx, holder.merchantId) : undefined;
    const resumed = enabled?.kind === 'enabled' ? enabled.resumed.length : 0;
    await audit(
      tx,
      { actor: `merchant:${holder.mid}`, reason: 'signing secret fetched through the merchant API' },
      'webhook.register',
      {
        merchantId: holder.merchantId,
        detail: { url: rotated.endpoint.url, secretPrefix, newSecret: true, first: rotated.first, resumed },
      },
    );
    return {
      kind: 'rotated',
      secret,
      prefix: secretPrefix,
      previousValidUntil: rotated.endpoint.previousSecretValidUntil,
      resumed,
    } as const;
  });
}
