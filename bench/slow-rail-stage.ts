import { loadConfig, workerConfigSchema } from '@payout/config';
import { countAccepted, countSettled, databaseNow } from './bench-database.js';
import { sleep, startApp, type BenchEnv, type StartedApp } from './bench-env.js';
import { describe } from './api-throughput.js';
import { describeCpu, type CpuSplit } from './cpu-meter.js';
import { emptyQueue, firstSettlement } from './end-to-end.js';
import { startLoad, type PayoutRequests } from './http-load.js';
import { slowRailBound, type SlowRailBound } from './ratios.js';

/** One window of the slow-rail stage: some workers against a rail, settling a backlog accepted before. */
export interface SlowRailRun {
  railLatencyMs: number;
  workers: number;
  /** Each worker's WORKER_CONCURRENCY. */
  concurrency: number;
  /** Whether the workers ran with WORKER_CONCURRENCY unset (its default, packages/config). */
  defaultConcurrency: boolean;
  /** The payouts accepted before the workers started, and how fast the API took them. */
  backlog: { payouts: number; acceptedPerSecond: number };
  /** Payouts settled SUCCESS in the window, per second (read from the database). */
  settledPerSecond: number;
  /** Backlog payouts still unsettled when the window closed: 0 would mean the workers ran out of work. */
  unsettledAtEnd: number;
  windowS: number;
  cpu: CpuSplit;
}

/**
 * A slow rail must not starve throughput, and workers must add up (docs/performance.md, "A slow rail").
 * First this machine's CPU limit: one worker with the default concurrency against the zero-latency rail.
 * Then three windows against a rail that takes `railLatencyMs` to answer: one worker with the default
 * concurrency, judged against what bounds it (RAIL_MAX_TPS or that CPU limit); then one worker and three
 * workers at a concurrency low enough that three of them stay under both bounds, whose ratio says whether
 * workers scale. RAIL_MAX_TPS and DATABASE_POOL_SIZE are left at their defaults, so the shared rail limiter
 * and the pool are in the way as they are in production. Each window settles a backlog the API accepted
 * before its workers started, so what is measured is the workers, not how fast the API accepts beside them
 * on a shared machine.
 */
export interface SlowRailStage {
  railLatencyMs: number;
  railMaxTps: number;
  /** WORKER_CONCURRENCY's default at this RAIL_MAX_TPS. */
  defaultConcurrency: number;
  /** What bounds one worker's settlements here: the rail's limit or the machine's CPU (bench/ratios.ts). */
  bound: SlowRailBound;
  /** One worker, default concurrency, rail at 0 ms: the machine's CPU limit for settling. */
  cpuLimit: SlowRailRun;
  oneWorkerDefault: SlowRailRun;
  oneWorker: SlowRailRun;
  threeWorkers: SlowRailRun;
}

/**
 * `rails` are the rail simulators: the slow one and the one answering at once. `endToEndPerS` (the
 * zero-latency end-to-end run's settled/s) only sizes the backlog of the CPU-limit run.
 */
