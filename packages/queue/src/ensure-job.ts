import type { Queue } from 'bullmq';
import type { JobRequest } from './job-catalog.js';

/**
 * What {@link ensureJob} did: queued a missing job, retried a failed one, ran a delayed one now, or found it
 * waiting or running.
 */
export type EnsureJobAction = 'added' | 'retried' | 'promoted' | 'present';

/**
 * Makes sure the job `request` (built by `jobRequest`, so its payload matches the catalog) is queued, for a
 * sweeper that found its work overdue in PostgreSQL: adds it when Redis lost it (or never got it), retries
 * it when it ran out of attempts, leaves it alone while it waits or runs. A finished job whose work is still
 * overdue (its database step was rolled back) is removed and added again, since BullMQ would otherwise
 * ignore the add as a duplicate id. With `dueNow`, the work is due now whatever the job's delay said (its
 * check was brought forward): a delayed job runs at once, a missing one is added without its delay.
 */
export async function ensureJob(
  queue: Queue,
  request: JobRequest,
  options: { dueNow?: boolean } = {},
): Promise<EnsureJobAction> {
  assertSameQueue(queue, request);
  const job = await queue.getJob(request.opts.jobId);
  if (job) {
    const state = await job.getState();
    if (state === 'failed') {
      await job.retry();
      return 'retried';
    }
    if (state === 'delayed' && options.dueNow) {
      // It may leave the delayed set between the two calls (its delay ran out): then it is running anyway.
      return job.promote().then(
        () => 'promoted' as const,
        () => 'present' as const,
      );
    }
    if (state !== 'completed' && state !== 'unknown') return 'present';
    await job.remove();
  }
  await queue.add(request.name, request.data, options.dueNow ? { ...request.opts, delay: 0 } : request.opts);
  return 'added';
}

/** Queues the job `request` (with an optional delay); rejects when Redis does not take it. */
export async function addJob(queue: Queue, request: JobRequest): Promise<void> {
  assertSameQueue(queue, request);
  await queue.add(request.name, request.data, request.opts);
}

/** A job added to a queue whose worker does not know it would wait there for ever: refuse it loudly. */
function assertSameQueue(queue: Queue, request: JobRequest): void {
  if (queue.name !== request.queue)
    throw new Error(`job ${request.name} belongs on ${request.queue}, not ${queue.name}`);
}
