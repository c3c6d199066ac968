import type { AcceptMeasurements, ApiMeasurements } from './api-throughput.js';
import type { BenchPlan } from './bench-plan.js';
import type { BenchEnv } from './bench-env.js';
import type { RssGrowth } from './app-process.js';
import type { EndToEndRun } from './end-to-end.js';
import type { HttpRunResult } from './http-load.js';
import type { PgbenchResult } from './pgbench-ceilings.js';
import { RATIO_GOALS } from './ratios.js';
import type { ReferenceMeasurements } from './reference-throughput.js';
import { ratioFigure, type Figure } from './results-table.js';
import type { SlowRailStage } from './slow-rail-stage.js';
import type { BankDowntimeStage } from './bank-downtime-stage.js';
import type { CaughtPayoutsStage } from './caught-payouts-stage.js';

/** An HTTP run's rate as an API figure, with its latency. */
function rate(r: HttpRunResult, name: string): Omit<Figure, 'ratio' | 'target' | 'ceiling'> {
  return {
    section: 'api',
    name,
    value: r.succeededPerSecond,
    unit: '/s',
    latencyMs: { p50: r.latencyMs.p50, p99: r.latencyMs.p99 },
  };
}

/** A run of the reference server as the ceiling of an API figure. */
function referenceCeiling(r: HttpRunResult, name: string): NonNullable<Figure['ceiling']> {
  return { name, value: r.succeededPerSecond, unit: '/s' };
}

export interface Ceilings {
  acceptSpread: PgbenchResult;
  acceptOneWallet: PgbenchResult;
  naiveOneWallet: PgbenchResult;
  naiveSpread: PgbenchResult;
  lookup: PgbenchResult;
}

