import type { Queue } from 'bullmq';
import { addJob, jobRequest, webhookJobs } from '@payout/queue';

/** Queues the attempts of webhook deliveries, one job per attempt (the job id carries the attempt number). */
export interface WebhookAttemptScheduler {
  /** Resolves false when Redis did not take it; the delivery's due time lets the sweeper catch up. */
  scheduleAttempt(deliveryId: bigint, attempt: number, delayMs: number): Promise<boolean>;
}

export function queueWebhookAttemptScheduler(queue: Queue, onError: (error: Error) => void): WebhookAttemptScheduler {
  return {
    async scheduleAttempt(deliveryId, attempt, delayMs) {
      try {
        await addJob(
          queue,
          jobRequest(webhookJobs.deliver, { deliveryId: deliveryId.toString(), attempt }, { delay: delayMs }),
        );
        return true;
      } catch (error) {
        onError(error as Error);
        return false;
      }
    },
  };
}