export async function measureSlowRailStage(
  env: BenchEnv,
  api: StartedApp,
  rails: { slow: StartedApp; free: StartedApp },
  payouts: PayoutRequests,
  endToEndPerS: number,
): Promise<SlowRailStage> {
  const { plan } = env;
  const railLatencyMs = plan.slowRailStage.railLatencyMs;
  const defaults = loadConfig(workerConfigSchema, {});
  const railMaxTps = defaults.RAIL_MAX_TPS;
  const workerVariables = (rail: StartedApp, concurrency: number | null): Record<string, string> => ({
    // DATABASE_POOL_SIZE and RAIL_MAX_TPS at their defaults: the stage checks that the default pool keeps up
    // with the default concurrency.
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    QUEUE_PREFIX: env.queuePrefix,
    RAIL_BASE_URL: rail.url,
    ...(concurrency !== null && { WORKER_CONCURRENCY: String(concurrency) }),
    // As in the end-to-end runs: the accept runs left payouts that were never meant to settle.
    SWEEP_INTERVAL_MS: '3600000',
    SHUTDOWN_GRACE_MS: '10000',
  });

  /**
   * Accepts a backlog (the API alone, as fast as it answers), starts the workers, and counts what they
   * settle in a window once the first payout is through. The backlog is what the workers should settle in
   * the warm-up and the window at `expectedPerS`, twice over. Workers in `running` (of the same rail and
   * concurrency) take part and are started no more; the workers are stopped after unless `keepRunning`.
   */
  const measure = async (
    rail: StartedApp,
    latencyMs: number,
    workers: number,
    concurrency: number | 'default',
    expectedPerS: number,
    { running = [], keepRunning = false }: { running?: StartedApp[]; keepRunning?: boolean } = {},
  ): Promise<{ run: SlowRailRun; running: StartedApp[] }> => {
    const isDefault = concurrency === 'default';
    const each = isDefault ? defaults.WORKER_CONCURRENCY : concurrency;
    const label = `rail ${latencyMs} ms, ${workers} worker(s) × concurrency ${each}`;
    env.signal.throwIfAborted();
    await emptyQueue(env.redisUrl, env.queuePrefix);
    const startedAt = await databaseNow(env.db);
    const wanted = Math.ceil(2 * expectedPerS * (plan.warmupS + plan.durationS + latencyMs / 1000));
    const backlog = await acceptBacklog(env, api, payouts, wanted, `backlog for ${label}`);
    const started = await Promise.all(
      Array.from({ length: workers - running.length }, (_, i) =>
        startApp(
          env,
          `worker-rail-${latencyMs}ms-${workers}x${each}-${running.length + i + 1}`,
          'worker',
          'HEALTH_PORT',
          '/healthz',
          workerVariables(rail, isDefault ? null : each),
        ),
      ),
    );
    await sleep(env, plan.warmupS * 1000);
    await firstSettlement(env, startedAt);
    const from = await databaseNow(env.db);
    const { cpu } = await env.cpu.measure(() => sleep(env, plan.durationS * 1000));
    const to = await databaseNow(env.db);
    const windowS = (to.getTime() - from.getTime()) / 1000;
    const settledPerSecond = (await countSettled(env.db, from, to, startedAt)) / windowS;
    const unsettledAtEnd =
      (await countAccepted(env.db, startedAt, to)) - (await countSettled(env.db, startedAt, to, startedAt));
    const all = [...running, ...started];
    if (!keepRunning) for (const worker of all) await worker.stop();
    env.log(
      `${label}: settled ${Math.round(settledPerSecond)}/s from a backlog of ${backlog.payouts} ` +
        `(${unsettledAtEnd} left at the end)\n    ${describeCpu(cpu)}`,
    );
    if (unsettledAtEnd <= 0) env.log(`${label}: the backlog ran out before the window closed: the figure is low`);
    const run: SlowRailRun = {
      railLatencyMs: latencyMs,
      workers,
      concurrency: each,
      defaultConcurrency: isDefault,
      backlog,
      settledPerSecond,
      unsettledAtEnd,
      windowS,
      cpu,
    };
    return { run, running: keepRunning ? all : [] };
  };

  // Alone (the API idle) a worker settles faster than in the end-to-end run, which shares the CPU with
  // accepts: twice that is the backlog's guess, and a run whose backlog runs out says so.
  const cpuLimit = (await measure(rails.free, 0, 1, 'default', Math.max(2 * endToEndPerS, 50))).run;
  const bound = slowRailBound(railMaxTps, cpuLimit.settledPerSecond);
  const defaultExpected = Math.min((defaults.WORKER_CONCURRENCY * 1000) / railLatencyMs, 1.2 * bound.perSecond);
  const oneWorkerDefault = (await measure(rails.slow, railLatencyMs, 1, 'default', defaultExpected)).run;
  const concurrency = plan.slowRailStage.scaleConcurrency;
  const perWorker = (concurrency * 1000) / railLatencyMs;
  // The one worker stays for the three-worker window, joined by two more: one start fewer.
  const one = await measure(rails.slow, railLatencyMs, 1, concurrency, perWorker, { keepRunning: true });
  const oneWorker = one.run;
  const threeWorkers = (
    await measure(rails.slow, railLatencyMs, 3, concurrency, 3 * perWorker, { running: one.running })
  ).run;
  await emptyQueue(env.redisUrl, env.queuePrefix);

  return {
    railLatencyMs,
    railMaxTps,
    defaultConcurrency: defaults.WORKER_CONCURRENCY,
    bound,
    cpuLimit,
    oneWorkerDefault,
    oneWorker,
    threeWorkers,
  };
}

/** Accepts `wanted` payouts through the API as fast as it answers them, no worker running. */
export async function acceptBacklog(
  env: BenchEnv,
  api: StartedApp,
  payouts: PayoutRequests,
  wanted: number,
  label: string,
): Promise<{ payouts: number; acceptedPerSecond: number }> {
  const since = await databaseNow(env.db);
  const load = startLoad({
    label,
    url: api.url,
    connections: env.plan.connections,
    // Stopped by hand once the backlog is there.
    durationS: 600,
    requests: payouts.requests(['IMPS', 'UPI'], env.merchants.spread),
    successStatus: 202,
    signal: env.signal,
  });
  let accepted = 0;
  while (accepted < wanted) {
    await sleep(env, 200);
    accepted = await countAccepted(env.db, since, await databaseNow(env.db));
  }
  load.stop();
  const result = await load.done;
  // Requests in flight when it stopped may still land: count once more.
  const payoutsAccepted = await countAccepted(env.db, since, await databaseNow(env.db));
  env.log(`${describe(result)}; ${payoutsAccepted} accepted`);
  return { payouts: payoutsAccepted, acceptedPerSecond: result.succeededPerSecond };
}
