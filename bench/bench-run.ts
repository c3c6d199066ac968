import { deleteKeysMatching } from '@payout/queue';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliConfigSchema, loadConfig } from '@payout/config';
import { createPrismaClient, type PrismaClient } from '@payout/db';
import {
  apiVariables,
  measureAccepts,
  measureApi,
  warmUp,
  type AcceptMeasurements,
  type ApiMeasurements,
} from './api-throughput.js';
import { rssGrowth, type RssGrowth } from './app-process.js';
import {
  acceptStageFigures,
  bankDowntimeFigures,
  benchFigures,
  caughtPayoutsFigures,
  endToEndFigures,
  type Ceilings,
} from './bench-figures.js';
import {
  abandonedBenchRuns,
  BENCH_DATABASE_PREFIX,
  benchResources,
  checkpoint,
  createBenchDatabase,
  databaseUrlFor,
  dropDatabase,
  markKept,
  postgresVersion,
  seedLookupPayouts,
  seedMerchants,
} from './bench-database.js';
import { startApp, type BenchEnv, type StartedApp } from './bench-env.js';
import type { BenchOptions, BenchStage } from './bench-options.js';
import { benchPlan, type BenchPlan } from './bench-plan.js';
import type { CleanupStack } from './cleanup-stack.js';
import { CpuMeter, ENDED_PROCESSES, OTHER_PROCESSES, type CpuSplit } from './cpu-meter.js';
import { withBulkFigures, measureBulkBatch, type BulkBatchRun } from './bulk-batch.js';
import { measureEndToEnd, type EndToEndRun } from './end-to-end.js';
import { measureSlowRailStage, type SlowRailStage } from './slow-rail-stage.js';
import { measureBankDowntimeStage, type BankDowntimeStage } from './bank-downtime-stage.js';
import { measureCaughtPayoutsStage, type CaughtPayoutsStage } from './caught-payouts-stage.js';
import { lookupLoggingFigures, measureLookupLogging, type LookupLoggingStage } from './lookup-logging.js';
import {
  measureStatementStage,
  statementFigures,
  statementRatioInputs,
  type StatementStage,
} from './statement-stage.js';
import {
  measurePayoutListStage,
  payoutListFigures,
  payoutListRatioInputs,
  type PayoutListStage,
} from './payout-list-stage.js';
import { PayoutRequests, type HttpRunResult } from './http-load.js';
import { runPgbench, type CeilingScript, type PgbenchResult } from './pgbench-ceilings.js';
import {
  bankDowntimeRatios,
  caughtPayoutsRatio,
  computeRatios,
  lookupLoggingCost,
  NO_RATIO_INPUTS,
  payoutListAtScaleToSmall,
  ratioVerdicts,
  unmeasuredRatios,
  type RatioInputs,
  type Ratios,
  type Verdict,
} from './ratios.js';
import { measureReference, startReference, type ReferenceMeasurements } from './reference-throughput.js';
import type { Figure } from './results-table.js';

export const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const PROFILES_DIR = fileURLToPath(new URL('../.tmp/bench-profiles/', import.meta.url));

