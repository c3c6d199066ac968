import type { Queue } from 'bullmq';
import {
  expireQueuedPayouts,
  findOverduePayouts,
  withAdvisoryLock,
  type OverduePayout,
  type PrismaClient,
} from '@payout/db';
import { ensureJob, payoutJobs, type EnsureJobAction } from '@payout/queue';
import type { Logger, ServiceMetrics } from '@payout/telemetry';

// Any 64-bit number unique to this purpose: only one worker process sweeps at a time.
const SWEEP_LOCK_KEY = 7_358_201_446n;
const BATCH = 500;

export interface SweepResult {
  /** False when another worker held the sweep lock. */
  swept: boolean;
  overdue: number;
  /** Jobs added because none existed (lost with Redis, or never queued). */
  added: number;
  /** Failed jobs retried (they had run out of attempts while PostgreSQL or the rail was away). */
  retried: number;
}

/**
 * Makes Redis a carrier of work, never the only copy of it: finds payouts whose next step is overdue in
 * PostgreSQL and makes sure each has its job — the execute job of an accepted payout, or the inquiry job
 * its state is waiting for. Job ids make this harmless to repeat; an advisory lock keeps concurrent
 * workers from doing the same scan at once.
 */
export class Sweeper {
  constructor(
    private readonly db: PrismaClient,
    private readonly queue: Queue,
    private readonly logger: Logger,
    private readonly graceMs: number,
    private readonly metrics?: ServiceMetrics,
  ) {}

  async sweepOnce(): Promise<SweepResult> {
    const result = await withAdvisoryLock(this.db, SWEEP_LOCK_KEY, async (tx) => {
      // Queued payouts past their merchant's window fail first (docs/api.md, "Queue if low balance").
      const expired = await expireQueuedPayouts(tx);
      if (expired) this.logger.info({ expired }, 'queued payouts failed: their queue window passed');
      const overdue = await findOverduePayouts(tx, this.graceMs, BATCH);
      const swept: SweepResult = { swept: true, overdue: overdue.length, added: 0, retried: 0 };
      for (const payout of overdue) {
        const action = await this.ensureJobOf(payout);
        if (action === 'added') swept.added++;
        if (action === 'retried') swept.retried++;
        if (action !== 'present') this.metrics?.sweeperActions.inc({ action });
      }
      if (swept.added || swept.retried) this.logger.warn(swept, 'sweeper re-queued overdue payouts');
      return swept;
    });
    return result ?? { swept: false, overdue: 0, added: 0, retried: 0 };
  }

  private ensureJobOf(payout: OverduePayout): Promise<EnsureJobAction> {
    const id = payout.id.toString();
    const { name, jobId, data, options } =
      payout.state === 'ACCEPTED'
        ? {
            name: payoutJobs.execute.name,
            jobId: payoutJobs.execute.jobId(id),
            data: { payoutId: id },
            options: payoutJobs.execute.options,
          }
        : {
            name: payoutJobs.inquire.name,
            jobId: payoutJobs.inquire.jobId(id, payout.inquiryAttempts + 1),
            data: { payoutId: id, attempt: payout.inquiryAttempts + 1 },
            options: payoutJobs.inquire.options,
          };
    return ensureJob(this.queue, name, jobId, data, options);
  }
}
