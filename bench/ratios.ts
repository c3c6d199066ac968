// The figures the service is judged by (docs/performance.md, "Targets"): each a ratio to a
// ceiling measured in the same run, or an absolute figure with its budget, plus the goal it is held to.
// Pure: the bench's measurements in, numbers and verdicts out.

import { STATEMENT_MEMORY_BUDGET_MB } from '@payout/use-cases';

/** The top-level `ratios` of bench/results/<time>.json. null: a figure the run could not measure. */
export interface Ratios {
  /** Accepts over the spread merchants ÷ pgbench `accept_payouts` over as many wallets. */
  acceptSpreadToPgbench: number | null;
  /** Accepts on one merchant ÷ pgbench's naive one-transaction-per-payout ceiling on one wallet. */
  acceptHotToNaive: number | null;
  /** Accepts over the spread merchants ÷ the reference server's, same load. */
  acceptSpreadToReference: number | null;
  /** Status lookups ÷ the reference server's, same load. */
  lookupToReference: number | null;
  /**
   * The API's CPU per accepted IMPS payout over the spread merchants ÷ the reference server's, same load: what
   * the API does per accept beyond the credential check, lossless JSON, paise and Ack_no the reference does.
   * Steadier than the throughput ratios, which move with what else the machine's cores are doing.
   */
  apiCpuPerAcceptToReference: number | null;
  /** p99 latency (ms) of accepts over the spread merchants asked at half the measured maximum rate. */
  p99AtHalfLoadMs: number | null;
  /** Payouts of the bench's 5,000-item bulk batch whose job the API did not queue in Redis (left to the sweeper). */
  bulkPayoutsLeftToSweeper: number | null;
  /** The highest VmHWM of any API process of the run. */
  apiPeakRssMb: number | null;
  /** The highest VmHWM of any worker process of the run. */
  workerPeakRssMb: number | null;
  /** Settled ÷ accepted per second, both in the window of the end-to-end run against the zero-latency rail. */
  settledToAccepted: number | null;
  /** Against the 1 s rail, settled/s of three workers ÷ one worker's, same concurrency each. */
  workerScaleAtSlowRail: number | null;
  /**
   * Against the 1 s rail, one worker with the default concurrency: settled/s ÷ what bounds it, RAIL_MAX_TPS or
   * this machine's CPU limit, whichever is lower ({@link slowRailBound}).
   */
  slowRailOneWorkerToBound: number | null;
  /**
   * Status lookups by the API with its default logging (LOG_LEVEL=info) ÷ the same lookups by the same API with
   * logging off: what the access lines cost (bench/lookup-logging.ts).
   */
  lookupLoggingCost: number | null;
  /**
   * Two banks, each with a maxTps out of one worker's reach: settled/s of one worker with the primary down (503 to every
   * call) ÷ with both up (bench/bank-downtime-stage.ts).
   */
  oneBankDownToBothUp: number | null;
  /** Seconds from a down bank answering again to the first payout it accepted (a probe or a routed payout). */
  bankRecoveryToFirstPayoutS: number | null;
  /**
   * Seconds from a bank down for a minute answering again to the last of the payouts it left OUTCOME_UNKNOWN
   * being settled, with the production status-check schedule (bench/caught-payouts-stage.ts).
   */
  caughtPayoutsSettledAfterRecoveryS: number | null;
  /** Lines/s of `recon statement` reading the largest MT940 statement of the statement stage (bench/statement-stage.ts). */
  statementLinesPerS: number | null;
  /** The highest peak RSS of `recon statement` over the statement stage's runs. */
  statementPeakRssMb: number | null;
  /** Peak RSS of `recon statement` at the stage's largest statement ÷ at its smallest (1,000,000 ÷ 20,000 lines). */
  statementRssGrowth: number | null;
  /**
   * GET /api/payouts: p50 latency of the slowest of three queries (first page, a deep page, one day and mode) for
   * a merchant with 10,000,000 payouts ÷ p50 of the first page for a merchant with a few
   * (bench/payout-list-stage.ts).
   */
  payoutListAtScaleToSmall: number | null;
}

