import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { secondFactorOf, webhookDestinationPolicy, type ApiConfig, type BankSettings } from '@payout/config';
import { createPrismaClient, type PrismaClient } from '@payout/db';
import { Queue } from 'bullmq';
import { createBankRails, type BankRails } from '@payout/rails';
import {
  createPayoutProducer,
  createProducerConnection,
  WEBHOOK_QUEUE,
  type PayoutProducer,
  type RedisConnection,
} from '@payout/queue';
import { createLogger, createMetrics, type Logger, type ServiceMetrics } from '@payout/telemetry';
import { createAdminApp, type AdminDependencies } from './admin/admin-app.js';
import { passwordHashingSlots, signInLimiter, type PasswordHashingSlots } from './admin/console/sign-in-limiter.js';
import { createApp, type ApiDependencies, type DashboardPeopleDependencies } from './app.js';
import { createMetricsApp } from './operations/metrics-app.js';
import { AuthFailureLimit } from './auth/auth-failure-limit.js';
import { CredentialStore } from './auth/credential-store.js';
import { BeneficiaryValidator } from './beneficiaries/beneficiary-validator.js';
import { ValidationBanks } from './beneficiaries/validation-banks.js';
import { validationQuota } from './beneficiaries/validation-quota.js';
import { merchantRateLimit } from './auth/rate-limit.js';
import { CoalescingAccepter, directAccepter } from '@payout/use-cases';

export interface RunningApi {
  url: string;
  port: number;
  /** The admin listener: console, /admin/…, queue dashboard. */
  adminUrl: string;
  adminPort: number;
  /** The metrics listener: /metrics alone, for Prometheus. */
  metricsUrl: string;
  metricsPort: number;
  deps: ApiDependencies;
  adminDeps: AdminDependencies;
  /** Stops taking requests, lets those in flight finish, then closes PostgreSQL and Redis. */
  close(): Promise<void>;
}

/** Builds the API's dependencies from its configuration and starts listening (port 0 picks a free one). */
export async function startApi(
  config: ApiConfig,
  logger: Logger = createLogger('api', config.LOG_LEVEL),
): Promise<RunningApi> {
  const shared = openSharedResources(config, logger);
  const deps = merchantApiDependencies(config, shared);
  const adminDeps = adminDependencies(config, shared);

  const app = createApp(deps);
  // Who the client is (req.ip, what the per-address limit counts): the socket's peer, or — behind that many
  // proxies — the address they report in X-Forwarded-For.
  app.set('trust proxy', config.TRUST_PROXY_HOPS);
  const server = await listen(app.listen(config.PORT, config.HOST));
  const adminServer = await listen(createAdminApp(adminDeps).listen(config.ADMIN_PORT, config.ADMIN_HOST));
  const metricsServer = await listen(
    createMetricsApp({ metrics: shared.metrics, logger }).listen(config.METRICS_PORT, config.METRICS_HOST),
  );
  const { port } = server.address() as AddressInfo;
  const { port: adminPort } = adminServer.address() as AddressInfo;
  const { port: metricsPort } = metricsServer.address() as AddressInfo;
  logger.info(
    { port, adminPort, adminHost: config.ADMIN_HOST, metricsPort, metricsHost: config.METRICS_HOST },
    'api listening',
  );

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    adminPort,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    metricsPort,
    deps,
    adminDeps,
    async close() {
      await Promise.all([stop(server, DRAIN_MS), stop(adminServer, DRAIN_MS), stop(metricsServer, DRAIN_MS)]);
      await shared.producer.close();
      await shared.webhookQueue.close();
      await adminDeps.rails.close();
      shared.redis.disconnect();
      await shared.db.$disconnect();
      await shared.readDb?.$disconnect();
    },
  };
}

/** What both listeners share: PostgreSQL (and its lookup replica), Redis, the payouts queue, the rail. */
interface SharedResources {
  db: PrismaClient;
  readDb: PrismaClient | undefined;
  redis: RedisConnection;
  producer: PayoutProducer;
  /** The webhooks queue: the merchant API nudges a cancel's webhook there, the console its replays. */
  webhookQueue: Queue;
  /** Every configured bank's adapter: validation asks one serving the mode, a resolution the payout's own. */
  rails: BankRails<BankSettings>;
  metrics: ServiceMetrics;
  logger: Logger;
  /**
   * The process's one cap on password hashes computing at once (CONSOLE_SIGNIN_MAX_HASHING), shared by the
   * console's and the dashboard's sign-ins: the CPU it protects, the merchant API's, is one.
   */
  passwordHashing: PasswordHashingSlots;
}

