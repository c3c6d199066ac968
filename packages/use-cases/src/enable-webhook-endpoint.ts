import type { Queue } from 'bullmq';
import { enableWebhookEndpoint, type PrismaClient } from '@payout/db';
import { queueResumedDeliveries } from '@payout/queue';
import { audit } from './audit.js';

export type EnableWebhookEndpointOutcome =
  | { kind: 'no-endpoint' }
  | { kind: 'not-disabled' }
  | { kind: 'awaiting-secret' }
  | { kind: 'enabled'; disabledAt: Date; disabledReason: string | null; resumed: number; queued: boolean };

/**
 * Enables a merchant's webhook endpoint that was disabled for failing a delivery's whole retry window, and
 * resumes the deliveries kept for it, each with a fresh retry window (docs/webhooks.md). The endpoint, the
 * deliveries and the audit entry change together; the jobs are only a nudge — when Redis is away the
 * worker's webhook sweeper sends them.
 */
export async function enableWebhookEndpointAction(
  deps: { db: PrismaClient; webhookQueue: Queue },
  input: { merchantId: number; actor: string; reason: string },
): Promise<EnableWebhookEndpointOutcome> {
  const result = await deps.db.$transaction(async (tx) => {
    const enabled = await enableWebhookEndpoint(tx, input.merchantId);
    if (enabled.kind === 'enabled') {
      await audit(tx, input, 'webhook.enable', {
        merchantId: input.merchantId,
        detail: {
          disabledAt: enabled.disabledAt.toISOString(),
          disabledReason: enabled.disabledReason,
          resumed: enabled.resumed.length,
        },
      });
    }
    return enabled;
  });
  if (result.kind !== 'enabled') return result;
  const queued = await queueResumedDeliveries(deps.webhookQueue, result.resumed);
  return {
    kind: 'enabled',
    disabledAt: result.disabledAt,
    disabledReason: result.disabledReason,
    resumed: result.resumed.length,
    queued,
  };
}
