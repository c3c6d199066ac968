import { z } from 'zod';
import type { PayoutResultSource } from '@payout/domain';
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
