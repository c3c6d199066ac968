import { z } from 'zod';
import {
  databaseSettings,
  flag,
  isDevelopmentOrTest,
  hashTagQueuePrefix,
  logSettings,
  nodeEnv,
  port,
  positiveInt,
  readReplicaSettings,
  redisSettings,
  refusePlaceholderSecretsOutsideDevelopment,
  secret,
  approvalSettings,
  allowSelfApprovalOnlyInDevelopment,
  refuseDevelopmentSecondFactorKeyOutsideDevelopment,
  cliSecondFactorSettings,
  secondFactorSettings,
} from './settings.js';
import { banksSetting, withBanks } from './banks.js';
import { railSimBankSettings } from './rail-sim-banks.js';

/**
 * Where the bank's rail is and how long it may take, as `createRailAdapter` (packages/rails/src/rail-factory.ts)
 * reads them: the worker submits and asks, the API only asks.
 */
const railSettings = {
  /** The sponsor banks (docs/banks.md); unset, the one bank at RAIL_BASE_URL. */
  ...banksSetting,
  RAIL_BASE_URL: z.url().default('http://127.0.0.1:4100'),
  RAIL_CONNECT_TIMEOUT_MS: positiveInt(2_000),
  RAIL_RESPONSE_TIMEOUT_MS: positiveInt(10_000),
};

/**
 * WORKER_CONCURRENCY, or its default: enough jobs in flight for one worker to keep the rail at its limit,
 * RAIL_MAX_TPS calls a second each taking RAIL_TYPICAL_LATENCY_MS (Little's law).
 */
function withWorkerConcurrency<
  C extends { WORKER_CONCURRENCY?: number | undefined; RAIL_MAX_TPS: number; RAIL_TYPICAL_LATENCY_MS: number },
>(config: C): C & { WORKER_CONCURRENCY: number } {
  const WORKER_CONCURRENCY =
    config.WORKER_CONCURRENCY ?? Math.max(1, Math.ceil((config.RAIL_MAX_TPS * config.RAIL_TYPICAL_LATENCY_MS) / 1000));
  return { ...config, WORKER_CONCURRENCY };
}

/** The webhook setting for local receivers is refused in production, so it cannot leak into a deployment. */
function allowPrivateWebhookAddressesOnlyInTests(
  config: { NODE_ENV: string; WEBHOOK_ALLOW_PRIVATE_ADDRESSES: boolean },
  ctx: z.RefinementCtx,
): void {
  if (config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES && !isDevelopmentOrTest(config.NODE_ENV)) {
    ctx.addIssue({
      code: 'custom',
      path: ['WEBHOOK_ALLOW_PRIVATE_ADDRESSES'],
      message: `is for tests and development only (NODE_ENV is ${config.NODE_ENV})`,
    });
  }
}

/**
 * Statement reconciliation (docs/reconciliation.md): read by `recon statement` and by the admin listener,
 * which applies a run (`POST /admin/statements`).
 */
