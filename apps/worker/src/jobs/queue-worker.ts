import { Worker, type Job, type WorkerOptions } from 'bullmq';
import type { RedisConnection } from '@payout/queue';
import type { Logger } from '@payout/telemetry';

interface QueueWorkerOptions<Result> {
  /** The queue's name, and what its log lines call it ("payout", "webhook"). */
  queueName: string;
  label: string;
  processor: (job: Job, token?: string) => Promise<Result>;
  /** A worker connection (waits out Redis outages), for BullMQ's blocking reads. */
  connection: RedisConnection;
  prefix: string;
  concurrency: number;
  /** How long a job's lock lasts; a worker that stops renewing it loses the job to another. */
  lockMs: number;
  /** One limiter for the whole queue, shared by every worker process. */
  limiter?: WorkerOptions['limiter'];
  /** The queue's sweeper and how often it runs. */
  sweeper: { sweepOnce(): Promise<unknown> };
  sweepIntervalMs: number;
  /** How long `close` lets jobs in flight finish before leaving them to another worker. */
  shutdownGraceMs: number;
  logger: Logger;
}

interface RunningQueueWorker {
  worker: Worker;
  /**
   * Stops the sweeper and takes no new jobs; lets those in flight finish within the grace period (a job cut
   * off after it is picked up again by another worker and settles once). Connections stay open.
   */
  close(): Promise<void>;
}

/**
 * The shell every queue's worker shares: a BullMQ worker whose jobs are locked and re-taken when stalled,
 * failures logged, a sweeper on a timer, and a stop that waits for jobs in flight at most the grace period.
 * What differs between queues is the processor and the sweeper, both passed in.
 */
export async function startQueueWorker<Result>(options: QueueWorkerOptions<Result>): Promise<RunningQueueWorker> {
  const { label, logger } = options;
  const worker = new Worker(options.queueName, options.processor, {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
    ...(options.limiter && { limiter: options.limiter }),
    lockDuration: options.lockMs,
    stalledInterval: Math.max(1_000, Math.floor(options.lockMs / 2)),
    maxStalledCount: 5,
  });
  worker.on('error', (error) => logger.warn({ err: error.message }, `${label} worker error`));
  worker.on('failed', (job, error) =>
    logger.warn(
      { job: job?.id, attempts: job?.attemptsMade, err: error.message },
      `${label} job failed; it will be retried if attempts remain`,
    ),
  );

  let sweepTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  const scheduleSweep = () => {
    sweepTimer = setTimeout(() => {
      options.sweeper
        .sweepOnce()
        .catch((error: unknown) =>
          logger.warn({ err: (error as Error).message }, `${label} sweep failed; the next one will retry`),
        )
        .finally(() => {
          if (!stopped) scheduleSweep();
        });
    }, options.sweepIntervalMs);
  };
  scheduleSweep();
  await worker.waitUntilReady();

  return {
    worker,
    async close() {
      stopped = true;
      clearTimeout(sweepTimer);
      if (await settlesWithin(worker.close(), options.shutdownGraceMs)) return;
      logger.warn(`${label} jobs still running after the grace period: leaving them to another worker`);
      // A forced close still waits for BullMQ's connections to end; with a Redis node gone (a failover
      // under way) that can be for ever, and a stopping process must stop.
      if (!(await settlesWithin(worker.close(true), options.shutdownGraceMs))) {
        logger.warn(`${label} worker did not close within a second grace period: stopping without it`);
      }
    },
  };
}

/** Whether `promise` settles within `ms`; it is left to settle (or not) on its own either way. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    const settled = promise.then(() => true);
    // Rejecting before the deadline rejects the race; rejecting after it is nobody's business any more.
    settled.catch(() => undefined);
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
