import type { Queue } from 'bullmq';
import { jobRequest, payoutJobs } from '@payout/queue';
import { jobAdderOrReport } from './jobs/add-job-or-report.js';

/** Queues the inquiry jobs of a payout, one per attempt (the job id carries the attempt number). */
export interface InquiryScheduler {
  /** Resolves false when Redis did not take it; the payout's next_check_at lets the sweeper catch up. */
  scheduleInquiry(payoutId: bigint, attempt: number, delayMs: number): Promise<boolean>;
}

export function queueInquiryScheduler(queue: Queue, onError: (error: Error) => void): InquiryScheduler {
  const add = jobAdderOrReport(queue, onError);
  return {
    scheduleInquiry: (payoutId, attempt, delayMs) =>
      add(jobRequest(payoutJobs.inquire, { payoutId: payoutId.toString(), attempt }, { delay: delayMs })),
  };
}