const statementSettings = {
  /** A statement file (of an applied run: all its files together) larger than this is refused whole, before it is read. */
  STATEMENT_MAX_BYTES: positiveInt(50 * 1024 * 1024),
  /**
   * A statement for another account is refused whole; unset (or empty, as the base ConfigMap carries it), the
   * account is only reported (docs/reconciliation-formats.md) — and in production no statement is applied.
   */
  STATEMENT_SETTLEMENT_ACCOUNT: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).optional()),
};

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
    /** How long accepted payouts gather before their jobs are queued together (0: only those of one event-loop turn). */
    ENQUEUE_GATHER_MS: z.coerce.number().int().min(0).max(1_000).default(5),
    /** How long a merchant's credentials are cached; a suspension or revoked token takes effect within it. */
    AUTH_CACHE_TTL_MS: positiveInt(5_000),
    /** Coalesce concurrent payout accepts into one database statement (see coalescing-accepter.ts). */
    ACCEPT_COALESCING: flag(true),
    ACCEPT_MAX_BATCH: positiveInt(200),
    /** Statements in flight at once; keep below DATABASE_POOL_SIZE so lookups always find a connection. */
    ACCEPT_MAX_IN_FLIGHT: positiveInt(4),
    /** Shared secret of the collection provider's pay-in callbacks (HMAC-SHA256 of the raw body). */
    PAYIN_CALLBACK_SECRET: secret(),
    /** Bearer token (or Basic password) of /admin/… for scripts; people sign in to the console instead. */
    ADMIN_TOKEN: secret(),
    /**
     * The admin listener: the support console, /admin/… and the queue dashboard. Loopback by default, since
     * it is for an internal load balancer or a VPN, never the merchants' port.
     */
    ADMIN_HOST: z.string().min(1).default('127.0.0.1'),
    ADMIN_PORT: port(3002),
    /**
     * The metrics listener: GET /metrics alone, for Prometheus, so the scraper is let through to this port
     * and never to the console (docs/operations.md, "The admin listener"). Loopback by default, as the admin
     * listener.
     */
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    METRICS_PORT: port(9464),
    /**
     * Express's `trust proxy` for the admin listener when it sits behind a TLS-terminating proxy (e.g.
     * `loopback`, or a hop count): then X-Forwarded-Proto makes the session cookie Secure and
     * X-Forwarded-For is the address sign-in attempts are counted by. Unset: trust no proxy.
     */
    ADMIN_TRUST_PROXY: z.string().min(1).optional(),
    /** How long a console sign-in lasts. */
    CONSOLE_SESSION_TTL_MS: positiveInt(8 * 60 * 60 * 1000),
    /** How long a CLI sign-in (`pnpm cli login`, POST /admin/sign-in) lasts: at most a day. */
    ADMIN_CLI_SIGN_IN_TTL_MS: z.coerce
      .number()
      .int()
      .positive()
      .max(24 * 60 * 60 * 1000, { error: 'ADMIN_CLI_SIGN_IN_TTL_MS is at most a day (86400000)' })
      .default(8 * 60 * 60 * 1000),
    /** Failed console sign-ins allowed per username and address within CONSOLE_SIGNIN_WINDOW_MS. */
    CONSOLE_SIGNIN_ATTEMPTS: positiveInt(5),
    CONSOLE_SIGNIN_WINDOW_MS: positiveInt(15 * 60 * 1000),
    /** Failed console sign-ins allowed per address across every username within CONSOLE_SIGNIN_WINDOW_MS. */
    CONSOLE_SIGNIN_ADDRESS_ATTEMPTS: positiveInt(20),
    /** Console password checks (scrypt, 32 MiB each) computing at once per API process; beyond, sign-in answers 503. */
    CONSOLE_SIGNIN_MAX_HASHING: positiveInt(2),
    /** The console asks the rail (only its status inquiry) before a payout is resolved by hand. */
    ...railSettings,
    /** Per-merchant rate limit: requests allowed per window, across all API processes (kept in Redis). */
    RATE_LIMIT_ENABLED: flag(true),
    RATE_LIMIT_POINTS: positiveInt(500),
    RATE_LIMIT_WINDOW_MS: positiveInt(1_000),
    /**
     * Failed authentications one client address may make per window before its requests are refused (429)
     * ahead of authentication (docs/operations.md, "Floods before authentication"). Off with RATE_LIMIT_ENABLED.
     */
    AUTH_FAILURE_LIMIT: positiveInt(100),
    AUTH_FAILURE_WINDOW_MS: positiveInt(60_000),
    /** Credential look-ups in PostgreSQL at once; further ones wait, known merchants first. */
    AUTH_LOOKUP_MAX_IN_FLIGHT: positiveInt(2),
    /** Credential look-ups of MIDs this process has not seen that may wait; beyond, 503. */
    AUTH_LOOKUP_MAX_WAITING: positiveInt(200),
    /**
     * Proxies in front of the API whose X-Forwarded-For is believed (0: none, the socket's address is the
     * client's). Set it to the number of load balancers / TLS terminators in front, or every client looks
     * like the proxy and shares one address's allowance.
     */
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    /** Longest a Redis command of the API may take before it is given up (the rate limiter falls back to memory). */
    REDIS_COMMAND_TIMEOUT_MS: positiveInt(500),
    /** PostgreSQL statement_timeout and lock_timeout of the API's connections; beyond, the answer is 503. */
    DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(5_000),
    DATABASE_LOCK_TIMEOUT_MS: positiveInt(2_000),
    ...readReplicaSettings,
    /** How long a rail's verdict on one beneficiary (account + IFSC, or UPI address) is reused. */
    VALIDATION_CACHE_TTL_MS: positiveInt(60 * 60 * 1000),
    /** Beneficiary validations one merchant may ask for per minute, across all API processes; beyond, 429. */
    VALIDATION_RATE_PER_MINUTE: positiveInt(300),
    ...approvalSettings,
    ...secondFactorSettings,
    /** The admin listener applies statement runs people send it (`POST /admin/statements`). */
    ...statementSettings,
    /**
     * Tests and development only, as for the worker: a merchant's webhook may be registered (POST
     * /admin/merchants/:mid/webhook) at a loopback or private address.
     */
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag(false),
  })
  .superRefine(refusePlaceholderSecretsOutsideDevelopment(['PAYIN_CALLBACK_SECRET', 'ADMIN_TOKEN']))
  .superRefine(refuseDevelopmentSecondFactorKeyOutsideDevelopment)
  .superRefine(allowSelfApprovalOnlyInDevelopment)
  .superRefine(allowPrivateWebhookAddressesOnlyInTests)
  .transform(withBanks)
  .transform(hashTagQueuePrefix);