/** The machine a run ran on, and how busy the rest of it was. */
export interface BenchMachine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  kernel: string;
  node: string;
  postgres: string;
  /** 1-minute load average at the start and the end (the bench's own load included). */
  loadAverage: { atStart: number; atEnd: number };
  /**
   * Cores taken by processes that are not the bench's (neither its apps, PostgreSQL, Redis nor the load
   * generator) during the measured HTTP runs: on a shared machine the figures are low by about this much.
   */
  othersCpu: { mean: number; max: number };
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  elapsedS: number;
  options: BenchOptions;
  plan: BenchPlan;
  /** null: the whole bench ({@link StageReport} is one stage alone). */
  stage: null;
  machine: BenchMachine;
  database: string;
  queuePrefix: string;
  /** Where --cpu-prof wrote the profiles (one folder per process). */
  profiles: string | null;
  /**
   * The figures the service is judged by, each a ratio to a ceiling of this run or an absolute figure
   * (bench/ratios.ts).
   */
  ratios: Ratios;
  /** Each of `ratios` beside its goal. */
  ratioVerdicts: Verdict[];
  figures: Figure[];
  ceilings: Ceilings;
  api: ApiMeasurements;
  /** The same accept and lookup loads against the reference server (bench/reference-server.ts). */
  reference: ReferenceMeasurements;
  /** A full-size bulk batch on the one-merchant wallet (docs/performance.md). */
  bulk: BulkBatchRun;
  /** The coalescing API's RSS from the end of its warm-up to its last sample, through every run it served. */
  apiRssUnderLoad: RssGrowth;
  endToEnd: EndToEndRun[];
  /** One worker and three against a 1 s rail (docs/performance.md, "A slow rail"). */
  slowRail: SlowRailStage;
  /** Status lookups with the default logging and with logging off (docs/performance.md, "What a log line costs"). */
  lookupLogging: LookupLoggingStage;
  /** Two banks, both up and then one down, and the down one's recovery (docs/performance.md, "A bank down"). */
  bankDowntime: BankDowntimeStage;
  /** A bank down for a minute and back: how soon the payouts it left undecided settle (docs/performance.md, "A bank down"). */
  caughtPayouts: CaughtPayoutsStage;
  /** `recon statement` over statements of a day (docs/reconciliation.md, "Memory"). */
  statement: StatementStage;
  /** GET /api/payouts for a merchant with 10,000,000 payouts and for one with a few (docs/performance.md). */
  payoutList: PayoutListStage;
  memory: BenchEnv['memory'];
  problems: BenchEnv['problems'];
}

/** A run of one stage alone (`--only`): its ratios (the others null), verdicts and figures only. */
export interface StageReport {
  startedAt: string;
  finishedAt: string;
  elapsedS: number;
  options: BenchOptions;
  plan: BenchPlan;
  stage: BenchStage;
  machine: BenchMachine;
  database: string;
  queuePrefix: string;
  profiles: string | null;
  ratios: Ratios;
  ratioVerdicts: Verdict[];
  figures: Figure[];
  /** The stage's own measurements: the one that ran. */
  accepts?: AcceptMeasurements;
  reference?: ReferenceMeasurements;
  endToEnd?: EndToEndRun[];
  lookupLogging?: LookupLoggingStage;
  bankDowntime?: BankDowntimeStage;
  caughtPayouts?: CaughtPayoutsStage;
  statement?: StatementStage;
  payoutList?: PayoutListStage;
  memory: BenchEnv['memory'];
  problems: BenchEnv['problems'];
}

/**
 * The whole bench: its own database (migrated, merchants seeded), the pgbench ceilings, the API alone,
 * then API + worker + rail simulator end to end. Everything it starts or creates is registered with
 * `cleanup`, which the caller runs however the bench ends.
 */
