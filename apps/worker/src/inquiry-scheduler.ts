import type { Queue } from 'bullmq';
import { addJob, jobRequest, payoutJobs } from '@payout/queue';

/** Queues the inquiry jobs of a payout, one per attempt (the job id carries the attempt number). */
export interface InquiryScheduler {
  /** Resolves false when Redis did not take it; the payout's next_check_at lets the sweeper catch up. */
  scheduleInquiry(payoutId: bigint, attempt: number, delayMs: number): Promise<boolean>;
}

export function queueInquiryScheduler(queue: Queue, onError: (error: Error) => void): InquiryScheduler {
  return {
    async scheduleInquiry(payoutId, attempt, delayMs) {
      try {
        await addJob(
          queue,
          jobRequest(payoutJobs.inquire, { payoutId: payoutId.toString(), attempt }, { delay: delayMs }),
        );
        return true;
      } catch (error) {
        onError(error as Error);
        return false;
      }
    },
  };
}