export type ApiConfig = z.infer<typeof apiConfigSchema>;

const share = (fallback: number) => z.coerce.number().min(0).max(1).default(fallback);

/**
 * Routing among the sponsor banks (docs/banks.md, "Routing" and "Holding"): each bank's health window per
 * mode, when it is eliminated and back, the probe share, and how often a held payout looks for a bank.
 */
const routingSettings = {
  /** How far back a bank's health window reaches: its submits' outcomes over this long. */
  ROUTING_WINDOW_MS: positiveInt(60_000),
  /** Outcomes a window must hold before the bank is scored. */
  ROUTING_MIN_OUTCOMES: positiveInt(20),
  /** A bank scoring below this (share of submits where it did its work) is eliminated for the mode. */
  ROUTING_ELIMINATE_BELOW: share(0.5),
  /** An eliminated bank is back at this score or better… */
  ROUTING_RECOVER_AT: share(0.8),
  /** …over at least this many outcomes (its probes). */
  ROUTING_RECOVER_MIN_OUTCOMES: positiveInt(5),
  /** Share of new payouts sent to an eliminated bank as probes, so its recovery is seen. */
  ROUTING_PROBE_SHARE: share(0.05),
  /** …at most one probe per bank and mode in this many ms from each worker (0: no spacing). */
  ROUTING_PROBE_INTERVAL_MS: z.coerce.number().int().min(0).default(1_000),
  /** Banks scoring within this of the best share new payouts by their weights. */
  ROUTING_SHARE_MARGIN: share(0.05),
  /** A bank whose newest submits are this many failures in a row (5xx, time-outs) is down at once… */
  ROUTING_DOWN_AFTER_FAILURES: positiveInt(10),
  /** …or whose newest failures in a row (two at least) began this long ago, nothing healthy since: at night. */
  ROUTING_DOWN_AFTER_MS: positiveInt(15_000),
  /** How often the banks are scored (by one worker at a time) and each worker reads the scores and controls. */
  ROUTING_REFRESH_MS: positiveInt(1_000),
  /** How often a held payout looks for a bank again: it is sent within this of a bank's recovery. */
  ROUTING_HOLD_RETRY_MS: positiveInt(5_000),
};