export async function runBench(
  options: BenchOptions,
  cleanup: CleanupStack,
  report: (line: string) => void,
  signal: AbortSignal,
): Promise<BenchReport | StageReport> {
  // Once interrupted, only the cleanup speaks.
  const log = (line: string) => {
    if (!signal.aborted) report(line);
  };
  const started = new Date();
  const loadAtStart = loadavg()[0]!;
  const plan = benchPlan(options);
  // The bench uses the server the CLI would (DATABASE_URL / REDIS_URL), never the database named there.
  const config = loadConfig(cliConfigSchema, process.env);
  const serverUrl = databaseUrlFor(config.DATABASE_URL, 'postgres');
  const { databaseName, queuePrefix } = benchResources(`${Date.now().toString(36)}${randomBytes(3).toString('hex')}`);

  for (const abandoned of await abandonedBenchRuns(serverUrl)) {
    await dropDatabase(serverUrl, abandoned.databaseName);
    await deleteKeysMatching(config.REDIS_URL, `${abandoned.queuePrefix}*`);
    log(`removed ${abandoned.databaseName} and its queue, left behind by a bench that was killed`);
  }
  cleanup.push(`drop ${databaseName}`, () =>
    options.keep ? markKept(serverUrl, databaseName) : dropDatabase(serverUrl, databaseName),
  );
  cleanup.push(`delete Redis keys ${queuePrefix}*`, async () => {
    await deleteKeysMatching(config.REDIS_URL, `${queuePrefix}*`);
  });
  const workDir = await mkdtemp(join(tmpdir(), 'payouts-bench-'));
  cleanup.push('remove work directory', () => rm(workDir, { recursive: true, force: true }));

  log(`database ${databaseName}, queue prefix ${queuePrefix}${options.smoke ? ', smoke run' : ''}`);
  const { databaseUrl, release: releaseDatabase } = await createBenchDatabase(serverUrl, databaseName);
  cleanup.push('release the database', releaseDatabase);
  const db = createPrismaClient({ url: databaseUrl, poolSize: 16, connectTimeoutMs: 5_000, applicationName: 'bench' });
  cleanup.push('disconnect', () => db.$disconnect());
  const merchants = await seedMerchants(db, plan.merchants);
  await seedLookupPayouts(db, merchants.spread, plan.lookupKeysPerMerchant);
  log(`seeded ${plan.merchants} + 1 funded merchants and ${plan.merchants * plan.lookupKeysPerMerchant} payouts`);

  const profileDir = join(PROFILES_DIR, databaseName.slice(BENCH_DATABASE_PREFIX.length));
  if (options.cpuProf) await mkdir(profileDir, { recursive: true });
  const running = new Map<number, string>();
  const env: BenchEnv = {
    options,
    plan,
    cleanup,
    log,
    signal,
    databaseUrl,
    redisUrl: config.REDIS_URL,
    queuePrefix,
    db,
    merchants,
    memory: [],
    problems: {},
    cpu: new CpuMeter(db, databaseName, () => running),
    running,
    profileDir,
  };

  /** A stage run alone: its own ratios judged (the others unmeasured), figures and measurements. */
  const stageReport = async (
    stage: BenchStage,
    parts: {
      ratios: Partial<Ratios>;
      cpu: (CpuSplit | undefined)[];
      figures: Figure[];
      measurements: Pick<
        StageReport,
        | 'accepts'
        | 'reference'
        | 'endToEnd'
        | 'lookupLogging'
        | 'bankDowntime'
        | 'caughtPayouts'
        | 'statement'
        | 'payoutList'
      >;
      /** Whether the stage's processes can be profiled (`recon statement` is not). */
      profiled: boolean;
    },
  ): Promise<StageReport> => {
    const ratios: Ratios = { ...unmeasuredRatios(), ...parts.ratios };
    const judged: readonly string[] = Object.keys(parts.ratios);
    const finished = new Date();
    return {
      ...timing(started, finished),
      options,
      plan,
      stage,
      machine: await machineOf(db, loadAtStart, parts.cpu),
      database: databaseName,
      queuePrefix,
      profiles: options.cpuProf && parts.profiled ? profileDir : null,
      ratios,
      ratioVerdicts: ratioVerdicts(ratios).filter((v) => judged.includes(v.name)),
      figures: parts.figures,
      ...parts.measurements,
      memory: env.memory,
      problems: env.problems,
    };
  };

  if (options.only !== null && !options.smoke) {
    log('building the apps (pnpm build)');
    buildApps();
  }

  if (options.only === 'statement') {
    const statement = await measureStatementStage(env, options.smoke);
    const { statementLinesPerS, statementPeakRssMb, statementRssGrowth } = computeRatios(
      statementRatioInputs(statement),
    );
    return stageReport(options.only, {
      ratios: { statementLinesPerS, statementPeakRssMb, statementRssGrowth },
      cpu: [],
      figures: statementFigures(statement),
      measurements: { statement },
      profiled: false,
    });
  }

  if (options.only === 'payout-list') {
    const payoutList = await measurePayoutListStage(env);
    return stageReport(options.only, {
      ratios: { payoutListAtScaleToSmall: payoutListAtScaleToSmall(payoutListRatioInputs(payoutList)) },
      cpu: [],
      figures: payoutListFigures(payoutList),
      measurements: { payoutList },
      profiled: true,
    });
  }

  if (options.only === 'accept') {
    const [api, reference] = await Promise.all([
      startApp(env, 'api', 'api', 'PORT', '/healthz', apiVariables(env, env.queuePrefix, true)),
      startReference(env),
    ]);
    const payouts = new PayoutRequests();
    const accepts = await measureAccepts(env, api, payouts);
    await api.stop();
    const referenceRuns = await measureReference(env, reference, payouts);
    const { acceptSpreadToReference, lookupToReference, apiCpuPerAcceptToReference, p99AtHalfLoadMs } = computeRatios(
      acceptRatioInputs(accepts, referenceRuns),
    );
    return stageReport(options.only, {
      ratios: { acceptSpreadToReference, lookupToReference, apiCpuPerAcceptToReference, p99AtHalfLoadMs },
      cpu: [
        accepts.acceptImpsSpread,
        accepts.acceptAtFraction,
        accepts.lookups,
        referenceRuns.acceptImpsSpread,
        referenceRuns.lookups,
      ].map((r) => r.cpu),
      figures: acceptStageFigures(env, accepts, referenceRuns),
      measurements: { accepts, reference: referenceRuns },
      profiled: true,
    });
  }

  if (options.only === 'end-to-end') {
    const [api, rail] = await Promise.all([
      startApp(env, 'api', 'api', 'PORT', '/healthz', apiVariables(env, env.queuePrefix, true)),
      startRailSim(env, 0),
    ]);
    const payouts = new PayoutRequests();
    await warmUp(env, api, payouts);
    const endToEnd = await measureEndToEnd(env, api, new Map([[0, rail]]), payouts, [
      { railLatencyMs: 0, concurrency: plan.zeroLatencyConcurrency },
    ]);
    await api.stop();
    await rail.stop();
    const run = endToEnd[0]!;
    const { settledToAccepted, workerPeakRssMb } = computeRatios({
      ...NO_RATIO_INPUTS,
      memory: env.memory,
      zeroLatencyRun: { settledPerSecond: run.settledPerSecond, acceptedPerSecond: run.acceptedPerSecond },
    });
    return stageReport(options.only, {
      ratios: { settledToAccepted, workerPeakRssMb },
      cpu: [run.cpu],
      figures: endToEndFigures(endToEnd),
      measurements: { endToEnd },
      profiled: true,
    });
  }

  if (options.only === 'lookup-logging') {
    const lookupLogging = await measureLookupLogging(env);
    return stageReport(options.only, {
      ratios: { lookupLoggingCost: lookupLoggingCost(lookupLogging) },
      cpu: lookupLogging.runs.map((r) => r.run.cpu),
      figures: lookupLoggingFigures(lookupLogging),
      measurements: { lookupLogging },
      profiled: true,
    });
  }

  if (options.only === 'bank-downtime') {
    const api = await startApp(env, 'api', 'api', 'PORT', '/healthz', apiVariables(env, env.queuePrefix, true));
    // Alone, the stage has no measured settling rate to size its backlogs by: a generous guess, and a
    // backlog that runs out says so in the log.
    const bankDowntime = await measureBankDowntimeStage(env, api, new PayoutRequests(), options.smoke ? 50 : 400);
    await api.stop();
    return stageReport(options.only, {
      ratios: bankDowntimeRatios({
        bothUpPerS: bankDowntime.bothUpPerS,
        oneDownPerS: bankDowntime.oneDownPerS,
        recoveryToFirstPayoutS: bankDowntime.recoveryToFirstPayoutS,
      }),
      cpu: bankDowntime.windows.map((w) => w.cpu),
      figures: bankDowntimeFigures(bankDowntime),
      measurements: { bankDowntime },
      profiled: true,
    });
  }

  if (options.only === 'caught-payouts') {
    const api = await startApp(env, 'api', 'api', 'PORT', '/healthz', apiVariables(env, env.queuePrefix, true));
    const caughtPayouts = await measureCaughtPayoutsStage(env, api, new PayoutRequests());
    await api.stop();
    return stageReport(options.only, {
      ratios: { caughtPayoutsSettledAfterRecoveryS: caughtPayoutsRatio(caughtPayouts) },
      cpu: [],
      figures: caughtPayoutsFigures(caughtPayouts),
      measurements: { caughtPayouts },
      profiled: true,
    });
  }

  const ceilings = await measureCeilings(env, workDir);
  if (!options.smoke) {
    // The apps run as production runs them, compiled: tsx's loader would add its own memory and CPU.
    log('building the apps (pnpm build)');
    buildApps();
  }
  const apps = await startApps(env);
  const payouts = new PayoutRequests();
  const api = await measureApi(env, apps.api, apps.uncoalescedApi, payouts);
  const lookupLogging = await measureLookupLogging(env);
  const statement = await measureStatementStage(env, options.smoke);
  const reference = await measureReference(env, apps.reference, payouts);
  const bulk = await measureBulkBatch(env, apps.api);
  const endToEnd = await measureEndToEnd(env, apps.api, apps.rails, payouts);
  const zeroLatencyRun = endToEnd.find((r) => r.railLatencyMs === 0);
  const slowRail = await measureSlowRailStage(
    env,
    apps.api,
    { slow: apps.rails.get(plan.slowRailStage.railLatencyMs)!, free: apps.rails.get(0)! },
    payouts,
    zeroLatencyRun?.settledPerSecond ?? 0,
  );
  // Sized by what one worker alone settles here (the slow-rail stage's CPU limit).
  const bankDowntime = await measureBankDowntimeStage(
    env,
    apps.api,
    payouts,
    Math.max(slowRail.cpuLimit.settledPerSecond, 20),
  );
  // Its own rail simulator and worker, after the bank-downtime stage's are stopped: a trickle, not a backlog.
  const caughtPayouts = await measureCaughtPayoutsStage(env, apps.api, payouts);
  // Last: its ten million payouts have no ledger entries, and no stage after it checks the books.
  const payoutList = await measurePayoutListStage(env);
  const apiMemory = await apps.api.stop();
  for (const rail of apps.rails.values()) await rail.stop();
  const apiRssUnderLoad = rssGrowth(api.rssAfterWarmup, apiMemory.samples.at(-1));
  const ratios = computeRatios({
    pgbenchAcceptSpreadTps: ceilings.acceptSpread.tps,
    pgbenchNaiveOneWalletTps: ceilings.naiveOneWallet.tps,
    acceptSpreadPerS: api.acceptImpsSpread.succeededPerSecond,
    acceptHotPerS: api.acceptImpsHot.succeededPerSecond,
    referenceAcceptSpreadPerS: reference.acceptImpsSpread.succeededPerSecond,
    lookupsPerS: api.lookups.succeededPerSecond,
    referenceLookupsPerS: reference.lookups.succeededPerSecond,
    apiCpuMsPerAccept: api.acceptImpsSpread.apiCpuMsPerSuccess ?? 0,
    referenceCpuMsPerAccept: reference.acceptImpsSpread.apiCpuMsPerSuccess ?? 0,
    p99AtHalfLoadMs: api.acceptAtFraction.latencyMs.p99,
    memory: env.memory,
    bulk: { leftToSweeper: bulk.leftToSweeper },
    zeroLatencyRun: zeroLatencyRun && {
      settledPerSecond: zeroLatencyRun.settledPerSecond,
      acceptedPerSecond: zeroLatencyRun.acceptedPerSecond,
    },
    slowRail: {
      oneWorkerDefaultPerS: slowRail.oneWorkerDefault.settledPerSecond,
      bound: slowRail.bound,
      oneWorkerPerS: slowRail.oneWorker.settledPerSecond,
      threeWorkersPerS: slowRail.threeWorkers.settledPerSecond,
    },
    lookupLogging,
    bankDowntime: {
      bothUpPerS: bankDowntime.bothUpPerS,
      oneDownPerS: bankDowntime.oneDownPerS,
      recoveryToFirstPayoutS: bankDowntime.recoveryToFirstPayoutS,
    },
    caughtPayouts,
    statement: statementRatioInputs(statement).statement,
    payoutList: payoutListRatioInputs(payoutList),
  });

  const finished = new Date();
  return {
    ...timing(started, finished),
    options,
    plan,
    stage: null,
    machine: await machineOf(db, loadAtStart, [
      ...[api, reference]
        .flatMap((measurements): unknown[] => Object.values(measurements))
        .flatMap((r) => (isRun(r) && r.cpu ? [r.cpu] : [])),
      ...lookupLogging.runs.map((r) => r.run.cpu),
      ...endToEnd.map((r) => r.cpu),
      ...[slowRail.cpuLimit, slowRail.oneWorkerDefault, slowRail.oneWorker, slowRail.threeWorkers].map((r) => r.cpu),
      ...bankDowntime.windows.map((w) => w.cpu),
    ]),
    database: databaseName,
    queuePrefix,
    profiles: options.cpuProf ? profileDir : null,
    ratios,
    ratioVerdicts: ratioVerdicts(ratios),
    figures: [
      ...afterSection(
        withBulkFigures(
          afterSection(benchFigures(env, ceilings, api, reference, apiRssUnderLoad, endToEnd, slowRail), 'api', [
            ...lookupLoggingFigures(lookupLogging),
            ...payoutListFigures(payoutList),
          ]),
          bulk,
          api.acceptImpsHot,
        ),
        'end to end',
        [...bankDowntimeFigures(bankDowntime), ...caughtPayoutsFigures(caughtPayouts)],
      ),
      ...statementFigures(statement),
    ],
    ceilings,
    api,
    reference,
    bulk,
    apiRssUnderLoad,
    endToEnd,
    slowRail,
    lookupLogging,
    bankDowntime,
    caughtPayouts,
    statement,
    payoutList,
    memory: env.memory,
    problems: env.problems,
  };
}

