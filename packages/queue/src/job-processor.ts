import { UnrecoverableError, type Job } from 'bullmq';
import type { JobData, JobSpec } from './job-catalog.js';

/** One handler per entry of a queue's catalog: leaving one out is a compile error. */
export type JobHandlers<Catalog extends Record<string, JobSpec>, Result> = {
  readonly [K in keyof Catalog]: (data: JobData<Catalog[K]>, job: Job, token?: string) => Promise<Result>;
};

/**
 * Routes each job of a queue to its handler by name, with the payload checked against the catalog. A job
 * of no known name, or a payload that does not match, can never succeed: it fails at once instead of
 * retrying.
 */
export function jobProcessor<Catalog extends Record<string, JobSpec>, Result>(
  catalog: Catalog,
  handlers: JobHandlers<Catalog, Result>,
): (job: Job, token?: string) => Promise<Result> {
  const byName = new Map(Object.keys(catalog).map((key) => [catalog[key]!.name, key as keyof Catalog]));
  return async (job, token) => {
    const key = byName.get(job.name);
    if (key === undefined) throw new UnrecoverableError(`unknown job ${job.name}`);
    const data = catalog[key]!.data.safeParse(job.data);
    if (!data.success) throw new UnrecoverableError(`bad ${job.name} payload`);
    return handlers[key](data.data as JobData<Catalog[typeof key]>, job, token);
  };
}
