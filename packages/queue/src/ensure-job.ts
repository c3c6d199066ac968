import type { JobsOptions, Queue } from 'bullmq';

/** What {@link ensureJob} did: queued a missing job, retried a failed one, or found it waiting or running. */
export type EnsureJobAction = 'added' | 'retried' | 'present';

/**
 * Makes sure the job `jobId` is queued, for a sweeper that found its work overdue in PostgreSQL: adds it
 * when Redis lost it (or never got it), retries it when it ran out of attempts, leaves it alone while it
 * waits or runs. A finished job whose work is still overdue (its database step was rolled back) is removed
 * and added again, since BullMQ would otherwise ignore the add as a duplicate id.
 */
export async function ensureJob(
  queue: Queue,
  name: string,
  jobId: string,
  data: Record<string, unknown>,
  options: JobsOptions,
): Promise<EnsureJobAction> {
  const job = await queue.getJob(jobId);
  if (job) {
    const state = await job.getState();
    if (state === 'failed') {
      await job.retry();
      return 'retried';
    }
    if (state !== 'completed' && state !== 'unknown') return 'present';
    await job.remove();
  }
  await queue.add(name, data, { ...options, jobId });
  return 'added';
}
