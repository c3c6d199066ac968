import type { Queue } from 'bullmq';
import { addJob, type JobRequest } from '@payout/queue';

/**
 * Adds a job the worker schedules for later (an inquiry, a webhook attempt), resolving false — after
 * reporting it — when Redis does not take it. Never fatal: PostgreSQL holds when the step is due, so the
 * sweeper queues it once Redis is back.
 */
export function jobAdderOrReport(
  queue: Queue,
  onError: (error: Error) => void,
): (request: JobRequest) => Promise<boolean> {
  return async (request) => {
    try {
      await addJob(queue, request);
      return true;
    } catch (error) {
      onError(error as Error);
      return false;
    }
  };
}
