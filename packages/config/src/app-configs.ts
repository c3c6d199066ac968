import { z } from 'zod';
import {
  databaseSettings,
  flag,
  logSettings,
  nodeEnv,
  port,
  positiveInt,
  redisSettings,
  refusePlaceholderSecretsInProduction,
  secret,
} from './settings.js';

/** apps/api: the merchant-facing HTTP service. */
export const apiConfigSchema = z
  .object({
    ...nodeEnv,
    ...databaseSettings,
    ...redisSettings,
    ...logSettings,
    PORT: port(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    /** How long queuing an accepted payout's job may take before it is left to the sweeper (the answer never waits). */
    ENQUEUE_TIMEOUT_MS: positiveInt(5_000),
    /** How long a merchant's credentials are cached; a suspension or revoked token takes effect within it. */
    AUTH_CACHE_TTL_MS: positiveInt(5_000),
    /** Coalesce concurrent payout accepts into one database statement (see coalescing-accepter.ts). */
    ACCEPT_COALESCING: flag(true),
    ACCEPT_MAX_BATCH: positiveInt(200),
    /** Statements in flight at once; keep below DATABASE_POOL_SIZE so lookups always find a connection. */
    ACCEPT_MAX_IN_FLIGHT: positiveInt(4),
    /** Shared secret of the collection provider's pay-in callbacks (HMAC-SHA256 of the raw body). */
    PAYIN_CALLBACK_SECRET: secret(),
    /** Bearer token of the support console (/admin/…). */
    ADMIN_TOKEN: secret(),
    /** Per-merchant rate limit: requests allowed per window, across all API processes (kept in Redis). */
    RATE_LIMIT_ENABLED: flag(true),
    RATE_LIMIT_POINTS: positiveInt(500),
    RATE_LIMIT_WINDOW_MS: positiveInt(1_000),
  })
  .superRefine(refusePlaceholderSecretsInProduction(['PAYIN_CALLBACK_SECRET', 'ADMIN_TOKEN']));
export type ApiConfig = z.infer<typeof apiConfigSchema>;

/** apps/worker: settles payouts through the rail. */
export const workerConfigSchema = z.object({
  ...nodeEnv,
  ...databaseSettings,
  ...redisSettings,
  ...logSettings,
  RAIL_BASE_URL: z.url().default('http://127.0.0.1:4100'),
  WORKER_CONCURRENCY: positiveInt(20),
  /** Jobs per second sent to the rail across all worker processes (BullMQ's global limiter). */
  RAIL_MAX_TPS: positiveInt(500),
  RAIL_CONNECT_TIMEOUT_MS: positiveInt(2_000),
  RAIL_RESPONSE_TIMEOUT_MS: positiveInt(10_000),
  /** After this long without a final answer a payout is flagged for manual review (it stays PENDING). */
  INQUIRY_DEADLINE_MS: positiveInt(24 * 60 * 60 * 1000),
  /** Wait before the first inquiry of an undecided payout; each further one waits twice as long … */
  INQUIRY_FIRST_DELAY_MS: positiveInt(2_000),
  /** … up to this. */
  INQUIRY_MAX_DELAY_MS: positiveInt(5 * 60 * 1000),
  SWEEP_INTERVAL_MS: positiveInt(15_000),
  /** How overdue a payout's next step must be before the sweeper re-queues it. */
  SWEEP_GRACE_MS: positiveInt(30_000),
  /** BullMQ job lock: a worker that dies mid-job loses its jobs to another worker after about this long. */
  JOB_LOCK_MS: positiveInt(30_000),
  SHUTDOWN_GRACE_MS: positiveInt(20_000),
  /** Health, readiness and Prometheus metrics of the worker. */
  HEALTH_PORT: port(3001),
  /** Longest wait for a merchant's webhook endpoint to answer. */
  WEBHOOK_TIMEOUT_MS: positiveInt(5_000),
  /** Webhook deliveries are retried with exponential backoff for this long, then given up. */
  WEBHOOK_RETRY_FOR_MS: positiveInt(24 * 60 * 60 * 1000),
});
export type WorkerConfig = z.infer<typeof workerConfigSchema>;

/** apps/rail-sim: the stand-alone fake bank. */
export const railSimConfigSchema = z.object({
  ...nodeEnv,
  ...logSettings,
  RAIL_SIM_PORT: port(4100),
  RAIL_SIM_HOST: z.string().min(1).default('0.0.0.0'),
  /** Added before every answer, to model a slow bank. */
  RAIL_SIM_LATENCY_MS: z.coerce.number().int().min(0).default(0),
  /** How long a `.22` payout stays PENDING before the bank reports SUCCESS. */
  RAIL_SIM_SETTLE_AFTER_MS: z.coerce.number().int().min(0).default(2_000),
  /** How long the submit reply of a `.33` payout is held back (longer than any sane client time-out). */
  RAIL_SIM_LOST_REPLY_MS: z.coerce.number().int().min(0).default(60_000),
  /** Optional file where the bank journals its payments, so a restarted simulator remembers them. */
  RAIL_SIM_STATE_FILE: z.string().min(1).optional(),
});
export type RailSimConfig = z.infer<typeof railSimConfigSchema>;

/** packages/cli: operator commands, and the migration runner. */
export const cliConfigSchema = z.object({
  ...databaseSettings,
  ...redisSettings,
  DATABASE_POOL_SIZE: positiveInt(2),
  /** `reconcile`: a pending payout overdue by more than this counts as stuck (sweep interval + grace + margin). */
  RECONCILE_STUCK_AFTER_MS: positiveInt(60_000),
  /** `payin simulate` signs its callback with this and sends it to the API here. */
  PAYIN_CALLBACK_SECRET: secret(),
  API_BASE_URL: z.url().default('http://127.0.0.1:3000'),
});
export type CliConfig = z.infer<typeof cliConfigSchema>;