function openSharedResources(config: ApiConfig, logger: Logger): SharedResources {
  const db = createPrismaClient({
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    applicationName: 'payout-gateway-api',
    // A stuck statement or a held lock answers 503 within these, rather than holding the request (and a
    // connection) for as long as PostgreSQL takes.
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
  });
  const readDb = config.READ_DATABASE_URL
    ? createPrismaClient({
        url: config.READ_DATABASE_URL,
        poolSize: config.DATABASE_POOL_SIZE,
        connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
        applicationName: 'payout-gateway-api-lookups',
      })
    : undefined;
  // Every Redis command has a deadline: a Redis that stops answering without closing the connection (paused,
  // swapping, a network black hole) costs a request at most this long.
  const redis = createProducerConnection(config, { commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS });
  redis.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis connection error'));
  const producer = createPayoutProducer({
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    timeoutMs: config.ENQUEUE_TIMEOUT_MS,
    gatherMs: config.ENQUEUE_GATHER_MS,
    onError: (error) => logger.warn({ err: error.message }, 'queue error'),
  });
  // The API asks a bank only for beneficiary validation (docs/api.md) and, from the console's manual
  // resolution, a payout's status at the bank it was sent to; it never submits a payout (the worker does).
  const rails = createBankRails(config);
  const webhookQueue = queueOf(WEBHOOK_QUEUE, redis, config.QUEUE_PREFIX);
  return {
    db,
    readDb,
    redis,
    producer,
    webhookQueue,
    rails,
    metrics: createMetrics('api'),
    logger,
    passwordHashing: passwordHashingSlots(config.CONSOLE_SIGNIN_MAX_HASHING),
  };
}

/** The merchant API's dependencies: acceptance, credentials, rate limits and beneficiary validation. */
function merchantApiDependencies(config: ApiConfig, shared: SharedResources): ApiDependencies {
  const { db, readDb, redis, producer, webhookQueue, rails, metrics, logger } = shared;
  return {
    db,
    readDb,
    redis,
    producer,
    webhookQueue,
    credentials: new CredentialStore(db, {
      ttlMs: config.AUTH_CACHE_TTL_MS,
      maxInFlight: config.AUTH_LOOKUP_MAX_IN_FLIGHT,
      maxWaiting: config.AUTH_LOOKUP_MAX_WAITING,
      onSaturated: () => metrics.authThrottled.inc({ reason: 'lookups_saturated' }),
    }),
    accepter: config.ACCEPT_COALESCING
      ? new CoalescingAccepter(db, {
          maxBatch: config.ACCEPT_MAX_BATCH,
          maxInFlight: config.ACCEPT_MAX_IN_FLIGHT,
          maxWaitMs: config.DATABASE_CONNECT_TIMEOUT_MS,
        })
      : directAccepter(db),
    logger,
    metrics,
    ...merchantLimits(config, shared),
    payinCallbackSecret: config.PAYIN_CALLBACK_SECRET,
    dashboardPeople: dashboardPeopleDependencies(config, shared),
    webhookDestinations: webhookDestinationPolicy(config),
    beneficiaryValidator: new BeneficiaryValidator(new ValidationBanks(db, rails), {
      cacheTtlMs: config.VALIDATION_CACHE_TTL_MS,
      quota: validationQuota({
        redis,
        prefix: config.QUEUE_PREFIX,
        perMinute: config.VALIDATION_RATE_PER_MINUTE,
        onFallback: (error) =>
          logger.warn({ err: (error as Error).message }, 'validation quota: Redis did not answer; counting in memory'),
      }),
    }),
  };
}

/**
 * What the merchant dashboard's sign-in needs (docs/dashboard.md, "Sessions"): limits as hard as the console's
 * (the same CONSOLE_SIGNIN_* numbers, counted under the dashboard's own keys in Redis) and the same sealing
 * keys for the seeds (SECOND_FACTOR_KEY).
 */
function dashboardPeopleDependencies(
  config: ApiConfig,
  { redis, passwordHashing }: SharedResources,
): DashboardPeopleDependencies {
  return {
    signIn: signInLimiter({
      redis,
      prefix: config.QUEUE_PREFIX,
      door: 'dashboard',
      attempts: config.CONSOLE_SIGNIN_ATTEMPTS,
      addressAttempts: config.CONSOLE_SIGNIN_ADDRESS_ATTEMPTS,
      windowMs: config.CONSOLE_SIGNIN_WINDOW_MS,
      hashing: passwordHashing,
    }),
    secondFactor: secondFactorOf(config),
  };
}