/** The accept stage's runs as ratio inputs; what it did not measure is 0 (and so unmeasured). */
function acceptRatioInputs(accepts: AcceptMeasurements, reference: ReferenceMeasurements): RatioInputs {
  return {
    ...NO_RATIO_INPUTS,
    acceptSpreadPerS: accepts.acceptImpsSpread.succeededPerSecond,
    referenceAcceptSpreadPerS: reference.acceptImpsSpread.succeededPerSecond,
    lookupsPerS: accepts.lookups.succeededPerSecond,
    referenceLookupsPerS: reference.lookups.succeededPerSecond,
    apiCpuMsPerAccept: accepts.acceptImpsSpread.apiCpuMsPerSuccess ?? 0,
    referenceCpuMsPerAccept: reference.acceptImpsSpread.apiCpuMsPerSuccess ?? 0,
    p99AtHalfLoadMs: accepts.acceptAtFraction.latencyMs.p99,
  };
}

/** `added` placed after the last figure of its section, so the table shows that section once. */
function afterSection(figures: Figure[], section: Figure['section'], added: Figure[]): Figure[] {
  const at = figures.findLastIndex((f) => f.section === section) + 1;
  return [...figures.slice(0, at), ...added, ...figures.slice(at)];
}

function timing(started: Date, finished: Date): Pick<BenchReport, 'startedAt' | 'finishedAt' | 'elapsedS'> {
  return {
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    elapsedS: Math.round((finished.getTime() - started.getTime()) / 100) / 10,
  };
}

