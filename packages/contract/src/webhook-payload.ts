import { z } from 'zod';
import type { BankDowntime, PayoutResultSource } from '@payout/domain';
import { downtimeMembers, downtimeSchema, type DowntimeBody } from './downtimes.js';
import { payoutResult, payoutResultSchemas, type PayoutResultBody } from './payout-result.js';

/** The payout's state as a webhook names it: its result, with a reversal told apart from a failure. */
const WEBHOOK_EVENTS = ['payout.success', 'payout.failed', 'payout.reversed', 'payout.pending'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function webhookEvent(p: Pick<PayoutResultSource, 'status' | 'failureReason'>): WebhookEvent {
  if (p.status === 'SUCCESS') return 'payout.success';
  if (p.status === 'PENDING') return 'payout.pending';
  return p.failureReason === 'REVERSED_BY_BENEFICIARY_BANK' ? 'payout.reversed' : 'payout.failed';
}

const webhookMembers = z.object({
  event: z.enum(WEBHOOK_EVENTS),
  sequence: z.number().int().min(1),
});

/** The body of a payout webhook (docs/webhooks.md, "The request"). */
export const webhookPayloadSchema = z
  .intersection(z.union(payoutResultSchemas), webhookMembers)
  .meta({ description: 'The payout result exactly as the API answers it now, then event and sequence.' });

export type WebhookPayload = PayoutResultBody & z.infer<typeof webhookMembers>;

/**
 * The body of a payout webhook (docs/webhooks.md, "The request"): the payout result (docs/api.md, "Payout
 * results") exactly as the API answers it now, then `event`, the payout's current state, and
 * `sequence`, the number given to this delivery when its event was recorded. Both are inside the signed
 * body, so a merchant can trust them to drop a delivery whose sequence is lower than one it has already
 * applied.
 */
export function webhookPayload(p: PayoutResultSource, sequence: number): WebhookPayload {
  return { ...payoutResult(p).body, event: webhookEvent(p), sequence };
}

/** A bank downtime's webhook events (docs/webhooks.md, "Downtime webhooks"). */
export const DOWNTIME_WEBHOOK_EVENTS = ['downtime.started', 'downtime.resolved'] as const;
export type DowntimeWebhookEvent = (typeof DOWNTIME_WEBHOOK_EVENTS)[number];

const downtimeWebhookMembers = z.object({
  event: z.enum(DOWNTIME_WEBHOOK_EVENTS),
  sequence: z.number().int().min(1).meta({
    description:
      'Rises with each downtime event sent to you, whatever the bank and mode: keep the highest applied per bank and mode, and drop one that is not higher.',
  }),
});

/** The body of a downtime webhook (docs/webhooks.md, "Downtime webhooks"). */
export const downtimeWebhookPayloadSchema = downtimeSchema.extend(downtimeWebhookMembers.shape).meta({
  id: 'DowntimeWebhook',
  description:
    'A bank downtime started or resolved: the downtime as GET /api/downtimes shows it, then event and sequence.',
});

export type DowntimeWebhookPayload = DowntimeBody & z.infer<typeof downtimeWebhookMembers>;

/**
 * The body of a downtime webhook: the downtime's members as GET /api/downtimes writes them (CONTRACT.md
 * "Several banks"), then `event` and `sequence`, the number this merchant's downtime events rise by, given
 * when the event was recorded. Signed like a payout webhook.
 */
export function downtimeWebhookPayload(
  downtime: BankDowntime,
  resolved: boolean,
  sequence: number,
): DowntimeWebhookPayload {
  return { ...downtimeMembers(downtime), event: resolved ? 'downtime.resolved' : 'downtime.started', sequence };
}