/** The table: every figure beside the ceiling it is judged against and the target for the ratio. */
export function benchFigures(
  env: Pick<BenchEnv, 'plan' | 'merchants' | 'memory'>,
  ceilings: Ceilings,
  api: ApiMeasurements,
  reference: ReferenceMeasurements,
  apiRss: RssGrowth,
  endToEnd: EndToEndRun[],
  slowRail: SlowRailStage,
): Figure[] {
  const { plan } = env;
  const n = env.merchants.spread.length.toLocaleString('en-US');
  const tps = (r: PgbenchResult, section: Figure['section'], name: string): Figure => ({
    section,
    name: `${name} (${r.clients} clients, ${r.queryMode})`,
    value: r.tps,
    unit: '/s',
  });
  const pgCeiling = (r: PgbenchResult, name: string) => ({ name, value: r.tps, unit: '/s' });
  const acceptCeiling = pgCeiling(ceilings.acceptSpread, `pgbench accept, ${n} wallets`);
  const naiveCeiling = pgCeiling(ceilings.naiveOneWallet, 'pgbench naive, one wallet');
  const referenceAccept = referenceCeiling(reference.acceptImpsSpread, 'reference server accepts');
  const referenceLookup = referenceCeiling(reference.lookups, 'reference server lookups');
  const goals = RATIO_GOALS;

  const figures: Figure[] = [
    tps(ceilings.acceptSpread, 'ceiling', `pgbench accept_payouts, ${n} wallets`),
    tps(ceilings.acceptOneWallet, 'ceiling', 'pgbench accept_payouts, one wallet'),
    tps(ceilings.naiveSpread, 'ceiling', `pgbench naive 4-statement transaction, ${n} wallets`),
    tps(ceilings.naiveOneWallet, 'ceiling', 'pgbench naive 4-statement transaction, one wallet'),
    tps(ceilings.lookup, 'ceiling', 'pgbench status lookup query'),
    { ...rate(reference.acceptImpsSpread, `reference server: accepted IMPS, ${n} merchants`), section: 'ceiling' },
    { ...rate(reference.lookups, `reference server: status lookups, ${n} merchants`), section: 'ceiling' },

    ratioFigure(
      rate(api.acceptImpsSpread, `accepted IMPS, ${n} merchants`),
      acceptCeiling,
      goals.acceptSpreadToPgbench,
    ),
    ratioFigure(
      rate(api.acceptImpsSpread, `accepted IMPS, ${n} merchants (against the reference)`),
      referenceAccept,
      goals.acceptSpreadToReference,
    ),
    ratioFigure(rate(api.acceptUpiSpread, `accepted UPI, ${n} merchants`), acceptCeiling, goals.acceptSpreadToPgbench),
    ratioFigure(rate(api.acceptImpsHot, 'accepted IMPS, one merchant'), naiveCeiling, goals.acceptHotToNaive),
    ratioFigure(rate(api.acceptUpiHot, 'accepted UPI, one merchant'), naiveCeiling, goals.acceptHotToNaive),
    ratioFigure(rate(api.uncoalescedImpsSpread, `accepted IMPS, ${n} merchants, coalescing off`), acceptCeiling),
    ratioFigure(rate(api.uncoalescedImpsHot, 'accepted IMPS, one merchant, coalescing off'), naiveCeiling),
    atFractionFigure(plan, api.acceptAtFraction),
    ratioFigure(rate(api.lookups, `status lookups, ${n} merchants`), referenceLookup, goals.lookupToReference),
    ratioFigure(
      rate(api.lookups, `status lookups, ${n} merchants (against pgbench)`),
      pgCeiling(ceilings.lookup, 'pgbench lookup'),
    ),
    ...acceptCpuFigures(env, api, reference),
  ];

  figures.push(...endToEndFigures(endToEnd));

  figures.push(...slowRailFigures(slowRail));

  const budgets = { api: goals.apiPeakRssMb.atMost!, worker: goals.workerPeakRssMb.atMost! };
  for (const app of ['api', 'worker'] as const) {
    const budget = { name: 'budget', value: budgets[app], unit: 'MB' };
    const reports = env.memory.filter((m) => m.app === app);
    if (reports.length === 0) continue;
    const peak = reports.reduce((a, b) => (b.peakRssMb > a.peakRssMb ? b : a));
    figures.push(
      ratioFigure(
        { section: 'memory', name: `${app} peak RSS (VmHWM, ${peak.name})`, value: peak.peakRssMb, unit: 'MB' },
        budget,
        { atMost: 1.0 },
      ),
    );
  }
  const growth = (name: string, from: number, to: number): Figure => ({
    section: 'memory',
    name,
    value: to - from,
    unit: 'MB',
    detail: `(${from} → ${to} MB)`,
  });
  figures.push(growth(`api RSS growth over ${apiRss.seconds} s of runs`, apiRss.afterWarmupMb, apiRss.lastMb));
  const busiest = endToEnd.at(-1);
  if (busiest) {
    figures.push(
      growth(
        `worker RSS growth over the ${Math.round(busiest.windowS)} s window (concurrency ${busiest.concurrency})`,
        busiest.rssUnderLoad.afterWarmupMb,
        busiest.rssUnderLoad.lastMb,
      ),
    );
  }
  return figures;
}

/**
 * The slow-rail stage: one worker with the default concurrency against what bounds it, and three workers
 * against one (docs/performance.md, "A slow rail").
 */
