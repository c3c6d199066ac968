import { Queue, type Worker } from 'bullmq';
import type { RedisConnection } from '@payout/queue';
import { webhookDestinationPolicy, type WorkerConfig } from '@payout/config';
import type { DueWebhookDelivery, PrismaClient } from '@payout/db';
import { WEBHOOK_QUEUE } from '@payout/queue';
import type { Logger } from '@payout/telemetry';
import { WebhookDeliverer, webhookProcessor } from './deliver-webhook.job.js';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, type WebhookRetrySchedule } from './retry-schedule.js';
import { queueWebhookAttemptScheduler } from './webhook-attempt-scheduler.js';
import { WebhookSender } from './webhook-sender.js';
import { settlesWithin, startQueueWorker } from '../jobs/queue-worker.js';
import { JobSweeper } from '../sweeper.js';
import { webhookSweepPlan } from './webhook-sweep-plan.js';

type WebhookWorkerConfig = Pick<
  WorkerConfig,
  | 'QUEUE_PREFIX'
  | 'WORKER_CONCURRENCY'
  | 'WEBHOOK_TIMEOUT_MS'
  | 'WEBHOOK_RETRY_FOR_MS'
  | 'SWEEP_INTERVAL_MS'
  | 'SWEEP_GRACE_MS'
  | 'JOB_LOCK_MS'
  | 'SHUTDOWN_GRACE_MS'
  | 'NODE_ENV'
  | 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES'
>;

interface WebhookWorkerDeps {
  db: PrismaClient;
  /** A producer connection (fails fast while Redis is away), for queuing. */
  connection: RedisConnection;
  /** A worker connection (waits out Redis outages), for BullMQ's blocking reads. */
  workerConnection: RedisConnection;
  logger: Logger;
  /** Defaults to {@link DEFAULT_WEBHOOK_RETRY_SCHEDULE}; tests shorten it. */
  retrySchedule?: WebhookRetrySchedule;
}

export interface RunningWebhookWorker {
  queue: Queue;
  worker: Worker;
  sweeper: JobSweeper<DueWebhookDelivery>;
  /**
   * Queues the first attempt of a delivery a settlement just recorded. Never throws: if Redis does not take
   * it, the sweeper finds the delivery in PostgreSQL.
   */
  deliverSoon(deliveryId: bigint): void;
  /** Stops taking jobs and lets those in flight finish within the grace period. Connections stay open. */
  close(): Promise<void>;
}

/** Starts the webhook deliveries of a worker process: a BullMQ worker on the webhooks queue and its sweeper. */
export async function startWebhookWorker(
  config: WebhookWorkerConfig,
  deps: WebhookWorkerDeps,
): Promise<RunningWebhookWorker> {
  const { db, logger } = deps;
  const queue = new Queue(WEBHOOK_QUEUE, { connection: deps.connection, prefix: config.QUEUE_PREFIX });
  queue.on('error', (error) => logger.warn({ err: error.message }, 'webhook queue error'));
  const scheduler = queueWebhookAttemptScheduler(queue, (error) =>
    logger.warn({ err: error.message }, 'could not queue a webhook attempt; the sweeper will'),
  );
  const sender = new WebhookSender(webhookDestinationPolicy(config));
  const deliverer = new WebhookDeliverer({
    db,
    sender,
    scheduler,
    logger,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryForMs: config.WEBHOOK_RETRY_FOR_MS,
    schedule: deps.retrySchedule ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE,
  });
  const sweeper = new JobSweeper(webhookSweepPlan, { db, queue, logger, graceMs: config.SWEEP_GRACE_MS });
  const running = await startQueueWorker({
    queueName: WEBHOOK_QUEUE,
    label: 'webhook',
    processor: webhookProcessor(deliverer),
    connection: deps.workerConnection,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
    lockMs: config.JOB_LOCK_MS,
    sweeper,
    sweepIntervalMs: config.SWEEP_INTERVAL_MS,
    shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
    logger,
  });

  return {
    queue,
    worker: running.worker,
    sweeper,
    deliverSoon(deliveryId) {
      void scheduler.scheduleAttempt(deliveryId, 1, 0);
    },
    async close() {
      await running.close();
      // Bounded like the worker's own close: a queue whose Redis node is gone must not hold the stop.
      if (!(await settlesWithin(queue.close(), config.SHUTDOWN_GRACE_MS))) {
        logger.warn('webhook queue did not close within the grace period: stopping without it');
      }
      await sender.close();
    },
  };
}