export type RatioName = keyof Ratios;

export interface Goal {
  atLeast?: number;
  atMost?: number;
}

/** The goals, in the order the table shows them. */
export const RATIO_GOALS: Readonly<Record<RatioName, Goal>> = {
  acceptSpreadToPgbench: { atLeast: 0.6 },
  acceptSpreadToReference: { atLeast: 0.9 },
  lookupToReference: { atLeast: 0.85 },
  apiCpuPerAcceptToReference: { atMost: 1.5 },
  acceptHotToNaive: { atLeast: 1.5 },
  p99AtHalfLoadMs: { atMost: 50 },
  bulkPayoutsLeftToSweeper: { atMost: 0 },
  apiPeakRssMb: { atMost: 200 },
  workerPeakRssMb: { atMost: 200 },
  settledToAccepted: { atLeast: 0.9 },
  workerScaleAtSlowRail: { atLeast: 2.7 },
  slowRailOneWorkerToBound: { atLeast: 0.8 },
  lookupLoggingCost: { atLeast: 0.9 },
  oneBankDownToBothUp: { atLeast: 0.9 },
  bankRecoveryToFirstPayoutS: { atMost: 10 },
  // A minute, where the status-check schedule alone would take up to INQUIRY_IMPS_SPACING_MS (15 minutes).
  caughtPayoutsSettledAfterRecoveryS: { atMost: 60 },
  // A million lines in under two minutes; within the statement Job's budget (docs/reconciliation.md, "Memory").
  statementLinesPerS: { atLeast: 8334 },
  statementPeakRssMb: { atMost: STATEMENT_MEMORY_BUDGET_MB },
  statementRssGrowth: { atMost: 1.5 },
  // Read from the merchant's index, a page costs about what it costs a merchant with a few payouts; a scan of
  // the merchant's payouts would be hundreds of times slower.
  payoutListAtScaleToSmall: { atMost: 3 },
};

/** What bounds one worker's settlements against a slow rail: the rail's limit, or this machine's CPU. */
export interface SlowRailBound {
  by: 'RAIL_MAX_TPS' | 'CPU';
  perSecond: number;
}

/**
 * The lower of RAIL_MAX_TPS (the shared limiter lets no more through) and the machine's CPU limit (what one
 * worker settles when the rail costs nothing, measured in the same bench run). With enough payouts in flight
 * a slow rail costs no CPU, so one worker should come close to it.
 */
export function slowRailBound(railMaxTps: number, cpuLimitPerS: number): SlowRailBound {
  return cpuLimitPerS > 0 && cpuLimitPerS < railMaxTps
    ? { by: 'CPU', perSecond: cpuLimitPerS }
    : { by: 'RAIL_MAX_TPS', perSecond: railMaxTps };
}