function slowRailFigures(stage: SlowRailStage): Figure[] {
  const settled = (run: SlowRailStage['oneWorker'], name: string) => ({
    section: 'end to end' as const,
    name: `settled, rail ${stage.railLatencyMs} ms, ${name}`,
    value: run.settledPerSecond,
    unit: '/s',
    detail: `(backlog ${run.backlog.payouts}, ${run.unsettledAtEnd} left)`,
  });
  const { cpuLimit, oneWorkerDefault, oneWorker, threeWorkers, bound } = stage;
  return [
    {
      ...settled(cpuLimit, `1 worker, default concurrency ${cpuLimit.concurrency}`),
      name: `settled, rail 0 ms, 1 worker, default concurrency ${cpuLimit.concurrency} (CPU limit)`,
    },
    ratioFigure(
      settled(oneWorkerDefault, `1 worker, default concurrency ${oneWorkerDefault.concurrency}`),
      {
        name: bound.by === 'CPU' ? 'CPU limit (rail 0 ms, 1 worker)' : 'RAIL_MAX_TPS',
        value: bound.perSecond,
        unit: '/s',
      },
      RATIO_GOALS.slowRailOneWorkerToBound,
    ),
    ratioFigure(settled(oneWorker, `1 worker, concurrency ${oneWorker.concurrency}`), {
      name: 'concurrency ÷ latency',
      value: (oneWorker.concurrency * 1000) / stage.railLatencyMs,
      unit: '/s',
    }),
    ratioFigure(
      settled(threeWorkers, `3 workers, concurrency ${threeWorkers.concurrency} each`),
      { name: '1 worker', value: oneWorker.settledPerSecond, unit: '/s' },
      RATIO_GOALS.workerScaleAtSlowRail,
    ),
  ];
}

/**
 * The bank-downtime stage: settled/s with one of two banks down against both up, and how soon a bank that
 * came back is used again (docs/performance.md, "A bank down").
 */
export function bankDowntimeFigures(stage: BankDowntimeStage): Figure[] {
  const settled = (run: BankDowntimeStage['windows'][number], n: number) => ({
    section: 'end to end' as const,
    name: `settled, two banks, window ${n}: ${run.down === null ? 'both up' : `${run.down} down (503 to every call)`}`,
    value: run.settledPerSecond,
    unit: '/s',
    detail: `(backlog ${run.backlog.payouts}, ${run.unsettledAtEnd} left)`,
  });
  return [
    ...stage.windows.map((run, i) => settled(run, i + 1)),
    ratioFigure(
      {
        section: 'end to end',
        name: 'settled, two banks, one down (mean of its windows)',
        value: stage.oneDownPerS,
        unit: '/s',
      },
      { name: 'both up (mean of its windows)', value: stage.bothUpPerS, unit: '/s' },
      RATIO_GOALS.oneBankDownToBothUp,
    ),
    stage.recoveryToFirstPayoutS === null
      ? {
          section: 'end to end',
          name: 'a bank back: no payout reached it in the wait',
          value: stage.recoveryWaitS,
          unit: 's',
        }
      : {
          section: 'end to end',
          name: 'a bank back: its first payout after it answers again',
          value: stage.recoveryToFirstPayoutS,
          unit: 's',
        },
  ];
}

/**
 * The caught-payouts stage: how soon after a bank answers again the payouts it left undecided are settled,
 * and what the banks' books say of them (docs/performance.md, "A bank down").
 */
export function caughtPayoutsFigures(stage: CaughtPayoutsStage): Figure[] {
  const { books } = stage;
  const detail =
    `(${stage.caught} caught of ${stage.accepted} at ${stage.ratePerS}/s, primary down ${stage.downS} s; ` +
    `${books.caughtPaidByPrimary} paid by the primary, ${books.caughtAtSecondary} at the secondary, ` +
    `${books.paidByTwoBanks.length} paid by two banks)`;
  return [
    stage.settledAfterRecoveryS === null
      ? {
          section: 'end to end',
          name: `a bank back: ${stage.unsettled} of its ${stage.caught} caught payouts unsettled after the wait`,
          value: stage.waitS,
          unit: 's',
          detail,
        }
      : ratioFigure(
          {
            section: 'end to end',
            name: 'a bank back: its last caught payout settled',
            value: stage.settledAfterRecoveryS,
            unit: 's',
            detail,
          },
          { name: 'target', value: RATIO_GOALS.caughtPayoutsSettledAfterRecoveryS.atMost!, unit: 's' },
          { atMost: 1.0 },
        ),
  ];
}

