import { PAYOUT_QUEUE, createWorkerConnection } from '@payout/queue';
import { Queue } from 'bullmq';
import { countAccepted, countSettled, databaseNow } from './bench-database.js';
import { sleep, startApp, type BenchEnv, type StartedApp } from './bench-env.js';
import { describe } from './api-throughput.js';
import { startLoad, type HttpRunResult, type PayoutRequests } from './http-load.js';
import type { MemoryReport } from './app-process.js';
import { describeCpu, type CpuSplit } from './cpu-meter.js';
import type { BenchPlan } from './bench-plan.js';

export interface EndToEndRun {
  railLatencyMs: number;
  concurrency: number;
  /** The stream of accepts while the worker settled (rate asked, and what the API accepted). */
  stream: HttpRunResult;
  /** Payouts settled SUCCESS in the window, per second (read from the database). */
  settledPerSecond: number;
  /**
   * Payouts accepted in the same window, per second (read from the database): what the settlements are
   * compared with. The stream's own rate also covers its warm-up and the wait for the worker's first
   * settlement, whose backlog the worker settles in the window.
   */
  acceptedPerSecond: number;
  windowS: number;
  /** Who used the machine's CPU during the window. */
  cpu: CpuSplit;
  worker: MemoryReport;
  /** RSS of the worker after the warm-up and at its last sample. */
  rssUnderLoad: { afterWarmupMb: number; lastMb: number };
}

/** One end-to-end run: the rail simulator's latency and the worker's concurrency. */
export interface EndToEndConfiguration {
  railLatencyMs: number;
  concurrency: number;
}

/** The full bench's runs: the zero-latency rail first (the settled ÷ accepted figure), then the slow rail's. */
export function endToEndConfigurations(plan: BenchPlan): EndToEndConfiguration[] {
  return [
    { railLatencyMs: 0, concurrency: plan.zeroLatencyConcurrency },
    ...plan.slowRailConcurrencies.map((concurrency) => ({ railLatencyMs: plan.railLatencyMs, concurrency })),
  ];
}

/**
 * Accepted → settled: the API, one worker process and the rail simulator as separate processes, a steady
 * stream of accepts, and the payouts settled SUCCESS in a fixed window counted in PostgreSQL. Against the
 * zero-latency rail the stream is as fast as the API answers (the worker shares the machine with it);
 * against the slow rail it is half again what the worker's concurrency allows, so the worker always has
 * work queued. Each run starts with an empty queue.
 */
export async function measureEndToEnd(
  env: BenchEnv,
  api: StartedApp,
  rails: ReadonlyMap<number, StartedApp>,
  payouts: PayoutRequests,
  configurations: readonly EndToEndConfiguration[] = endToEndConfigurations(env.plan),
): Promise<EndToEndRun[]> {
  const { plan } = env;
  const queuePrefix = env.queuePrefix;
  // The API runs before left their payouts queued; those were never meant to settle.
  await emptyQueue(env.redisUrl, queuePrefix);
  const runs: EndToEndRun[] = [];
  for (const { railLatencyMs, concurrency } of configurations) {
    env.signal.throwIfAborted();
    const startedAt = await databaseNow(env.db);
    const worker = await startApp(
      env,
      `worker-c${concurrency}-${railLatencyMs}ms`,
      'worker',
      'HEALTH_PORT',
      '/healthz',
      {
        DATABASE_URL: env.databaseUrl,
        DATABASE_POOL_SIZE: String(plan.poolSize),
        REDIS_URL: env.redisUrl,
        QUEUE_PREFIX: queuePrefix,
        RAIL_BASE_URL: rails.get(railLatencyMs)!.url,
        WORKER_CONCURRENCY: String(concurrency),
        RAIL_MAX_TPS: '100000',
        // The database holds payouts from the accept runs that were never meant to settle; a sweep would
        // queue them and blur the count. Jobs are never lost here, so nothing needs sweeping.
        SWEEP_INTERVAL_MS: '3600000',
        SHUTDOWN_GRACE_MS: '10000',
      },
    );
    const stream = startLoad({
      label: `accept stream, rail ${railLatencyMs} ms, worker concurrency ${concurrency}`,
      url: api.url,
      connections: plan.connections,
      // Stopped by hand once the window closes.
      durationS: plan.warmupS + plan.durationS + 60,
      ...(railLatencyMs > 0 && { overallRate: Math.ceil((1.5 * concurrency * 1000) / railLatencyMs) }),
      requests: payouts.requests(['IMPS', 'UPI'], env.merchants.spread),
      successStatus: 202,
      signal: env.signal,
    });
    await sleep(env, plan.warmupS * 1000);
    await firstSettlement(env, startedAt);
    const afterWarmup = worker.process.memory().samples.at(-1);
    const from = await databaseNow(env.db);
    const { cpu } = await env.cpu.measure(() => sleep(env, plan.durationS * 1000));
    const to = await databaseNow(env.db);
    stream.stop();
    const accepted = await stream.done;
    const last = worker.process.memory().samples.at(-1);
    const memory = await worker.stop();
    const windowS = (to.getTime() - from.getTime()) / 1000;
    const settledPerSecond = (await countSettled(env.db, from, to, startedAt)) / windowS;
    const acceptedPerSecond = (await countAccepted(env.db, from, to)) / windowS;
    await emptyQueue(env.redisUrl, queuePrefix);
    env.log(
      `${describe(accepted)}; in the window accepted ${Math.round(acceptedPerSecond)}/s, ` +
        `settled ${Math.round(settledPerSecond)}/s\n    ${describeCpu(cpu)}`,
    );
    runs.push({
      railLatencyMs,
      concurrency,
      stream: accepted,
      settledPerSecond,
      acceptedPerSecond,
      windowS,
      cpu,
      worker: memory,
      rssUnderLoad: { afterWarmupMb: afterWarmup?.rssMb ?? 0, lastMb: last?.rssMb ?? 0 },
    });
  }
  return runs;
}

/**
 * A fresh worker spends its first moments loading code and opening connections; the window starts once it
 * has settled a payout (or after half a minute, if it never does: the count will show it).
 */
export async function firstSettlement(env: BenchEnv, since: Date): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await countSettled(env.db, since, await databaseNow(env.db), since)) > 0) return;
    await sleep(env, 100);
  }
  env.log('the worker settled nothing within 30 s of starting');
}

/** Removes the jobs the last run left queued, so the next worker starts from an empty queue. */
export async function emptyQueue(redisUrl: string, prefix: string): Promise<void> {
  const connection = createWorkerConnection(redisUrl);
  const queue = new Queue(PAYOUT_QUEUE, { connection, prefix });
  try {
    await queue.drain(true);
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