/** What the ratios are computed from: rates per second, milliseconds, megabytes. */
export interface RatioInputs {
  pgbenchAcceptSpreadTps: number;
  pgbenchNaiveOneWalletTps: number;
  acceptSpreadPerS: number;
  acceptHotPerS: number;
  referenceAcceptSpreadPerS: number;
  lookupsPerS: number;
  referenceLookupsPerS: number;
  /** CPU ms the API and the reference server spent per accepted IMPS payout over the spread merchants. */
  apiCpuMsPerAccept: number;
  referenceCpuMsPerAccept: number;
  p99AtHalfLoadMs: number;
  /** Peak RSS of every app process of the run. */
  memory: readonly { app: string; peakRssMb: number }[];
  /** The bulk stage, if it ran: how many of its payouts were left to the sweeper. */
  bulk?: { leftToSweeper: number } | undefined;
  /** The zero-latency end-to-end run, if there was one. */
  zeroLatencyRun?: { settledPerSecond: number; acceptedPerSecond: number } | undefined;
  /** The slow-rail stage, if it ran: settled/s of its windows and what bounds one worker. */
  slowRail?:
    | {
        oneWorkerDefaultPerS: number;
        bound: SlowRailBound;
        oneWorkerPerS: number;
        threeWorkersPerS: number;
      }
    | undefined;
  /** The lookup-logging stage, if it ran: lookups/s with the default logging and with logging off. */
  lookupLogging?: { defaultLoggingPerS: number; loggingOffPerS: number } | undefined;
  /** The bank-downtime stage, if it ran: settled/s with both banks up and with one down, and the recovery. */
  bankDowntime?: { bothUpPerS: number; oneDownPerS: number; recoveryToFirstPayoutS: number | null } | undefined;
  /** The caught-payouts stage, if it ran: when the last caught payout settled after the recovery (null: not all did). */
  caughtPayouts?: { settledAfterRecoveryS: number | null } | undefined;
  /** The statement stage, if it ran: its figures as bench/statement-stage.ts computes them. */
  statement?: { linesPerS: number | null; peakRssMb: number | null; rssGrowth: number | null } | undefined;
  /** The payout-list stage, if it ran: p50 ms of the large merchant's slowest query and of the small one's page. */
  payoutList?: { atScaleP50Ms: number; smallP50Ms: number } | undefined;
}

/** Ratio inputs of a stage that measured none of them: each ratio computed from them alone is unmeasured. */
export const NO_RATIO_INPUTS: RatioInputs = {
  pgbenchAcceptSpreadTps: 0,
  pgbenchNaiveOneWalletTps: 0,
  acceptSpreadPerS: 0,
  acceptHotPerS: 0,
  referenceAcceptSpreadPerS: 0,
  lookupsPerS: 0,
  referenceLookupsPerS: 0,
  apiCpuMsPerAccept: 0,
  referenceCpuMsPerAccept: 0,
  p99AtHalfLoadMs: Number.NaN,
  memory: [],
};

export function computeRatios(inputs: RatioInputs): Ratios {
  const peak = (app: string) => {
    const peaks = inputs.memory.filter((m) => m.app === app).map((m) => m.peakRssMb);
    return peaks.length ? round(Math.max(...peaks), 1) : null;
  };
  const run = inputs.zeroLatencyRun;
  const slow = inputs.slowRail;
  return {
    acceptSpreadToPgbench: ratio(inputs.acceptSpreadPerS, inputs.pgbenchAcceptSpreadTps),
    acceptHotToNaive: ratio(inputs.acceptHotPerS, inputs.pgbenchNaiveOneWalletTps),
    acceptSpreadToReference: ratio(inputs.acceptSpreadPerS, inputs.referenceAcceptSpreadPerS),
    lookupToReference: ratio(inputs.lookupsPerS, inputs.referenceLookupsPerS),
    apiCpuPerAcceptToReference: ratio(inputs.apiCpuMsPerAccept, inputs.referenceCpuMsPerAccept),
    p99AtHalfLoadMs: Number.isFinite(inputs.p99AtHalfLoadMs) ? round(inputs.p99AtHalfLoadMs, 1) : null,
    bulkPayoutsLeftToSweeper: inputs.bulk?.leftToSweeper ?? null,
    apiPeakRssMb: peak('api'),
    workerPeakRssMb: peak('worker'),
    settledToAccepted: run ? ratio(run.settledPerSecond, run.acceptedPerSecond) : null,
    workerScaleAtSlowRail: slow ? ratio(slow.threeWorkersPerS, slow.oneWorkerPerS) : null,
    slowRailOneWorkerToBound: slow ? ratio(slow.oneWorkerDefaultPerS, slow.bound.perSecond) : null,
    lookupLoggingCost: inputs.lookupLogging ? lookupLoggingCost(inputs.lookupLogging) : null,
    statementLinesPerS: inputs.statement?.linesPerS ?? null,
    statementPeakRssMb: inputs.statement?.peakRssMb ?? null,
    statementRssGrowth: inputs.statement?.rssGrowth ?? null,
    payoutListAtScaleToSmall: payoutListAtScaleToSmall(inputs.payoutList),
    ...bankDowntimeRatios(inputs.bankDowntime),
    caughtPayoutsSettledAfterRecoveryS: caughtPayoutsRatio(inputs.caughtPayouts),
  };
}