async function machineOf(
  db: PrismaClient,
  loadAtStart: number,
  splits: (CpuSplit | undefined)[],
): Promise<BenchMachine> {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
    postgres: await postgresVersion(db),
    loadAverage: { atStart: loadAtStart, atEnd: loadavg()[0]! },
    othersCpu: othersCpu(splits.filter((split) => split !== undefined)),
  };
}
interface BenchApps {
  api: StartedApp;
  uncoalescedApi: StartedApp;
  /** The reference server: the same accept and lookup with nothing in the way. */
  reference: StartedApp;
  /** Rail simulators by added latency. */
  rails: Map<number, StartedApp>;
}

/**
 * The long-lived processes, started together (nothing is measured while they start; idle, they cost the
 * others nothing): the API, the API with coalescing off, the reference server, and one rail simulator per
 * latency.
 */
async function startApps(env: BenchEnv): Promise<BenchApps> {
  const latencies = [0, env.plan.railLatencyMs, env.plan.slowRailStage.railLatencyMs];
  const [api, uncoalescedApi, reference, ...rails] = await Promise.all([
    startApp(env, 'api', 'api', 'PORT', '/healthz', apiVariables(env, env.queuePrefix, true)),
    startApp(env, 'api-no-coalescing', 'api', 'PORT', '/healthz', apiVariables(env, `${env.queuePrefix}-nc`, false)),
    startReference(env),
    ...latencies.map((latency) => startRailSim(env, latency)),
  ]);
  return { api, uncoalescedApi, reference, rails: new Map(latencies.map((l, i) => [l, rails[i]!])) };
}

