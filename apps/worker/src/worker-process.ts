import { hostname } from 'node:os';
import { Queue, type Worker } from 'bullmq';
import type { WorkerConfig } from '@payout/config';
import { createPrismaClient, type OverduePayout, type PrismaClient } from '@payout/db';
import type { BankName, InquirySchedules } from '@payout/domain';
import { createProducerConnection, createWorkerConnection, PAYOUT_QUEUE } from '@payout/queue';
import { createBankRails, type BankRails, type RailAdapter } from '@payout/rails';
import {
  createLogger,
  createMetrics,
  createOperationsMetrics,
  createRoutingMetrics,
  type Logger,
  type ServiceMetrics,
} from '@payout/telemetry';
import { bankThrottle, NO_THROTTLE } from './banks/bank-throttle.js';
import { BankRecovery } from './banks/bank-recovery.js';
import { BankView } from './banks/bank-view.js';
import { RoutedBanks, routingSettingsOf, type DriverBanks } from './banks/driver-banks.js';
import { BankHealthScorer } from './banks/health-scorer.js';
import { BankHealthWindow } from './banks/health-window.js';
import { startHealthServer } from './health-server.js';
import { queueInquiryScheduler } from './inquiry-scheduler.js';
import { instrumentedBankRails } from './instrumented-rail.js';
import { OperationsWatch } from './operations-watch.js';
import { payoutProcessor } from './jobs/payout-processor.js';
import { settlesWithin, startQueueWorker } from './jobs/queue-worker.js';
import { PayoutDriver } from './payout-driver.js';
import { JobSweeper, payoutSweepPlan } from './sweeper.js';
import { CoalescingClaimer } from './coalescing-claimer.js';
import { CoalescingSettler } from './coalescing-settler.js';
import { startWebhookWorker, type RunningWebhookWorker } from './webhooks/index.js';

export interface RunningWorker {
  worker: Worker;
  queue: Queue;
  sweeper: JobSweeper<OverduePayout>;
  /** Merchant webhook deliveries, on their own queue. */
  webhooks: RunningWebhookWorker;
  metrics: ServiceMetrics;
  /** The port of /healthz, /readyz and /metrics. */
  healthPort: number;
  /**
   * Stops taking jobs, lets those in flight finish within the grace period (a job cut off after it is picked
   * up again by another worker and settles once), then closes every connection.
   */
  close(): Promise<void>;
}

export interface WorkerOverrides {
  /** One rail adapter answering for every configured bank (a test's own rail). */
  rail?: RailAdapter;
  logger?: Logger;
}

/** Every configured bank answered by one adapter. */
function everyBankIs(rail: RailAdapter, banks: WorkerConfig['banks']): BankRails {
  return { banks, rail: () => rail, close: () => rail.close() };
}

