import type { Queue } from 'bullmq';
import { payoutJobs } from './job-catalog.js';

/** A payout's job as the queue holds it, for support. */
export interface PayoutJobView {
  id: string;
  name: string;
  state: string;
  attemptsMade: number;
  failedReason: string | null;
  returnValue: unknown;
  processedAt: Date | null;
  finishedAt: Date | null;
  /** When a delayed job is due. */
  dueAt: Date | null;
}

/**
 * The jobs of one payout: its execute job and each inquiry job up to the next one due. Jobs already
 * removed from Redis (completed long ago) are simply absent.
 */
export async function findPayoutJobs(
  queue: Queue,
  payoutId: bigint,
  inquiryAttempts: number,
): Promise<PayoutJobView[]> {
  const id = payoutId.toString();
  const ids = [payoutJobs.execute.jobId(id)];
  for (let attempt = 1; attempt <= inquiryAttempts + 1; attempt++) ids.push(payoutJobs.inquire.jobId(id, attempt));
  const views: PayoutJobView[] = [];
  for (const jobId of ids) {
    const job = await queue.getJob(jobId);
    if (!job) continue;
    views.push({
      id: jobId,
      name: job.name,
      state: await job.getState(),
      attemptsMade: job.attemptsMade,
      failedReason: job.failedReason || null,
      returnValue: job.returnvalue ?? null,
      processedAt: job.processedOn ? new Date(job.processedOn) : null,
      finishedAt: job.finishedOn ? new Date(job.finishedOn) : null,
      dueAt: job.delay ? new Date(job.timestamp + job.delay) : null,
    });
  }
  return views;
}
