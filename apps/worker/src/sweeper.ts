import type { Queue } from 'bullmq';
import {
  deleteExpiredIdempotencyKeys,
  expireHeldPayouts,
  expireQueuedPayouts,
  findOverduePayouts,
  withAdvisoryLock,
  type OverduePayout,
  type PrismaClient,
  type PrismaClientOrTransaction,
} from '@payout/db';
import { ensureJob, jobRequest, payoutJobs, type EnsureJobAction, type JobRequest } from '@payout/queue';
import type { Logger, ServiceMetrics } from '@payout/telemetry';

const BATCH = 500;

export interface SweepResult {
  /** False when another worker held the sweep lock. */
  swept: boolean;
  overdue: number;
  /** Jobs added because none existed (lost with Redis, or never queued). */
  added: number;
  /** Failed jobs retried (they had run out of attempts while PostgreSQL or the rail was away). */
  retried: number;
  /** Rows the plan made due again before the scan (held webhook deliveries of an endpoint enabled again). */
  released: number;
}

/** What a sweeper sweeps: where PostgreSQL keeps the overdue work, and the job each row needs. */
export interface SweepPlan<Row> {
  /** Any 64-bit number unique to this plan: only one worker process sweeps it at a time. */
  lockKey: bigint;
  /**
   * Runs first, under the same lock: moves the plan's own waiting work along, and returns any rows it made
   * due, which get their jobs with the overdue ones (a row in both is ensured once: the second finds it present).
   */
  release?(tx: PrismaClientOrTransaction): Promise<Row[]>;
  /** Rows whose next step is overdue by more than `graceMs`, at most `limit`, oldest first. */
  findOverdue(tx: PrismaClientOrTransaction, graceMs: number, limit: number): Promise<Row[]>;
  /** The job a row's next step needs (built by `jobRequest`, so its payload matches the catalog). */
  jobOf(row: Row): JobRequest;
  /** The log line of a sweep that queued something, and its level. */
  message: string;
  logLevel: 'info' | 'warn';
  /**
   * Housekeeping after a sweep, by the process that swept, outside the sweep's transaction: each of its statements
   * commits on its own, so nothing it deletes stays locked while the sweep queues jobs.
   */
  tidy?(db: PrismaClient): Promise<void>;
}

interface SweeperDeps {
  db: PrismaClient;
  queue: Queue;
  logger: Logger;
  graceMs: number;
  /** Counts the jobs added and retried (`sweeper_actions_total`). */
  metrics?: ServiceMetrics;
}

/**
 * Makes Redis a carrier of work, never the only copy of it: finds the rows whose next step is overdue in
 * PostgreSQL and makes sure each has its job. Job ids make this harmless to repeat; an advisory lock keeps
 * concurrent workers from doing the same scan at once. One class for every queue: each brings a
 * {@link SweepPlan}.
 */
export class JobSweeper<Row> {
  constructor(
    private readonly plan: SweepPlan<Row>,
    private readonly deps: SweeperDeps,
  ) {}

  async sweepOnce(): Promise<SweepResult> {
    const { db, queue, logger, graceMs, metrics } = this.deps;
    const result = await withAdvisoryLock(db, this.plan.lockKey, async (tx) => {
      const released = (await this.plan.release?.(tx)) ?? [];
      const overdue = await this.plan.findOverdue(tx, graceMs, BATCH);
      const swept: SweepResult = {
        swept: true,
        overdue: overdue.length,
        added: 0,
        retried: 0,
        released: released.length,
      };
      for (const row of [...released, ...overdue]) {
        const action: EnsureJobAction = await ensureJob(queue, this.plan.jobOf(row));
        if (action === 'added') swept.added++;
        if (action === 'retried') swept.retried++;
        if (action !== 'present') metrics?.sweeperActions.inc({ action });
      }
      if (swept.added || swept.retried || swept.released) logger[this.plan.logLevel](swept, this.plan.message);
      return swept;
    });
    if (!result) return { swept: false, overdue: 0, added: 0, retried: 0, released: 0 };
    await this.plan
      .tidy?.(db)
      .catch((error: unknown) => logger.warn({ err: (error as Error).message }, 'sweeper housekeeping failed'));
    return result;
  }
}

// Idempotency-Keys past their 24 hours (docs/api.md, "Idempotency keys"): a thousand a statement, at most fifty
// thousand a sweep, which is more keys than the API's write ceiling (about 2,500 accepts a second,
// docs/scaling.md) can make in a sweep interval (SWEEP_INTERVAL_MS, 15 s).
const EXPIRED_KEYS_BATCH = 1_000;
const EXPIRED_KEYS_BATCHES_PER_SWEEP = 50;

async function deleteExpiredKeys(db: PrismaClient): Promise<void> {
  for (let batch = 0; batch < EXPIRED_KEYS_BATCHES_PER_SWEEP; batch++) {
    if ((await deleteExpiredIdempotencyKeys(db, EXPIRED_KEYS_BATCH)) < EXPIRED_KEYS_BATCH) return;
  }
}

/**
 * The payouts queue's plan: the execute job of an accepted payout, or the inquiry job its state is
 * waiting for.
 */
export const payoutSweepPlan: SweepPlan<OverduePayout> = {
  lockKey: 7_358_201_446n,
  async release(tx) {
    // Queued payouts past their merchant's window fail first; each failure is its own payout event
    // (docs/api.md, "Queue if low balance"). So do payouts held through a bank downtime past their
    // merchant's hold window (docs/banks.md, "Holding"); their webhooks go out with the webhook sweep.
    // Nothing is made due by either.
    await expireQueuedPayouts(tx);
    await expireHeldPayouts(tx);
    return [];
  },
  findOverdue: findOverduePayouts,
  jobOf(payout) {
    const payoutId = payout.id.toString();
    return payout.state === 'ACCEPTED'
      ? jobRequest(payoutJobs.execute, { payoutId })
      : jobRequest(payoutJobs.inquire, { payoutId, attempt: payout.inquiryAttempts + 1 });
  },
  message: 'sweeper re-queued overdue payouts',
  logLevel: 'warn',
  // Not the payouts' own: the merchant API's Idempotency-Keys expire here, on this sweep's timer.
  tidy: deleteExpiredKeys,
};
