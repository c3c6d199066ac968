import { findDueWebhookDeliveries, releaseHeldWebhookDeliveries, type DueWebhookDelivery } from '@payout/db';
import { jobRequest, webhookJobs } from '@payout/queue';
import type { SweepPlan } from '../sweeper.js';

/**
 * The webhooks queue's plan for the one sweeper (apps/worker/src/sweeper.ts): every pending delivery has the
 * job of its next attempt — the first attempt of an outbox row written by a settlement (the worker queues it
 * straight away, `pnpm cli payout resolve` leaves it to this), and any attempt whose job was lost with Redis
 * or whose worker died mid-attempt. The attempt claim makes a duplicate job send nothing.
 */
export const webhookSweepPlan: SweepPlan<DueWebhookDelivery> = {
  // Any 64-bit number unique to this plan (the payouts plan has its own): one webhook sweep at a time.
  lockKey: 7_358_201_447n,
  // Normally `webhook enable` releases and queues them itself; this catches a delivery that a claim held
  // while the endpoint was being enabled.
  release: releaseHeldWebhookDeliveries,
  findOverdue: findDueWebhookDeliveries,
  jobOf: (delivery) =>
    jobRequest(webhookJobs.deliver, { deliveryId: delivery.id.toString(), attempt: delivery.attempts + 1 }),
  message: 'webhook sweeper queued due deliveries',
  logLevel: 'info',
};
