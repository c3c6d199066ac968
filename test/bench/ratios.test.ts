import { describe, expect, it } from 'vitest';
import {
  computeRatios,
  formatVerdicts,
  RATIO_GOALS,
  ratioVerdicts,
  slowRailBound,
  type RatioInputs,
} from '../../bench/ratios.js';

// `pnpm bench` writes these ratios for scripts to read (docs/performance.md, "Targets").
const INPUTS: RatioInputs = {
  pgbenchAcceptSpreadTps: 2_000,
  pgbenchNaiveOneWalletTps: 700,
  acceptSpreadPerS: 1_300,
  acceptHotPerS: 1_120,
  referenceAcceptSpreadPerS: 1_600,
  lookupsPerS: 3_000,
  referenceLookupsPerS: 6_000,
  apiCpuMsPerAccept: 0.3,
  referenceCpuMsPerAccept: 0.2,
  p99AtHalfLoadMs: 41.25,
  memory: [
    { app: 'api', peakRssMb: 180.2 },
    { app: 'api', peakRssMb: 195.4 },
    { app: 'worker', peakRssMb: 150 },
    { app: 'worker', peakRssMb: 210.7 },
    { app: 'rail-sim', peakRssMb: 900 },
    { app: 'reference', peakRssMb: 800 },
  ],
  bulk: { leftToSweeper: 0 },
  zeroLatencyRun: { settledPerSecond: 270, acceptedPerSecond: 300 },
  slowRail: {
    oneWorkerDefaultPerS: 216,
    bound: { by: 'CPU', perSecond: 270 },
    oneWorkerPerS: 19.5,
    threeWorkersPerS: 56.2,
  },
  lookupLogging: { defaultLoggingPerS: 2_790, loggingOffPerS: 3_000 },
  bankDowntime: { bothUpPerS: 240, oneDownPerS: 228, recoveryToFirstPayoutS: 1.2345 },
  caughtPayouts: { settledAfterRecoveryS: 41.26 },
  statement: { linesPerS: 9_100, peakRssMb: 181.4, rssGrowth: 1.12 },
  payoutList: { atScaleP50Ms: 4.2, smallP50Ms: 3.5 },
};

