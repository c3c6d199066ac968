import { afterAll, beforeAll } from 'vitest';
import { apiConfigSchema, loadConfig, workerConfigSchema, type WorkerConfig } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { createRailSim, type RailSim, type RailSimOptions, type RailSimServer } from '@payout/rail-sim';
import { startWorker, type RunningWorker } from '@payout/worker';

/** Worker settings that make the slow paths of a payout take milliseconds instead of minutes. */
export const FAST_WORKER: Partial<Record<keyof WorkerConfig, string>> = {
  WORKER_CONCURRENCY: '20',
  RAIL_CONNECT_TIMEOUT_MS: '1000',
  RAIL_RESPONSE_TIMEOUT_MS: '400',
  // Status checks every few hundred ms, and enough of them for a test's life (the real rules: docs/bank-boundary.md).
  INQUIRY_UPI_FIRST_DELAY_MS: '100',
  INQUIRY_UPI_SPACING_MS: '300',
  INQUIRY_UPI_MAX_CHECKS: '50',
  INQUIRY_IMPS_FIRST_DELAY_MS: '100',
  INQUIRY_IMPS_SPACING_MS: '300',
  INQUIRY_IMPS_MAX_CHECKS: '50',
  RAIL_NOT_FOUND_TRUSTED_AFTER_MS: '1500',
  SWEEP_INTERVAL_MS: '200',
  SWEEP_GRACE_MS: '300',
  JOB_LOCK_MS: '2000',
  SHUTDOWN_GRACE_MS: '5000',
  // Several workers run at once in tests: each takes a free port for its health endpoint.
  HEALTH_PORT: '0',
};

/** Rail simulator settings to match: `.22` decides after 300 ms, a `.33` reply is held for 5 s. */
export const FAST_RAIL: RailSimOptions = { settleAfterMs: 300, lostReplyMs: 5_000 };

export interface Stack {
  api: RunningApi;
  worker: RunningWorker;
  railSim: RailSim;
  rail: RailSimServer;
}

/** Starts the rail simulator, the API and a worker in-process for one test file, and stops them after it. */
export function useStack(
  options: { worker?: Partial<Record<keyof WorkerConfig, string>>; railSim?: RailSimOptions } = {},
): { readonly current: Stack } {
  let stack: Stack | undefined;
  beforeAll(async () => {
    const railSim = createRailSim({ ...FAST_RAIL, ...options.railSim });
    const rail = await railSim.listen(0);
    // The API asks the rail only from the console (manual resolution): the same simulator.
    const api = await startApi(
      loadConfig(apiConfigSchema, { ...process.env, PORT: '0', HOST: '127.0.0.1', RAIL_BASE_URL: rail.url }),
    );
    const worker = await startWorker(workerConfig({ RAIL_BASE_URL: rail.url, ...options.worker }));
    stack = { api, worker, railSim, rail };
  });
  afterAll(async () => {
    await stack?.worker.close();
    await stack?.api.close();
    await stack?.rail.close();
  });
  return {
    get current() {
      if (!stack) throw new Error('the stack is not started yet');
      return stack;
    },
  };
}

/** A worker configuration for this test file (its database and queue prefix) with fast timings. */
export function workerConfig(overrides: Partial<Record<keyof WorkerConfig, string>> = {}): WorkerConfig {
  return loadConfig(workerConfigSchema, { ...process.env, ...FAST_WORKER, ...overrides });
}
