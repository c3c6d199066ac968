import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { apiConfigSchema, loadConfig, workerConfigSchema, type ApiConfig, type WorkerConfig } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { createPrismaClient, type PrismaClient } from '@payout/db';
import { createRailSim, type RailSim, type RailSimOptions, type RailSimServer } from '@payout/rail-sim';
import { startWorker, type RunningWorker } from '@payout/worker';
import { AppProcess } from '../support/app-process.js';
import { eventually } from '../support/eventually.js';
import { PrivatePostgres, type PrivatePostgresOptions } from '../support/private-postgres.js';
import { PrivateRedis } from '../support/private-redis.js';
import { FAST_RAIL, FAST_WORKER } from '../support/stack.js';
import { auditPayouts, auditProblems, DELIBERATELY_PENDING_PAISE, type PayoutAudit } from './payout-audit.js';

type Overrides<C> = Partial<Record<keyof C, string>>;

/**
 * One fault test file's private world: its own PostgreSQL, Redis and rail simulator, which the tests may
 * crash and restart, plus the API and workers they start against it (in-process, or as real processes
 * where the fault is a process dying). Nothing here touches the shared servers.
 */
/**
 * API settings for tests that hold a lock and need the API's statements to wait behind it until the test
 * lets go: the lock and statement time-outs (which answer 503 on their own, shown in
 * test/faults/hung-dependencies.test.ts) set far beyond any test's length.
 */
export const PATIENT_STATEMENTS = { DATABASE_LOCK_TIMEOUT_MS: '600000', DATABASE_STATEMENT_TIMEOUT_MS: '600000' };

export interface FaultStack {
  postgres: PrivatePostgres;
  redis: PrivateRedis;
  /** The test's own handles on the private database (they reconnect after a restart). */
  prisma: PrismaClient;
  pool: pg.Pool;
  /** The simulated bank; replaced by {@link restartRail}. */
  readonly railSim: RailSim;
  readonly rail: RailSimServer;
  /** Where the bank listens; the same across {@link restartRail}. */
  railUrl: string;
  queuePrefix: string;
  /** The variables that point an app at this stack. */
  appEnv(): Record<string, string>;
  startApi(overrides?: Overrides<ApiConfig>): Promise<RunningApi>;
  startWorker(overrides?: Overrides<WorkerConfig>): Promise<RunningWorker>;
  startWorkerProcess(overrides?: Overrides<WorkerConfig>): AppProcess;
  /** Stops the bank and starts a new one on the same port; it remembers every reference (state file). */
  restartRail(options?: RailSimOptions): Promise<void>;
}

export interface FaultStackOptions {
  railSim?: RailSimOptions;
  postgres?: PrivatePostgresOptions;
}

export function useFaultStack(options: FaultStackOptions = {}): { readonly current: FaultStack } {
  let stack: FaultStack | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    const [postgres, redis, stateDir] = await Promise.all([
      PrivatePostgres.start(options.postgres),
      PrivateRedis.start(),
      mkdtemp(path.join(tmpdir(), 'rail-sim-')),
    ]);
    cleanups.push(
      () => postgres.destroy(),
      () => redis.destroy(),
      () => rm(stateDir, { recursive: true, force: true }),
    );
    const stateFile = path.join(stateDir, 'bank.jsonl');
    let railSim = createRailSim({ ...FAST_RAIL, ...options.railSim, stateFile });
    let rail = await railSim.listen(0);
    const railUrl = rail.url;
    const port = Number(new URL(railUrl).port);
    cleanups.push(() => rail.close());

    const prisma = createPrismaClient({ url: postgres.databaseUrl, poolSize: 4, connectTimeoutMs: 2_000 });
    const pool = new pg.Pool({ connectionString: postgres.databaseUrl, max: 4, connectionTimeoutMillis: 2_000 });
    pool.on('error', () => undefined); // idle clients lose their server when a test crashes it
    cleanups.push(
      () => prisma.$disconnect(),
      () => pool.end(),
    );
    const queuePrefix = `faults-${randomBytes(4).toString('hex')}`;

    const appEnv = (): Record<string, string> => ({
      DATABASE_URL: postgres.databaseUrl,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: queuePrefix,
      RAIL_BASE_URL: railUrl,
      NODE_ENV: 'test',
    });

    stack = {
      postgres,
      redis,
      prisma,
      pool,
      get railSim() {
        return railSim;
      },
      get rail() {
        return rail;
      },
      railUrl,
      queuePrefix,
      appEnv,
      async startApi(overrides = {}) {
        const api = await startApi(
          loadConfig(apiConfigSchema, { ...process.env, ...appEnv(), PORT: '0', HOST: '127.0.0.1', ...overrides }),
        );
        cleanups.push(() => api.close());
        return api;
      },
      async startWorker(overrides = {}) {
        const worker = await startWorker(
          loadConfig(workerConfigSchema, { ...process.env, ...FAST_WORKER, ...appEnv(), ...overrides }),
        );
        cleanups.push(() => worker.close());
        return worker;
      },
      startWorkerProcess(overrides = {}) {
        const worker = AppProcess.start('worker', { ...FAST_WORKER, ...appEnv(), ...overrides });
        cleanups.push(() => worker.stop());
        return worker;
      },
      async restartRail(railOptions = {}) {
        await rail.close();
        railSim = createRailSim({ ...FAST_RAIL, ...options.railSim, ...railOptions, stateFile });
        rail = await railSim.listen(port);
      },
    };
  });

  afterAll(async () => {
    // Last started, first stopped: apps before the servers they talk to.
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  return {
    get current() {
      if (!stack) throw new Error('the fault stack is not started yet');
      return stack;
    },
  };
}

/** The sweeper's interval and grace in FAST_WORKER, plus margin: a payout overdue by more is stuck. */
export const STUCK_AFTER_MS = 3_000;

/**
 * Waits until nothing is left moving (every payout terminal, or `.55` and held PENDING by the bank), then
 * proves the scenario harmless: the books reconcile (stuck payouts included), every SUCCESS was paid by the
 * bank exactly once under its own reference with its UTR as Bankriff, no FAILED payout was paid, and the
 * bank paid nothing we have no payout for.
 */
export async function expectAllClear(stack: FaultStack, timeoutMs = 30_000): Promise<PayoutAudit> {
  await eventually(
    () =>
      stack.pool.query<{ id: string; state: string }>(
        `SELECT id::text, state::text FROM payouts
          WHERE status = 'PENDING' AND (amount_paise % 100 <> $1 OR state NOT IN ('AWAITING_RAIL', 'MANUAL_REVIEW'))`,
        [DELIBERATELY_PENDING_PAISE.toString()],
      ),
    (result) => result.rows.length === 0,
    { timeoutMs, intervalMs: 100, what: 'every payout to be decided' },
  );
  const audit = await auditPayouts(
    stack.prisma,
    stack.railSim.payouts().map((p) => ({ reference: p.reference, status: p.status, utr: p.utr })),
    { stuckAfterMs: STUCK_AFTER_MS },
  );
  expect(auditProblems(audit)).toEqual([]);
  // The bank's own count: one payment per reference it paid, and exactly as many as our SUCCESS payouts.
  expect(stack.railSim.stats().payments).toBe(audit.success + audit.reversed);
  return audit;
}