describe('bench ratios', () => {
  it('when computed, then each is its figure over its ceiling, and the peak RSS is the highest of that app’s processes', () => {
    expect(computeRatios(INPUTS)).toEqual({
      acceptSpreadToPgbench: 0.65,
      acceptHotToNaive: 1.6,
      acceptSpreadToReference: 0.813,
      lookupToReference: 0.5,
      apiCpuPerAcceptToReference: 1.5,
      p99AtHalfLoadMs: 41.3,
      bulkPayoutsLeftToSweeper: 0,
      apiPeakRssMb: 195.4,
      workerPeakRssMb: 210.7,
      settledToAccepted: 0.9,
      workerScaleAtSlowRail: 2.882,
      slowRailOneWorkerToBound: 0.8,
      lookupLoggingCost: 0.93,
      oneBankDownToBothUp: 0.95,
      bankRecoveryToFirstPayoutS: 1.23,
      caughtPayoutsSettledAfterRecoveryS: 41.3,
      statementLinesPerS: 9_100,
      statementPeakRssMb: 181.4,
      statementRssGrowth: 1.12,
      payoutListAtScaleToSmall: 1.2,
    });
  });

  it('when the ratios are written, then the object has exactly the keys of the targets (docs/performance.md)', () => {
    expect(Object.keys(computeRatios(INPUTS)).sort()).toEqual(
      [
        'acceptHotToNaive',
        'acceptSpreadToPgbench',
        'acceptSpreadToReference',
        'apiCpuPerAcceptToReference',
        'apiPeakRssMb',
        'bankRecoveryToFirstPayoutS',
        'bulkPayoutsLeftToSweeper',
        'caughtPayoutsSettledAfterRecoveryS',
        'lookupLoggingCost',
        'lookupToReference',
        'oneBankDownToBothUp',
        'p99AtHalfLoadMs',
        'settledToAccepted',
        'slowRailOneWorkerToBound',
        'statementLinesPerS',
        'statementPeakRssMb',
        'statementRssGrowth',
        'payoutListAtScaleToSmall',
        'workerPeakRssMb',
        'workerScaleAtSlowRail',
      ].sort(),
    );
    expect(Object.keys(RATIO_GOALS).sort()).toEqual(Object.keys(computeRatios(INPUTS)).sort());
  });

  it('when a ceiling or a process was not measured, then its ratio is null, never Infinity or NaN', () => {
    const ratios = computeRatios({
      ...INPUTS,
      pgbenchAcceptSpreadTps: 0,
      referenceLookupsPerS: Number.NaN,
      referenceCpuMsPerAccept: 0,
      p99AtHalfLoadMs: Number.NaN,
      memory: [],
      bulk: undefined,
      zeroLatencyRun: undefined,
      slowRail: undefined,
      lookupLogging: { defaultLoggingPerS: 2_000, loggingOffPerS: 0 },
      bankDowntime: { bothUpPerS: 0, oneDownPerS: 50, recoveryToFirstPayoutS: null },
      caughtPayouts: { settledAfterRecoveryS: null },
      statement: undefined,
      payoutList: { atScaleP50Ms: 4.2, smallP50Ms: 0 },
    });
    expect(ratios).toMatchObject({
      acceptSpreadToPgbench: null,
      lookupToReference: null,
      apiCpuPerAcceptToReference: null,
      p99AtHalfLoadMs: null,
      bulkPayoutsLeftToSweeper: null,
      apiPeakRssMb: null,
      workerPeakRssMb: null,
      settledToAccepted: null,
      workerScaleAtSlowRail: null,
      slowRailOneWorkerToBound: null,
      lookupLoggingCost: null,
      oneBankDownToBothUp: null,
      bankRecoveryToFirstPayoutS: null,
      caughtPayoutsSettledAfterRecoveryS: null,
      statementLinesPerS: null,
      statementPeakRssMb: null,
      statementRssGrowth: null,
      payoutListAtScaleToSmall: null,
    });
    expect(computeRatios({ ...INPUTS, payoutList: undefined }).payoutListAtScaleToSmall).toBeNull();
    expect(computeRatios({ ...INPUTS, lookupLogging: undefined }).lookupLoggingCost).toBeNull();
    expect(computeRatios({ ...INPUTS, caughtPayouts: undefined }).caughtPayoutsSettledAfterRecoveryS).toBeNull();
    expect(computeRatios({ ...INPUTS, bankDowntime: undefined })).toMatchObject({
      oneBankDownToBothUp: null,
      bankRecoveryToFirstPayoutS: null,
    });
    expect(JSON.parse(JSON.stringify(ratios))).toEqual(ratios);
  });

  it('when judged, then "at least" goals are met from the goal up, "at most" goals up to it, and an unmeasured figure meets nothing', () => {
    const verdicts = ratioVerdicts({
      ...computeRatios(INPUTS),
      acceptSpreadToPgbench: 0.6,
      p99AtHalfLoadMs: 50,
      lookupToReference: null,
      lookupLoggingCost: 0.89,
      oneBankDownToBothUp: 0.9,
      bankRecoveryToFirstPayoutS: 10.01,
      caughtPayoutsSettledAfterRecoveryS: 60,
      statementRssGrowth: 1.6,
      payoutListAtScaleToSmall: 3.01,
      bulkPayoutsLeftToSweeper: 1,
    });
    const met = Object.fromEntries(verdicts.map((v) => [v.name, v.met]));
    expect(met).toEqual({
      acceptSpreadToPgbench: true,
      acceptSpreadToReference: false,
      lookupToReference: false,
      apiCpuPerAcceptToReference: true,
      acceptHotToNaive: true,
      p99AtHalfLoadMs: true,
      bulkPayoutsLeftToSweeper: false,
      apiPeakRssMb: true,
      workerPeakRssMb: false,
      settledToAccepted: true,
      workerScaleAtSlowRail: true,
      slowRailOneWorkerToBound: true,
      lookupLoggingCost: false,
      oneBankDownToBothUp: true,
      bankRecoveryToFirstPayoutS: false,
      caughtPayoutsSettledAfterRecoveryS: true,
      statementLinesPerS: true,
      statementPeakRssMb: true,
      statementRssGrowth: false,
      payoutListAtScaleToSmall: false,
    });
    expect(verdicts.find((v) => v.name === 'p99AtHalfLoadMs')?.goal).toBe('≤ 50');
    expect(verdicts.find((v) => v.name === 'bankRecoveryToFirstPayoutS')?.goal).toBe('≤ 10');
    expect(verdicts.find((v) => v.name === 'acceptHotToNaive')?.goal).toBe('≥ 1.5');
  });

  it('when the machine settles fewer per second than RAIL_MAX_TPS, then the CPU bounds one worker at a slow rail, else the rail does', () => {
    expect(slowRailBound(500, 130)).toEqual({ by: 'CPU', perSecond: 130 });
    expect(slowRailBound(100, 130)).toEqual({ by: 'RAIL_MAX_TPS', perSecond: 100 });
    // A run with no zero-latency figure has only the rail's limit to go by.
    expect(slowRailBound(500, 0)).toEqual({ by: 'RAIL_MAX_TPS', perSecond: 500 });
  });

  it('when printed, then every ratio appears on its own line with its value, goal and verdict', () => {
    const lines = formatVerdicts(ratioVerdicts({ ...computeRatios(INPUTS), lookupToReference: null })).split('\n');
    expect(lines).toHaveLength(2 + Object.keys(RATIO_GOALS).length);
    expect(lines.find((l) => l.startsWith('workerPeakRssMb'))).toMatch(/210\.7 \| ≤ 200 +\| NOT met$/);
    expect(lines.find((l) => l.startsWith('lookupToReference'))).toMatch(/not measured \| ≥ 0\.85 +\| NOT met$/);
    expect(lines.find((l) => l.startsWith('acceptSpreadToPgbench'))).toMatch(/0\.65 \| ≥ 0\.6 +\| met$/);
  });
});