/** Recovery needs a better score than elimination, or a bank at the edge would flap in and out. */
function recoverAboveElimination(
  config: { ROUTING_ELIMINATE_BELOW: number; ROUTING_RECOVER_AT: number },
  ctx: z.RefinementCtx,
): void {
  if (config.ROUTING_RECOVER_AT < config.ROUTING_ELIMINATE_BELOW) {
    ctx.addIssue({
      code: 'custom',
      path: ['ROUTING_RECOVER_AT'],
      message: `must be at least ROUTING_ELIMINATE_BELOW (${config.ROUTING_ELIMINATE_BELOW})`,
    });
  }
}

/** apps/worker: settles payouts through the rail. */
export const workerConfigSchema = z
  .object({
    ...nodeEnv,
    ...databaseSettings,
    ...redisSettings,
    ...logSettings,
    ...railSettings,
    /**
     * Payout jobs one worker process runs at once. A job waiting on the rail holds no CPU and no database
     * connection, so by default one worker keeps as many in flight as the rail may take in its typical
     * latency: RAIL_MAX_TPS × RAIL_TYPICAL_LATENCY_MS (500 × 1 s), more being useless under the rail's limit
     * (docs/scaling.md, docs/performance.md).
     */
    WORKER_CONCURRENCY: z.coerce.number().int().positive().optional(),
    /** How long the rail typically takes to answer; sizes WORKER_CONCURRENCY's default. */
    RAIL_TYPICAL_LATENCY_MS: positiveInt(1_000),
    /** Coalesce the settlements of concurrent jobs into one database statement (see coalescing-settler.ts). */
    SETTLE_COALESCING: flag(true),
    SETTLE_MAX_BATCH: positiveInt(50),
    /** Statements in flight at once; keep below DATABASE_POOL_SIZE so claims always find a connection. */
    SETTLE_MAX_IN_FLIGHT: positiveInt(4),
    /**
     * Calls a second to the rail across all worker processes, with one bank (BANKS unset). With BANKS, each
     * bank's own `maxTps` (docs/banks.md, "Settings").
     */
    RAIL_MAX_TPS: positiveInt(500),
    /** After this long without a final answer a payout is flagged for manual review (it stays PENDING). */
    INQUIRY_DEADLINE_MS: positiveInt(24 * 60 * 60 * 1000),
    // Status checks per mode (docs/bank-boundary.md has the rules and their sources). UPI: NPCI's circular of
    // April 2025 — the first check no earlier than 90 s after the payment, at most 3, within 2 hours.
    INQUIRY_UPI_FIRST_DELAY_MS: positiveInt(90_000),
    INQUIRY_UPI_SPACING_MS: positiveInt(45 * 60 * 1000),
    INQUIRY_UPI_MAX_CHECKS: positiveInt(3),
    // IMPS: credited within 15–30 s normally, an undetermined payment reversed by the next working day; checks
    // after the credit window, then sparingly, the statement deciding the rest.
    INQUIRY_IMPS_FIRST_DELAY_MS: positiveInt(60_000),
    INQUIRY_IMPS_SPACING_MS: positiveInt(15 * 60 * 1000),
    INQUIRY_IMPS_MAX_CHECKS: positiveInt(6),
    /**
     * A NOT_FOUND from the rail's status API fails a payout only when the rail refused its submit at least
     * this long before: its status API lags the payment itself, so an early NOT_FOUND is weak evidence.
     */
    RAIL_NOT_FOUND_TRUSTED_AFTER_MS: positiveInt(30 * 60 * 1000),
    SWEEP_INTERVAL_MS: positiveInt(15_000),
    /** How overdue a payout's next step must be before the sweeper re-queues it. */
    SWEEP_GRACE_MS: positiveInt(30_000),
    /** BullMQ job lock: a worker that dies mid-job loses its jobs to another worker after about this long. */
    JOB_LOCK_MS: positiveInt(30_000),
    SHUTDOWN_GRACE_MS: positiveInt(20_000),
    /** Health, readiness and Prometheus metrics of the worker. */
    HEALTH_PORT: port(3001),
    /** How often each worker checks the money invariants for its metrics (docs/operations.md, "Alerts: …"). */
    RECONCILE_INTERVAL_MS: positiveInt(10 * 60 * 1000),
    /** Longest wait for a merchant's webhook endpoint to answer. */
    WEBHOOK_TIMEOUT_MS: positiveInt(5_000),
    /**
     * Test-only: let webhooks reach loopback and private addresses (the tests' receivers listen on 127.0.0.1).
     * Never in production: a merchant's URL could otherwise reach the service's own network.
     */
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag(false),
    /** Webhook deliveries are retried with exponential backoff for this long, then given up. */
    WEBHOOK_RETRY_FOR_MS: positiveInt(24 * 60 * 60 * 1000),
    ...routingSettings,
  })
  .superRefine(allowPrivateWebhookAddressesOnlyInTests)
  .superRefine(recoverAboveElimination)
  .transform(withWorkerConcurrency)
  .transform(withBanks)
  .transform(hashTagQueuePrefix);
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
  /** `echo`: a known reference submitted again answers its current state; `refuse`: 400 DUPLICATE_REFERENCE. */
  RAIL_SIM_DUPLICATES: z.enum(['echo', 'refuse']).default('echo'),
  /** How long the status API says NOT_FOUND for a `.88` payout it has paid. */
  RAIL_SIM_STATUS_LAG_MS: z.coerce.number().int().min(0).default(30_000),
  /** How long a `.66` payout stays PENDING before it is deemed successful. */
  RAIL_SIM_DEEMED_SUCCESS_MS: z.coerce.number().int().min(0).default(300_000),
  /** How long after its payment a `.99` payout comes back (REVERSED). */
  RAIL_SIM_REVERSE_AFTER_MS: z.coerce.number().int().min(0).default(60_000),
  /** Several banks in one process, and the single bank's fault schedule (docs/rail-sim.md). */
  ...railSimBankSettings,
  /** Where a running simulator is asked for its statement (`pnpm rail-sim:statement`, without `--url`). */
  RAIL_BASE_URL: railSettings.RAIL_BASE_URL,
});
export type RailSimConfig = z.infer<typeof railSimConfigSchema>;