/** The caught-payouts figure; null when the stage did not run or not every caught payout settled in its wait. */
export function caughtPayoutsRatio(stage: RatioInputs['caughtPayouts']): number | null {
  const seconds = stage?.settledAfterRecoveryS;
  return seconds === null || seconds === undefined || !Number.isFinite(seconds) ? null : round(seconds, 1);
}

/** The bank-downtime stage's two figures; null when it did not run or measured nothing. */
export function bankDowntimeRatios(
  stage: RatioInputs['bankDowntime'],
): Pick<Ratios, 'oneBankDownToBothUp' | 'bankRecoveryToFirstPayoutS'> {
  const recovery = stage?.recoveryToFirstPayoutS;
  return {
    oneBankDownToBothUp: stage ? ratio(stage.oneDownPerS, stage.bothUpPerS) : null,
    bankRecoveryToFirstPayoutS:
      recovery === null || recovery === undefined || !Number.isFinite(recovery) ? null : round(recovery, 2),
  };
}

/** The payout-list figure; null when the stage did not run or measured nothing. */
export function payoutListAtScaleToSmall(stage: RatioInputs['payoutList']): number | null {
  return stage ? ratio(stage.atScaleP50Ms, stage.smallP50Ms) : null;
}

/** Lookups with the default logging ÷ with logging off. */
export function lookupLoggingCost(stage: NonNullable<RatioInputs['lookupLogging']>): number | null {
  return ratio(stage.defaultLoggingPerS, stage.loggingOffPerS);
}

/** Every ratio unmeasured: what a run of one stage alone starts from. */
export function unmeasuredRatios(): Ratios {
  return Object.fromEntries(Object.keys(RATIO_GOALS).map((name) => [name, null])) as Record<RatioName, null>;
}

/** A figure beside its goal; a figure the run could not measure meets nothing. */
export interface Verdict {
  name: RatioName;
  value: number | null;
  goal: string;
  met: boolean;
}

export function goalText(goal: Goal): string {
  return goal.atLeast !== undefined ? `≥ ${goal.atLeast}` : `≤ ${goal.atMost}`;
}

export function meets(value: number | null, goal: Goal): boolean {
  if (value === null) return false;
  if (goal.atLeast !== undefined && value < goal.atLeast) return false;
  if (goal.atMost !== undefined && value > goal.atMost) return false;
  return true;
}

export function ratioVerdicts(ratios: Ratios): Verdict[] {
  return (Object.keys(RATIO_GOALS) as RatioName[]).map((name) => ({
    name,
    value: ratios[name],
    goal: goalText(RATIO_GOALS[name]),
    met: meets(ratios[name], RATIO_GOALS[name]),
  }));
}

/** The verdicts as a plain-text table, printed after the figures. */
export function formatVerdicts(verdicts: readonly Verdict[]): string {
  const rows = verdicts.map((v) => [
    v.name,
    v.value === null ? 'not measured' : String(v.value),
    v.goal,
    v.met ? 'met' : 'NOT met',
  ]);
  const header = ['ratio', 'value', 'goal', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)].join('\n');
}

/** numerator ÷ denominator to 3 decimals; null when the denominator was not measured (0 or less). */
function ratio(numerator: number, denominator: number): number | null {
  if (!(denominator > 0) || !Number.isFinite(numerator)) return null;
  return round(numerator / denominator, 3);
}

function round(n: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(n * scale) / scale;
}