/** The per-merchant rate limit and the per-address limit on failed sign-ins, unless rate limiting is off. */
function merchantLimits(
  config: ApiConfig,
  { redis, metrics, logger }: SharedResources,
): Pick<ApiDependencies, 'rateLimit' | 'authFailures'> {
  if (!config.RATE_LIMIT_ENABLED) return { rateLimit: null, authFailures: null };
  return {
    rateLimit: merchantRateLimit({
      redis,
      prefix: config.QUEUE_PREFIX,
      points: config.RATE_LIMIT_POINTS,
      windowMs: config.RATE_LIMIT_WINDOW_MS,
      onFallback: (error) =>
        logger.warn({ err: (error as Error).message }, 'rate limiter: Redis did not answer; counting in memory'),
    }),
    authFailures: new AuthFailureLimit({
      limit: config.AUTH_FAILURE_LIMIT,
      windowMs: config.AUTH_FAILURE_WINDOW_MS,
      onRefused: () => metrics.authThrottled.inc({ reason: 'address_limited' }),
    }),
  };
}

/** The admin listener's dependencies: the console, its sign-in limits and approvals, the queue dashboard. */
function adminDependencies(config: ApiConfig, shared: SharedResources): AdminDependencies {
  const { db, redis, producer, webhookQueue, rails, metrics, logger } = shared;
  return {
    db,
    redis,
    logger,
    metrics,
    adminToken: config.ADMIN_TOKEN,
    payoutQueue: producer.queue,
    producer,
    webhookQueue,
    rails,
    signIn: signInLimiter({
      redis,
      prefix: config.QUEUE_PREFIX,
      attempts: config.CONSOLE_SIGNIN_ATTEMPTS,
      addressAttempts: config.CONSOLE_SIGNIN_ADDRESS_ATTEMPTS,
      windowMs: config.CONSOLE_SIGNIN_WINDOW_MS,
      hashing: shared.passwordHashing,
    }),
    sessionTtlMs: config.CONSOLE_SESSION_TTL_MS,
    cliSignInTtlMs: config.ADMIN_CLI_SIGN_IN_TTL_MS,
    approvals: {
      ttlMs: config.APPROVAL_TTL_MS,
      selfApproval: config.APPROVALS_ALLOW_SELF_APPROVAL,
      secondFactor: secondFactorOf(config),
    },
    statements: {
      maxBytes: config.STATEMENT_MAX_BYTES,
      production: config.NODE_ENV === 'production',
      ...(config.STATEMENT_SETTLEMENT_ACCOUNT !== undefined && {
        settlementAccount: config.STATEMENT_SETTLEMENT_ACCOUNT,
      }),
      banks: config.banks,
    },
    webhookDestinations: webhookDestinationPolicy(config),
    queueDashboardReadOnly: config.NODE_ENV === 'production',
    ...(config.ADMIN_TRUST_PROXY !== undefined && { trustProxy: trustProxySetting(config.ADMIN_TRUST_PROXY) }),
  };
}

// A queue the API nudges and the console shows; its callers answer a Redis failure per call (a job here is a
// nudge: the row is safe in PostgreSQL), and its 'error' events are Redis's, already logged where the
// connection is opened.
function queueOf(name: string, redis: RedisConnection, prefix: string): Queue {
  const queue = new Queue(name, { connection: redis, prefix });
  queue.on('error', () => undefined);
  return queue;
}

// "2" means two hops; anything else ("loopback", an address list) is Express's own notation.
function trustProxySetting(value: string): string | number {
  return /^[0-9]+$/.test(value) ? Number(value) : value;
}

async function listen(server: Server): Promise<Server> {
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerMalformedRequest);
  return server;
}

/**
 * How long a stopping API lets requests in flight finish before it closes their connections. Each request
 * is bounded by the database and enqueue time-outs (5 s, README.md "Configuration"); the pod's grace
 * (deploy/kubernetes/base/api-deployment.yaml) covers the preStop pause, this, and closing PostgreSQL and Redis.
 */
export const DRAIN_MS = 10_000;

/**
 * Stops a listener without waiting out keep-alive (65 s, longer than the pod's grace): idle connections close
 * at once; a request in flight gets its answer, and its connection closes within 100 ms of going idle;
 * whatever is still open when the drain ends is closed.
 */
function stop(server: Server, drainMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => server.closeAllConnections(), drainMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}

// Requests Node cannot even parse (broken request line, headers too large) never reach Express; answer them
// in the contract's JSON shape too rather than with Node's bare text.
function answerMalformedRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const [code, status, message] = tooLarge
    ? [431, 'REQUEST HEADER FIELDS TOO LARGE', 'The request headers are too large.']
    : [400, 'BAD REQUEST', 'The request could not be parsed as HTTP.'];
  const body = JSON.stringify({ error: true, status_code: code, status, message });
  socket.end(
    `HTTP/1.1 ${code} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}
