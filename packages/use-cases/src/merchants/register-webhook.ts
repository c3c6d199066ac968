import {
  changeWebhookUrl,
  findMerchantByMid,
  registerWebhookEndpoint,
  type PrismaClient,
  type WebhookEndpointView,
} from '@payout/db';
import { newWebhookSecret, webhookSecretDisplayPrefix, type WebhookDestinationPolicy } from '@payout/domain';
import { audit, type Requested } from '../audit.js';
import { webhookDestinationProblem } from './webhook-destination.js';

/** How long a replaced secret keeps signing deliveries (as a second signature) after a new one is made. */
const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type RegisterWebhookOutcome =
  /** `secret` only when a new one was made: it is shown this once. */
  | { kind: 'registered'; endpoint: WebhookEndpointView; secret?: string }
  | { kind: 'no-merchant' }
  /** `keepSecret` for a merchant without an endpoint: there is no secret to keep. */
  | { kind: 'no-endpoint' }
  | { kind: 'refused-url'; why: string };

/**
 * Registers a merchant's webhook URL (docs/webhooks.md) with a new signing secret — the earlier one keeps
 * signing for 24 hours — or, with `keepSecret`, changes only the URL. A URL that could reach our own
 * network is refused. The change and its audit entry are one transaction.
 */
export async function registerWebhookAction(
  deps: { db: PrismaClient; destinations: WebhookDestinationPolicy },
  input: Requested & { mid: string; url: string; keepSecret?: boolean },
): Promise<RegisterWebhookOutcome> {
  const problem = await webhookDestinationProblem(input.url, deps.destinations);
  if (problem) return { kind: 'refused-url', why: problem };
  const merchant = await findMerchantByMid(deps.db, input.mid);
  if (!merchant) return { kind: 'no-merchant' };
  return deps.db.$transaction(async (tx) => {
    if (input.keepSecret) {
      const endpoint = await changeWebhookUrl(tx, merchant.id, input.url);
      if (!endpoint) return { kind: 'no-endpoint' } as const;
      await audit(tx, input, 'webhook.register', {
        merchantId: merchant.id,
        detail: { url: endpoint.url, secretPrefix: endpoint.secretPrefix, newSecret: false },
      });
      return { kind: 'registered', endpoint } as const;
    }
    const secret = newWebhookSecret();
    const endpoint = await registerWebhookEndpoint(
      tx,
      merchant.id,
      { url: input.url, secret, secretPrefix: webhookSecretDisplayPrefix(secret) },
      SECRET_OVERLAP_MS,
    );
    await audit(tx, input, 'webhook.register', {
      merchantId: merchant.id,
      detail: { url: endpoint.url, secretPrefix: endpoint.secretPrefix, newSecret: true },
    });
    return { kind: 'registered', endpoint, secret } as const;
  });
}
