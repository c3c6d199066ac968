import { payoutResult, type PayoutResultSource } from './payout-result.js';

/** The payout's state as a webhook names it: its result, with a reversal told apart from a failure. */
export type WebhookEvent = 'payout.success' | 'payout.failed' | 'payout.reversed' | 'payout.pending';

export function webhookEvent(p: Pick<PayoutResultSource, 'status' | 'failureReason'>): WebhookEvent {
  if (p.status === 'SUCCESS') return 'payout.success';
  if (p.status === 'PENDING') return 'payout.pending';
  return p.failureReason === 'REVERSED_BY_BENEFICIARY_BANK' ? 'payout.reversed' : 'payout.failed';
}

/**
 * The body of a payout webhook (docs/webhooks.md, "The request"): the payout result of spec 2.6 exactly as
 * the API answers it now, then `event`, the payout's current state, and `sequence`, the number given to
 * this delivery when its event was recorded. Both are inside the signed body, so a merchant can trust them
 * to drop a delivery whose sequence is lower than one it has already applied.
 */
export function webhookPayload(p: PayoutResultSource, sequence: number): Record<string, unknown> {
  return { ...payoutResult(p).body, event: webhookEvent(p), sequence };
}
