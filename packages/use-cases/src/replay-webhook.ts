import type { Queue } from 'bullmq';
import { findPayoutSubject, recordWebhookReplay, type PrismaClient } from '@payout/db';
import { queueFirstAttempt } from '@payout/queue';
import type { PayoutKey } from './payout-key.js';
import { audit } from './audit.js';

export type ReplayWebhookOutcome =
  | { kind: 'queued'; ackNo: string; deliveryId: bigint; payoutStatus: string; queued: boolean }
  | { kind: 'no-payout' }
  | { kind: 'not-settled'; ackNo: string }
  | { kind: 'no-endpoint'; ackNo: string };

/**
 * Sends a settled payout's result to the merchant's webhook again, as a fresh delivery with its own retry
 * window (docs/webhooks.md). The delivery and its audit entry are written together; the job is only a
 * nudge — when Redis is away the worker's webhook sweeper sends it.
 */
export async function replayWebhook(
  deps: { db: PrismaClient; webhookQueue: Queue },
  input: {
    payout: PayoutKey;
    actor: string;
    reason: string;
    /** Who the delivery says asked for it: the operator by default; a merchant's person on its dashboard. */
    requestedBy?: string;
  },
): Promise<ReplayWebhookOutcome> {
  const payout = await findPayoutSubject(deps.db, input.payout);
  if (!payout) return { kind: 'no-payout' };
  const replay = await deps.db.$transaction(async (tx) => {
    const result = await recordWebhookReplay(
      tx,
      payout.merchantId,
      payout.transactionId,
      input.requestedBy ?? `operator:${input.actor}`,
    );
    if (result.kind === 'queued') {
      await audit(tx, { actor: input.actor, reason: input.reason }, 'webhook.replay', {
        merchantId: payout.merchantId,
        payoutId: payout.id,
        detail: { deliveryId: result.deliveryId, payoutStatus: result.payoutStatus },
      });
    }
    return result;
  });
  switch (replay.kind) {
    case 'no-payout':
      return { kind: 'no-payout' };
    case 'not-settled':
      return { kind: 'not-settled', ackNo: payout.ackNo };
    case 'no-endpoint':
      return { kind: 'no-endpoint', ackNo: payout.ackNo };
    case 'queued':
      return {
        kind: 'queued',
        ackNo: payout.ackNo,
        deliveryId: replay.deliveryId,
        payoutStatus: replay.payoutStatus,
        queued: await queueFirstAttempt(deps.webhookQueue, replay.deliveryId),
      };
  }
}