/** packages/cli: operator commands, and the migration runner. */
export const cliConfigSchema = z
  .object({
    ...nodeEnv,
    ...databaseSettings,
    ...redisSettings,
    DATABASE_POOL_SIZE: positiveInt(2),
    /** `reconcile`: a pending payout overdue by more than this counts as stuck (sweep interval + grace + margin). */
    RECONCILE_STUCK_AFTER_MS: positiveInt(60_000),
    ...statementSettings,
    /** The sponsor banks a statement may be for (docs/banks.md); unset, the one bank at RAIL_BASE_URL. */
    ...banksSetting,
    RAIL_BASE_URL: railSettings.RAIL_BASE_URL,
    /** `payin simulate` signs its callback with this (never the placeholder outside development) and sends it here. */
    PAYIN_CALLBACK_SECRET: secret(),
    API_BASE_URL: z.url().default('http://127.0.0.1:3000'),
    /** Tests and development only, as for the worker: `merchant webhook` accepts loopback and private addresses. */
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag(false),
    ...approvalSettings,
    /** `console second-factor reseal` seals every seed again under SECOND_FACTOR_KEY. */
    ...cliSecondFactorSettings,
    /** Commands that act as a person are sent here, with that person's credential (docs/operations.md, "Security model"). */
    ADMIN_URL: z.url().default('http://127.0.0.1:3002'),
    /** A personal API key made on the console (/console/keys); unset, the sign-in of `pnpm cli login` is used. */
    PAYOUT_ADMIN_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).optional()),
    /** Where `pnpm cli login` keeps its sign-in (mode 0600); default `~/.config/payout-gateway/credential.json`. */
    PAYOUT_CLI_CREDENTIALS: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  })
  .superRefine(allowPrivateWebhookAddressesOnlyInTests)
  .superRefine(allowSelfApprovalOnlyInDevelopment)
  .superRefine(refuseDevelopmentSecondFactorKeyOutsideDevelopment)
  .transform(withBanks)
  .transform(hashTagQueuePrefix);
export type CliConfig = z.infer<typeof cliConfigSchema>;