/** Starts a worker process's parts: the BullMQ worker on the payouts queue and the sweeper's timer. */
export async function startWorker(config: WorkerConfig, overrides: WorkerOverrides = {}): Promise<RunningWorker> {
  const logger = overrides.logger ?? createLogger('worker', config.LOG_LEVEL);
  const { db, producerRedis, workerRedis, queue } = openConnections(config, logger);
  const metrics = createMetrics('worker');
  const several = config.banks.length > 1;
  const health = new BankHealthWindow({
    redis: producerRedis,
    prefix: config.QUEUE_PREFIX,
    windowMs: config.ROUTING_WINDOW_MS,
    flushMs: Math.min(250, config.ROUTING_REFRESH_MS),
    logger,
  });
  const rails = instrumentedBankRails(
    overrides.rail
      ? everyBankIs(overrides.rail, config.banks)
      : createBankRails(config, { maxConnections: config.WORKER_CONCURRENCY }),
    {
      metrics,
      health,
      // With one bank the queue's limiter is its limit; with several, each bank's own (docs/banks.md).
      throttle: several
        ? await bankThrottle({ redis: producerRedis, prefix: config.QUEUE_PREFIX, banks: config.banks, logger })
        : NO_THROTTLE,
    },
  );
  const webhooks = await startWebhookWorker(config, {
    db,
    connection: producerRedis,
    workerConnection: workerRedis,
    logger,
  });
  const recovery = new BankRecovery({ db, queue, logger, inFlightMs: railWindowMsOf(config), actor: 'worker' });
  const modesOf = (bank: BankName) => config.banks.find((b) => b.name === bank)?.modes ?? [];
  const view = new BankView({
    db,
    banks: config.banks,
    refreshMs: config.ROUTING_REFRESH_MS,
    logger,
    metrics: createRoutingMetrics(metrics.registry),
    onResumed: (bank) =>
      void recovery
        .askNow(bank, modesOf(bank), `bank ${bank} resumed by an operator`)
        .catch((error: unknown) =>
          logger.warn({ err: (error as Error).message, bank }, 'could not ask about a resumed bank’s payouts now'),
        ),
  });
  view.start();
  health.start();
  const routingSettings = routingSettingsOf(config);
  const scorer = new BankHealthScorer({
    db,
    window: health,
    banks: config.banks,
    settings: routingSettings,
    intervalMs: config.ROUTING_REFRESH_MS,
    logger,
    changes: {
      notify: (ids) => ids.forEach((id) => webhooks.deliverSoon(id)),
      back: (bank, mode) => recovery.askNow(bank, [mode], `bank ${bank} answers again for ${mode}`),
    },
  });
  scorer.start();
  const banks = new RoutedBanks({ rails, view, settings: routingSettings });
  const driver = payoutDriverFor(config, { db, banks, queue, logger, metrics, webhooks });

  const sweeper = new JobSweeper(payoutSweepPlan, { db, queue, logger, graceMs: config.SWEEP_GRACE_MS, metrics });
  const payouts = await startQueueWorker({
    queueName: PAYOUT_QUEUE,
    label: 'payout',
    processor: payoutProcessor(driver),
    connection: workerRedis,
    prefix: config.QUEUE_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
    // One limiter for the whole queue, shared by every worker process: with one bank, its rate limit; with
    // several, their sum, each bank held to its own by the throttle (docs/banks.md, "Settings").
    limiter: { max: config.banks.reduce((sum, bank) => sum + bank.maxTps, 0), duration: 1_000 },
    lockMs: config.JOB_LOCK_MS,
    sweeper,
    sweepIntervalMs: config.SWEEP_INTERVAL_MS,
    shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
    logger,
  });
  const operations = new OperationsWatch({
    db,
    metrics: createOperationsMetrics(metrics.registry),
    logger,
    schedules: inquirySchedulesOf(config),
    reconcileIntervalMs: config.RECONCILE_INTERVAL_MS,
    // Overdue by a whole sweep past the sweeper's own grace: the sweeper has had its chance (packages/db/src/invariant-check.ts).
    stuckAfterMs: 2 * config.SWEEP_INTERVAL_MS + config.SWEEP_GRACE_MS,
  });
  operations.start();
  const healthServer = await startHealthServer(config.HEALTH_PORT, {
    db,
    redis: producerRedis,
    queues: [queue, webhooks.queue],
    metrics,
    operations,
    logger,
  });
  logger.info(
    {
      concurrency: config.WORKER_CONCURRENCY,
      banks: config.banks.map((bank) => ({ name: bank.name, maxTps: bank.maxTps, modes: bank.modes })),
    },
    'worker started',
  );

  return {
    worker: payouts.worker,
    queue,
    sweeper,
    webhooks,
    metrics,
    healthPort: healthServer.port,
    async close() {
      const webhooksClosed = webhooks.close();
      await payouts.close();
      await healthServer.close();
      operations.stop();
      scorer.stop();
      view.stop();
      await health.stop();
      await webhooksClosed;
      if (!(await settlesWithin(queue.close(), config.SHUTDOWN_GRACE_MS))) {
        logger.warn('payout queue did not close within the grace period: stopping without it');
      }
      await rails.close();
      producerRedis.disconnect();
      workerRedis.disconnect();
      await db.$disconnect();
      logger.info('worker stopped');
    },
  };
}

