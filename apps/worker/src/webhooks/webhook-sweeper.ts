import type { Queue } from 'bullmq';
import {
  findDueWebhookDeliveries,
  releaseHeldWebhookDeliveries,
  withAdvisoryLock,
  type DueWebhookDelivery,
  type PrismaClient,
} from '@payout/db';
import { ensureJob, jobRequest, webhookJobs, type EnsureJobAction } from '@payout/queue';
import type { Logger } from '@payout/telemetry';

// Any 64-bit number unique to this purpose (the payout sweeper has its own): one webhook sweep at a time.
const WEBHOOK_SWEEP_LOCK_KEY = 7_358_201_447n;
const BATCH = 500;

export interface WebhookSweepResult {
  /** False when another worker held the sweep lock. */
  swept: boolean;
  due: number;
  /** Jobs added because none existed (a settlement's or replay's first attempt, or a lost job). */
  added: number;
  /** Failed jobs retried (they ran out of attempts while PostgreSQL or Redis was away). */
  retried: number;
  /** Held deliveries of an endpoint no longer disabled, made pending again. */
  released: number;
}

/**
 * Makes sure every pending webhook delivery has the job of its next attempt: the first attempt of an outbox
 * row written by a settlement (the worker queues it straight away, `pnpm cli payout resolve` leaves it to
 * this), and any attempt whose job was lost with Redis or whose worker died mid-attempt. Job ids make it
 * harmless to repeat, and the attempt claim makes a duplicate job send nothing; an advisory lock keeps
 * workers from doing the same scan at once.
 */
export class WebhookSweeper {
  constructor(
    private readonly db: PrismaClient,
    private readonly queue: Queue,
    private readonly logger: Logger,
    private readonly graceMs: number,
  ) {}

  async sweepOnce(): Promise<WebhookSweepResult> {
    const result = await withAdvisoryLock(this.db, WEBHOOK_SWEEP_LOCK_KEY, async (tx) => {
      // Normally `webhook enable` releases and queues them itself; this catches a delivery that a claim held
      // while the endpoint was being enabled.
      const released = await releaseHeldWebhookDeliveries(tx);
      const due = await findDueWebhookDeliveries(tx, this.graceMs, BATCH);
      const swept: WebhookSweepResult = {
        swept: true,
        due: due.length,
        added: 0,
        retried: 0,
        released: released.length,
      };
      for (const delivery of [...released, ...due.filter((d) => !released.some((r) => r.id === d.id))]) {
        const action = await this.ensureJobOf(delivery);
        if (action === 'added') swept.added++;
        if (action === 'retried') swept.retried++;
      }
      if (swept.added || swept.retried || swept.released)
        this.logger.info(swept, 'webhook sweeper queued due deliveries');
      return swept;
    });
    return result ?? { swept: false, due: 0, added: 0, retried: 0, released: 0 };
  }

  private ensureJobOf(delivery: DueWebhookDelivery): Promise<EnsureJobAction> {
    return ensureJob(
      this.queue,
      jobRequest(webhookJobs.deliver, { deliveryId: delivery.id.toString(), attempt: delivery.attempts + 1 }),
    );
  }
}
