import type { Queue } from 'bullmq';
import { payoutJobs } from '@payout/queue';

/** Queues the inquiry jobs of a payout, one per attempt (the job id carries the attempt number). */
export interface InquiryScheduler {
  /** Resolves false when Redis did not take it; the payout's next_check_at lets the sweeper catch up. */
  scheduleInquiry(payoutId: bigint, attempt: number, delayMs: number): Promise<boolean>;
}

export function queueInquiryScheduler(queue: Queue, onError: (error: Error) => void): InquiryScheduler {
  return {
    async scheduleInquiry(payoutId, attempt, delayMs) {
      const id = payoutId.toString();
      try {
        await queue.add(
          payoutJobs.inquire.name,
          { payoutId: id, attempt },
          { ...payoutJobs.inquire.options, jobId: payoutJobs.inquire.jobId(id, attempt), delay: delayMs },
        );
        return true;
      } catch (error) {
        onError(error as Error);
        return false;
      }
    },
  };
}
