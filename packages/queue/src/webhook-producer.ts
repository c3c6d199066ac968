import type { Queue } from 'bullmq';
import { addJob, ensureJob } from './ensure-job.js';
import { jobRequest, webhookJobs } from './job-catalog.js';

// Queueing a webhook delivery from a person's action (docs/webhooks.md). The delivery row is already in
// PostgreSQL when these run: the job is only a nudge, so each answers false rather than throwing when Redis
// is away, and the worker's webhook sweeper sends the delivery later.

/** Queues a delivery's first attempt; false when Redis is away (the delivery is safe in PostgreSQL). */
export async function queueFirstAttempt(queue: Queue, deliveryId: bigint): Promise<boolean> {
  try {
    await addJob(queue, jobRequest(webhookJobs.deliver, { deliveryId: deliveryId.toString(), attempt: 1 }));
    return true;
  } catch {
    return false;
  }
}

/**
 * Queues the next attempt of each delivery resumed after its endpoint was enabled again; false when Redis
 * did not take one of them.
 */
export async function queueResumedDeliveries(
  queue: Queue,
  deliveries: readonly { id: bigint; attempts: number }[],
): Promise<boolean> {
  let queued = true;
  for (const delivery of deliveries) {
    const request = jobRequest(webhookJobs.deliver, {
      deliveryId: delivery.id.toString(),
      attempt: delivery.attempts + 1,
    });
    try {
      // A job of this attempt may have run already (it found the endpoint disabled): ensureJob replaces it.
      await ensureJob(queue, request);
    } catch {
      queued = false;
    }
  }
  return queued;
}
