import { loadConfig, workerConfigSchema } from '@payout/config';
import type { BenchOptions } from './bench-options.js';
import type { CaughtPayoutsPlan } from './caught-payouts-stage.js';
import type { PayoutListPlan } from './payout-list-stage.js';

/** How big each load is: the full bench, or the smoke run that only proves every path still works. */
export interface BenchPlan {
  smoke: boolean;
  /** Seconds of each measured run. */
  durationS: number;
  /** Unmeasured load before a measurement, so JIT, caches and pools are warm. */
  warmupS: number;
  /**
   * Unmeasured accepts given an HTTP server (the API, the reference server) before its first measured run.
   * Longer than `warmupS`: V8 goes on optimising the API's code for many seconds, and its compiler threads took
   * 16 % of the API's CPU in a measured run that followed 3 s of warm-up, 7 % after 10 s, 3 % after 20 s
   * (docs/performance.md, "Warming up").
   */
  serverWarmupS: number;
  /** Merchants (and wallets) the spread-out loads go over. */
  merchants: number;
  /** Payouts seeded per merchant for the lookups (TransactionIDs 1…n). */
  lookupKeysPerMerchant: number;
  /** autocannon connections for the HTTP loads. */
  connections: number;
  pgbenchClients: number;
  pgbenchThreads: number;
  /** Connections each API and worker process keeps to PostgreSQL. */
  poolSize: number;
  /**
   * Worker concurrency of the zero-latency end-to-end run (settled ÷ accepted): in the full bench, the one a
   * worker runs with by default. A payout's jobs wait on the database, the bank and Redis in turn, each for a
   * core on this shared machine; a worker with fewer in flight than the accept stream's connections settles
   * less than is accepted for want of payouts in flight, not of CPU (docs/performance.md, "Accepted →
   * settled").
   */
  zeroLatencyConcurrency: number;
  railLatencyMs: number;
  /** Worker concurrencies of the runs against the slow rail. */
  slowRailConcurrencies: number[];
  /** The p99 figure is taken at this fraction of the measured maximum accept rate. */
  p99LoadFraction: number;
  /**
   * The slow-rail stage (bench/slow-rail-stage.ts): the rail's latency, and each worker's concurrency when
   * one worker is compared with three (low enough that three stay under RAIL_MAX_TPS and the CPU).
   */
  slowRailStage: { railLatencyMs: number; scaleConcurrency: number };
  /** The statement stage (bench/statement-stage.ts): the statements' sizes in lines, smallest first. */
  statementLines: number[];
  /**
   * The caught-payouts stage (bench/caught-payouts-stage.ts): the trickle of payouts, how long both banks are
   * up before the primary goes down, how long it is down, and how long the stage waits for its caught payouts.
   */
  caughtPayoutsStage: CaughtPayoutsPlan;
  /**
   * The payout-list stage (bench/payout-list-stage.ts): the large merchant's payouts and the days they are
   * spread over, the small merchant's, and the requests timed of each query.
   */
  payoutListStage: PayoutListPlan;
}

export function benchPlan(options: BenchOptions): BenchPlan {
  const common = {
    durationS: options.durationS,
    railLatencyMs: 200,
    slowRailConcurrencies: [10, 50, 200],
    p99LoadFraction: 0.5,
    poolSize: 16,
    // 20 in flight at 1 s is ~20/s a worker: three together stay well under what one worker at the default
    // concurrency settles here (docs/performance.md, "A slow rail"), so the ratio shows the workers adding up.
    slowRailStage: { railLatencyMs: 1_000, scaleConcurrency: 20 },
  };
  if (options.smoke) {
    return {
      ...common,
      smoke: true,
      warmupS: 0.5,
      serverWarmupS: 0.5,
      merchants: 10,
      lookupKeysPerMerchant: 2,
      connections: 4,
      pgbenchClients: 2,
      pgbenchThreads: 1,
      zeroLatencyConcurrency: 10,
      // One slow-rail run is enough to prove the path; each costs a worker start.
      slowRailConcurrencies: [10],
      statementLines: [2_000, 20_000],
      // A shorter downtime catches fewer payouts; the wait still leaves room for the primary's probes to bring it back.
      caughtPayoutsStage: { ratePerS: 5, healthyS: 5, downS: 15, waitS: 45 },
      payoutListStage: {
        payouts: 20_000,
        days: 10,
        smallPayouts: 50,
        requests: 200,
        warmupRequests: 20,
        deepPages: 10,
      },
    };
  }
  return {
    ...common,
    smoke: false,
    warmupS: 3,
    serverWarmupS: 15,
    merchants: 1000,
    lookupKeysPerMerchant: 20,
    connections: 64,
    pgbenchClients: 16,
    pgbenchThreads: 2,
    zeroLatencyConcurrency: loadConfig(workerConfigSchema, {}).WORKER_CONCURRENCY,
    statementLines: [20_000, 1_000_000],
    // A minute down, as an outage that pages someone; 20 s up first, so both banks are scored before it.
    caughtPayoutsStage: { ratePerS: 5, healthyS: 20, downS: 60, waitS: 90 },
    // 10 M payouts of one merchant, 500,000 a day over 20 days; the walk goes 50 pages (5,000 payouts) in.
    payoutListStage: {
      payouts: 10_000_000,
      days: 20,
      smallPayouts: 50,
      requests: 200,
      warmupRequests: 20,
      deepPages: 50,
    },
  };
}
