import type { Queue } from 'bullmq';
import { jobRequest, webhookJobs } from '@payout/queue';
import { jobAdderOrReport } from '../jobs/add-job-or-report.js';

/** Queues the attempts of webhook deliveries, one job per attempt (the job id carries the attempt number). */
export interface WebhookAttemptScheduler {
  /** Resolves false when Redis did not take it; the delivery's due time lets the sweeper catch up. */
  scheduleAttempt(deliveryId: bigint, attempt: number, delayMs: number): Promise<boolean>;
}

export function queueWebhookAttemptScheduler(queue: Queue, onError: (error: Error) => void): WebhookAttemptScheduler {
  const add = jobAdderOrReport(queue, onError);
  return {
    scheduleAttempt: (deliveryId, attempt, delayMs) =>
      add(jobRequest(webhookJobs.deliver, { deliveryId: deliveryId.toString(), attempt }, { delay: delayMs })),
  };
}
