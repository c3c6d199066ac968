import type { JobsOptions } from 'bullmq';
import { z } from 'zod';

/**
 * The job catalog shared by producer (api, sweeper, operator actions) and consumer (worker): every job's
 * queue, name, payload schema, id and retry policy in one place. Payloads carry ids only — never account
 * numbers, amounts or secrets; the worker reads everything else from PostgreSQL.
 *
 * Jobs are built only through {@link jobRequest} (and queued through `ensureJob`, `addJob` or the payout
 * producer), which take a catalog entry and its payload type: a payload of the wrong shape is a compile
 * error. A worker routes its queue's jobs through `jobProcessor`, which wants one handler per entry of the
 * queue's catalog: a job without a handler is a compile error too.
 */
export const PAYOUT_QUEUE = 'payouts';

/**
 * One kind of job. `jobId` is positional (`jobId(payoutId)`, `jobId(payoutId, attempt)`) for callers that
 * look a job up by its id; `idOf` gives the same id from a payload.
 */
export interface JobSpec<Data extends object = object> {
  /** The queue the job runs on: a worker of another queue would never see it. */
  readonly queue: string;
  readonly name: string;
  readonly data: z.ZodType<Data>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry's own id arguments
  readonly jobId: (...args: any[]) => string;
  // A method, so an entry of a narrower payload still counts as a JobSpec (method parameters are bivariant).
  idOf(data: Data): string;
  readonly options: JobsOptions;
}

/** The payload type of a catalog entry. */
export type JobData<S extends JobSpec> = S extends JobSpec<infer Data> ? Data : never;

/** A job ready for `queue.add` / `queue.addBulk`: built only by {@link jobRequest}, so its payload is checked. */
export interface JobRequest {
  readonly queue: string;
  readonly name: string;
  readonly data: object;
  readonly opts: JobsOptions & { jobId: string };
}

/** The job of `spec` carrying `data`, with the entry's id and retry policy (plus `extra`, e.g. a delay). */
export function jobRequest<S extends JobSpec>(spec: S, data: NoInfer<JobData<S>>, extra: JobsOptions = {}): JobRequest {
  return { queue: spec.queue, name: spec.name, data, opts: { ...spec.options, ...extra, jobId: spec.idOf(data) } };
}

/** Builds a catalog entry; `idArgs` maps a payload to `jobId`'s arguments so the two never disagree. */
function defineJob<Data extends object, Args extends unknown[]>(spec: {
  queue: string;
  name: string;
  data: z.ZodType<Data>;
  jobId: (...args: Args) => string;
  idArgs: (data: Data) => Readonly<Args>;
  options: JobsOptions;
}): JobSpec<Data> & { readonly jobId: (...args: Args) => string } {
  const { idArgs, ...rest } = spec;
  return { ...rest, idOf: (data: Data) => spec.jobId(...idArgs(data)) };
}

const rowId = (what: string) => z.string().regex(/^[1-9][0-9]{0,18}$/, what);
const payoutId = rowId('a payout id');
const attempt = z.number().int().min(1);

// Transient failures (database or Redis briefly away) retry with exponential backoff and jitter;
// a job that runs out of attempts stays in the failed set and the sweeper re-queues its payout.
//
// A finished job is removed at once. Job ids are made of database row ids (`execute-1`), and BullMQ
// silently ignores an add whose id it still holds: a finished job kept for a day swallowed the job of the
// next payout to get that id — the first payouts of a database created afresh while Redis lived on, which
// then waited for the sweeper (docs/bank-boundary.md, "The first payout after a start"). PostgreSQL, not
// Redis, keeps a payout's history; a failed job is kept for a week as evidence, and the sweeper retries it if
// a payout reusing its id needs it (payloads carry ids only, so the old job does exactly what a new one
// would).
const retryPolicy: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1_000, jitter: 0.5 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 60 * 60 },
};

export const payoutJobs = {
  /** Send an accepted payout to the rail and settle it if the rail decides at once. */
  execute: defineJob({
    queue: PAYOUT_QUEUE,
    name: 'execute-payout',
    data: z.object({ payoutId }),
    /** One execute job per payout: queuing it twice is harmless. */
    jobId: (id: string) => `execute-${id}`,
    idArgs: (data) => [data.payoutId] as const,
    options: retryPolicy,
  }),
  /** Ask the rail what became of a payout whose outcome is pending or unknown. */
  inquire: defineJob({
    queue: PAYOUT_QUEUE,
    name: 'inquire-payout',
    data: z.object({ payoutId, attempt }),
    /** One job per inquiry attempt, numbered as the database numbers them. */
    jobId: (id: string, n: number) => `inquire-${id}-${n}`,
    idArgs: (data) => [data.payoutId, data.attempt] as const,
    options: retryPolicy,
  }),
} as const;

/**
 * Merchant webhooks run on a queue of their own: a slow merchant endpoint must never take the rail's
 * rate-limited slots, nor a busy rail delay a notification.
 */
export const WEBHOOK_QUEUE = 'webhooks';

export const webhookJobs = {
  /**
   * Attempt number `attempt` of a webhook delivery. The merchant's endpoint failing is not a job failure
   * (the job records it and queues the next attempt with the delivery's own backoff); the job's retries are
   * for PostgreSQL or Redis being briefly away.
   */
  deliver: defineJob({
    queue: WEBHOOK_QUEUE,
    name: 'deliver-webhook',
    data: z.object({ deliveryId: rowId('a webhook delivery id'), attempt }),
    /** One job per attempt, numbered as the database numbers them. */
    jobId: (id: string, n: number) => `deliver-${id}-${n}`,
    idArgs: (data) => [data.deliveryId, data.attempt] as const,
    options: retryPolicy,
  }),
} as const;
