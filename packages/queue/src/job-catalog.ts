import type { JobsOptions } from 'bullmq';
import { z } from 'zod';

/**
 * The job catalog shared by producer (api, sweeper) and consumer (worker): every job's name, payload
 * schema, id and retry policy in one place. Payloads carry ids only — never account numbers, amounts
 * or secrets; the worker reads everything else from PostgreSQL.
 */
export const PAYOUT_QUEUE = 'payouts';

const payoutId = z.string().regex(/^[1-9][0-9]{0,18}$/, 'a payout id');

// Transient failures (database or Redis briefly away) retry with exponential backoff and jitter;
// a job that runs out of attempts stays in the failed set and the sweeper re-queues its payout.
//
// A finished job is removed at once. Job ids are made of database row ids (`execute-1`), and BullMQ
// silently ignores an add whose id it still holds: a finished job kept for a day swallowed the job of the
// next payout to get that id — the first payouts of a database created afresh while Redis lived on, which
// then waited for the sweeper (issue 10, "the first payout after a start"). PostgreSQL, not Redis, keeps a
// payout's history; a failed job is kept for a week as evidence, and the sweeper retries it if a payout
// reusing its id needs it (payloads carry ids only, so the old job does exactly what a new one would).
const retryPolicy: JobsOptions = {
  attempts: 10,
  backoff: { type: 'exponential', delay: 1_000, jitter: 0.5 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 60 * 60 },
};

export const payoutJobs = {
  /** Send an accepted payout to the rail and settle it if the rail decides at once. */
  execute: {
    name: 'execute-payout',
    data: z.object({ payoutId }),
    /** One execute job per payout: queuing it twice is harmless. */
    jobId: (id: string) => `execute-${id}`,
    options: retryPolicy,
  },
  /** Ask the rail what became of a payout whose outcome is pending or unknown. */
  inquire: {
    name: 'inquire-payout',
    data: z.object({ payoutId, attempt: z.number().int().min(1) }),
    /** One job per inquiry attempt, numbered as the database numbers them. */
    jobId: (id: string, attempt: number) => `inquire-${id}-${attempt}`,
    options: retryPolicy,
  },
} as const;

export type ExecutePayoutJob = z.infer<typeof payoutJobs.execute.data>;
export type InquirePayoutJob = z.infer<typeof payoutJobs.inquire.data>;

/**
 * Merchant webhooks run on a queue of their own: a slow merchant endpoint must never take the rail's
 * rate-limited slots, nor a busy rail delay a notification.
 */
export const WEBHOOK_QUEUE = 'webhooks';

const deliveryId = z.string().regex(/^[1-9][0-9]{0,18}$/, 'a webhook delivery id');

export const webhookJobs = {
  /**
   * Attempt number `attempt` of a webhook delivery. The merchant's endpoint failing is not a job failure
   * (the job records it and queues the next attempt with the delivery's own backoff); the job's retries are
   * for PostgreSQL or Redis being briefly away.
   */
  deliver: {
    name: 'deliver-webhook',
    data: z.object({ deliveryId, attempt: z.number().int().min(1) }),
    /** One job per attempt, numbered as the database numbers them. */
    jobId: (id: string, attempt: number) => `deliver-${id}-${attempt}`,
    options: retryPolicy,
  },
} as const;

export type DeliverWebhookJob = z.infer<typeof webhookJobs.deliver.data>;
