import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { BenchMerchants } from './bench-database.js';
import type { BenchOptions } from './bench-options.js';
import type { BenchPlan } from './bench-plan.js';
import { AppProcess, freePort, type AppName, type LoggedProblem, type MemoryReport } from './app-process.js';
import type { CleanupStack } from './cleanup-stack.js';
import type { CpuMeter } from './cpu-meter.js';
import type { PrismaClient } from '@payout/db';

/** What every phase of the bench works with: its plan, its own database and queue prefix, its merchants. */
export interface BenchEnv {
  options: BenchOptions;
  plan: BenchPlan;
  cleanup: CleanupStack;
  log: (line: string) => void;
  /** Aborted when the bench is interrupted: no new run starts, and a running load stops. */
  signal: AbortSignal;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  db: PrismaClient;
  merchants: BenchMerchants;
  /** Every app process's memory, added as each one stops. */
  memory: (MemoryReport & { app: AppName })[];
  /** Warnings and errors the app processes logged, by process and message. */
  problems: Record<string, Record<string, LoggedProblem>>;
  /** Who used the CPU during a run. */
  cpu: CpuMeter;
  /** The app processes running now, by pid (for the CPU meter). */
  running: Map<number, string>;
  /** Where --cpu-prof profiles go. */
  profileDir: string;
}

export interface StartedApp {
  process: AppProcess;
  port: number;
  url: string;
  /** Stops it (SIGTERM, then SIGKILL after the grace), records its memory and problems, and returns the memory. */
  stop(): Promise<MemoryReport>;
}

/**
 * Starts an app as its own process on a free port (`portVariable` tells it which), waits until `readyPath`
 * answers, and makes sure it is stopped even if the bench fails or is interrupted.
 */
export async function startApp(
  env: BenchEnv,
  name: string,
  app: AppName,
  portVariable: string,
  readyPath: string,
  variables: Record<string, string>,
  /** Its port, when the bench chose it already (it names it in other variables); a free one otherwise. */
  chosenPort?: number,
): Promise<StartedApp> {
  const port = chosenPort ?? (await freePort());
  const profiled = app !== 'rail-sim';
  const nodeOptions = [
    // One directory per process: every thread writes a profile.
    ...(env.options.cpuProf && profiled ? ['--cpu-prof', `--cpu-prof-dir=${join(env.profileDir, name)}`] : []),
    // /tmp/perf-<pid>.map, where perf looks for the names of JIT-compiled code.
    ...(env.options.perfMap && profiled ? ['--perf-basic-prof-only-functions'] : []),
  ];
  const child = AppProcess.start(
    name,
    app,
    { LOG_LEVEL: 'warn', ...variables, [portVariable]: String(port) },
    nodeOptions,
    env.options.smoke,
  );
  let report: MemoryReport | undefined;
  env.running.set(child.pid, name);
  const stop = env.cleanup.push(`stop ${name}`, async () => {
    report = await child.stop();
    env.running.delete(child.pid);
    env.memory.push({ ...report, app });
    if (child.problems.size > 0) env.problems[name] = Object.fromEntries(child.problems);
  });
  const url = `http://127.0.0.1:${port}`;
  const startedAt = Date.now();
  try {
    await child.ready(url + readyPath);
  } catch (error) {
    await stop();
    throw error;
  }
  env.log(`${name} ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  return {
    process: child,
    port,
    url,
    async stop() {
      await stop();
      return report!;
    },
  };
}

/** Waits `ms`, or rejects as soon as the bench is interrupted. */
export function sleep(env: Pick<BenchEnv, 'signal'>, ms: number): Promise<void> {
  return delay(ms, undefined, { signal: env.signal });
}