/**
 * The API's and the reference server's accepts and lookups over the spread merchants, and the API's CPU per
 * accepted payout beside the reference's: the figures of the accept stage (`--only accept`), and the CPU row
 * of the full table.
 */
export function acceptStageFigures(
  env: Pick<BenchEnv, 'merchants' | 'plan'>,
  api: AcceptMeasurements,
  reference: ReferenceMeasurements,
): Figure[] {
  const n = env.merchants.spread.length.toLocaleString('en-US');
  return [
    ratioFigure(
      rate(api.acceptImpsSpread, `accepted IMPS, ${n} merchants`),
      referenceCeiling(reference.acceptImpsSpread, 'reference server accepts'),
      RATIO_GOALS.acceptSpreadToReference,
    ),
    atFractionFigure(env.plan, api.acceptAtFraction),
    ratioFigure(
      rate(api.lookups, `status lookups, ${n} merchants`),
      referenceCeiling(reference.lookups, 'reference server lookups'),
      RATIO_GOALS.lookupToReference,
    ),
    ...acceptCpuFigures(env, api, reference),
  ];
}

/** Settled per second in each end-to-end run: at a 0 ms rail against what was accepted meanwhile, else against the rail's bound. */
export function endToEndFigures(endToEnd: readonly EndToEndRun[]): Figure[] {
  const goals = RATIO_GOALS;
  const figures: Figure[] = [];
  for (const run of endToEnd) {
    const base = {
      section: 'end to end' as const,
      value: run.settledPerSecond,
      unit: '/s',
      detail: `(accepting ${Math.round(run.acceptedPerSecond)}/s)`,
    };
    if (run.railLatencyMs === 0) {
      figures.push(
        ratioFigure(
          { ...base, name: `settled, rail 0 ms, worker concurrency ${run.concurrency}` },
          { name: 'accepted in the same window', value: run.acceptedPerSecond, unit: '/s' },
          goals.settledToAccepted,
        ),
      );
    } else {
      // What the rail allows one worker: `concurrency` payouts in flight, each taking the rail's latency.
      const railBound = (run.concurrency * 1000) / run.railLatencyMs;
      figures.push(
        ratioFigure(
          { ...base, name: `settled, rail ${run.railLatencyMs} ms, worker concurrency ${run.concurrency}` },
          { name: 'concurrency ÷ latency', value: railBound, unit: '/s' },
        ),
      );
    }
  }
  return figures;
}

/** The p99 latency at a fraction of the maximum accept rate, against its target. */
function atFractionFigure(plan: Pick<BenchPlan, 'p99LoadFraction'>, run: HttpRunResult): Figure {
  return ratioFigure(
    {
      section: 'api',
      name: `p99 latency at ${Math.round(plan.p99LoadFraction * 100)} % of max (${Math.round(run.requestedRate ?? 0)}/s asked, ${Math.round(run.succeededPerSecond)}/s accepted)`,
      value: run.latencyMs.p99,
      unit: 'ms',
      latencyMs: { p50: run.latencyMs.p50, p99: run.latencyMs.p99 },
    },
    { name: 'target', value: RATIO_GOALS.p99AtHalfLoadMs.atMost!, unit: 'ms' },
    { atMost: 1.0 },
  );
}

function acceptCpuFigures(
  env: Pick<BenchEnv, 'merchants'>,
  api: Pick<ApiMeasurements, 'acceptImpsSpread'>,
  reference: ReferenceMeasurements,
): Figure[] {
  const n = env.merchants.spread.length.toLocaleString('en-US');
  return [
    ratioFigure(
      {
        section: 'api',
        name: `CPU per accepted IMPS payout, ${n} merchants`,
        value: api.acceptImpsSpread.apiCpuMsPerSuccess ?? 0,
        unit: 'ms',
      },
      { name: "the reference server's", value: reference.acceptImpsSpread.apiCpuMsPerSuccess ?? 0, unit: 'ms' },
      RATIO_GOALS.apiCpuPerAcceptToReference,
    ),
  ];
}