/** PostgreSQL, Redis (one connection to produce, one for the blocking worker) and the payouts queue. */
function openConnections(config: WorkerConfig, logger: Logger) {
  const db = createPrismaClient({
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    applicationName: 'payout-gateway-worker',
  });
  const producerRedis = createProducerConnection(config);
  const workerRedis = createWorkerConnection(config);
  for (const connection of [producerRedis, workerRedis]) {
    connection.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis connection error'));
  }
  const queue = new Queue(PAYOUT_QUEUE, { connection: producerRedis, prefix: config.QUEUE_PREFIX });
  queue.on('error', (error) => logger.warn({ err: error.message }, 'queue error'));
  return { db, producerRedis, workerRedis, queue };
}

interface DriverParts {
  db: PrismaClient;
  banks: DriverBanks;
  queue: Queue;
  logger: Logger;
  metrics: ServiceMetrics;
  webhooks: RunningWebhookWorker;
}

/** The payout driver, its timings from the configuration; a settlement's webhook is delivered at once. */
function payoutDriverFor(config: WorkerConfig, { db, banks, queue, logger, metrics, webhooks }: DriverParts) {
  return new PayoutDriver({
    db,
    banks,
    holdRetryMs: config.ROUTING_HOLD_RETRY_MS,
    inquiries: queueInquiryScheduler(queue, (error) =>
      logger.warn({ err: error.message }, 'could not queue an inquiry; the sweeper will'),
    ),
    logger,
    actor: `worker:${hostname()}:${process.pid}`,
    schedules: inquirySchedulesOf(config),
    deadlineMs: config.INQUIRY_DEADLINE_MS,
    notFoundTrustedAfterMs: config.RAIL_NOT_FOUND_TRUSTED_AFTER_MS,
    railWindowMs: railWindowMsOf(config),
    metrics,
    ...(config.SETTLE_COALESCING && {
      claim: new CoalescingClaimer(db, coalescingLimitsOf(config)).claim,
      settle: new CoalescingSettler(db, coalescingLimitsOf(config)).settle,
    }),
    onSettled: (_payoutId, webhookDeliveryId) => {
      if (webhookDeliveryId !== null) webhooks.deliverSoon(webhookDeliveryId);
    },
  });
}

/** The worker's claims and its settlements each coalesce into statements of at most this many (docs/performance.md). */
function coalescingLimitsOf(config: WorkerConfig) {
  return { maxBatch: config.SETTLE_MAX_BATCH, maxInFlight: config.SETTLE_MAX_IN_FLIGHT };
}

/** How long a submit or a status check may take, the rail's time-outs included. */
function railWindowMsOf(config: WorkerConfig): number {
  return config.RAIL_CONNECT_TIMEOUT_MS + config.RAIL_RESPONSE_TIMEOUT_MS + 5_000;
}

/** Each mode's status-check schedule, from the configuration (defaults: docs/bank-boundary.md). */
export function inquirySchedulesOf(config: WorkerConfig): InquirySchedules {
  return {
    UPI: {
      firstDelayMs: config.INQUIRY_UPI_FIRST_DELAY_MS,
      spacingMs: config.INQUIRY_UPI_SPACING_MS,
      maxChecks: config.INQUIRY_UPI_MAX_CHECKS,
    },
    IMPS: {
      firstDelayMs: config.INQUIRY_IMPS_FIRST_DELAY_MS,
      spacingMs: config.INQUIRY_IMPS_SPACING_MS,
      maxChecks: config.INQUIRY_IMPS_MAX_CHECKS,
    },
  };
}