/** The rail simulator, answering every call after `latencyMs`. */
function startRailSim(env: BenchEnv, latencyMs: number): Promise<StartedApp> {
  return startApp(env, `rail-sim-${latencyMs}ms`, 'rail-sim', 'RAIL_SIM_PORT', '/health', {
    RAIL_SIM_HOST: '127.0.0.1',
    RAIL_SIM_LATENCY_MS: String(latencyMs),
  });
}

function isRun(value: unknown): value is HttpRunResult {
  return typeof value === 'object' && value !== null && 'succeededPerSecond' in value;
}

function othersCpu(splits: CpuSplit[]): { mean: number; max: number } {
  const others = splits.map((s) => (s.byUser[OTHER_PROCESSES] ?? 0) + (s.byUser[ENDED_PROCESSES] ?? 0));
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    mean: round(others.reduce((a, b) => a + b, 0) / Math.max(1, others.length)),
    max: round(Math.max(0, ...others)),
  };
}

async function measureCeilings(env: BenchEnv, workDir: string): Promise<Ceilings> {
  const { plan, merchants } = env;
  const spread = { first: merchants.spread[0]!.id, last: merchants.spread.at(-1)!.id };
  const hot = { first: merchants.hot.id, last: merchants.hot.id };
  let runIndex = 0;
  const run = async (label: string, script: CeilingScript, merchantIds: typeof spread): Promise<PgbenchResult> => {
    env.signal.throwIfAborted();
    await checkpoint(env.db);
    let stop: (() => void) | undefined;
    const unregister = env.cleanup.push(`stop pgbench ${label}`, () => Promise.resolve(stop?.()));
    try {
      const result = await runPgbench({
        script,
        databaseUrl: env.databaseUrl,
        workDir,
        clients: plan.pgbenchClients,
        threads: plan.pgbenchThreads,
        durationS: plan.durationS,
        merchantIds,
        runIndex: runIndex++,
        lookupKeys: plan.lookupKeysPerMerchant,
        onStart: (s) => (stop = s),
      });
      env.log(
        `pgbench ${label}: ${Math.round(result.tps)}/s, latency ${result.latencyAvgMs} ms` +
          (result.failed ? `, ${result.failed} failed` : '') +
          (result.problem ? ` (${result.problem})` : ''),
      );
      return result;
    } finally {
      stop = undefined;
      await unregister();
    }
  };
  const n = merchants.spread.length;
  return {
    acceptSpread: await run(`accept_payouts, ${n} wallets`, 'accept', spread),
    acceptOneWallet: await run('accept_payouts, one wallet', 'accept', hot),
    naiveSpread: await run(`naive transaction, ${n} wallets`, 'naive', spread),
    naiveOneWallet: await run('naive transaction, one wallet', 'naive', hot),
    lookup: await run('status lookup', 'lookup', spread),
  };
}

function buildApps(): void {
  const result = spawnSync('pnpm', ['-s', 'build'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`pnpm build failed (status ${result.status})`);
}
