import { apiVariables, measure } from './api-throughput.js';
import { sleep, startApp, type BenchEnv, type StartedApp } from './bench-env.js';
import { lookupRequests, startLoad, type HttpRunResult } from './http-load.js';
import { RATIO_GOALS } from './ratios.js';
import { ratioFigure, type Figure } from './results-table.js';

/**
 * What the API's own logging costs its status lookups (docs/performance.md, "What a log line costs"): the
 * same lookups against two otherwise identical APIs, one with the default LOG_LEVEL (info: an access line per
 * request) and one with LOG_LEVEL=silent.
 */
export interface LookupLoggingStage {
  /** Lookups/s with the default logging, over every round (the rounds' successes ÷ their seconds). */
  defaultLoggingPerS: number;
  /** Lookups/s with logging off, the same way. */
  loggingOffPerS: number;
  /** Lines the default-logging API wrote on stdout during its measured runs: proof that it logged. */
  defaultLoggingLines: number;
  /** Every measured run, in the order they ran. */
  runs: { logging: 'default' | 'off'; run: HttpRunResult; lines: number }[];
}

/**
 * Starts both APIs, warms each with lookups, then measures them in turn, off–default–default–off (rounds
 * of that order), so a drift in what else the machine is doing weighs on both alike. Both are stopped at
 * the end.
 */
export async function measureLookupLogging(env: BenchEnv): Promise<LookupLoggingStage> {
  const [withLogging, withoutLogging] = await Promise.all([
    startApp(env, 'api-default-logging', 'api', 'PORT', '/healthz', {
      ...apiVariables(env, `${env.queuePrefix}-log`, true),
      LOG_LEVEL: 'info',
    }),
    startApp(env, 'api-logging-off', 'api', 'PORT', '/healthz', {
      ...apiVariables(env, `${env.queuePrefix}-nolog`, true),
      LOG_LEVEL: 'silent',
    }),
  ]);
  const apis = { default: withLogging, off: withoutLogging } as const;
  const runs: LookupLoggingStage['runs'] = [];
  try {
    await warmUpLookups(env, withLogging);
    await warmUpLookups(env, withoutLogging);
    const order = env.plan.smoke ? (['off', 'default'] as const) : (['off', 'default', 'default', 'off'] as const);
    for (const logging of order) {
      const api = apis[logging];
      const before = api.process.lines;
      const run = await measure(env, api, 200, `status lookups, logging ${logging}`, {
        requests: lookupRequests(env.merchants.spread, env.plan.lookupKeysPerMerchant),
      });
      // The lines of the run's last answers may still be on their way through the pipe.
      await sleep(env, 100);
      runs.push({ logging, run, lines: api.process.lines - before });
    }
  } finally {
    await withLogging.stop();
    await withoutLogging.stop();
  }
  const rate = (logging: 'default' | 'off') => {
    const of = runs.filter((r) => r.logging === logging).map((r) => r.run);
    const seconds = of.reduce((sum, r) => sum + r.durationS, 0);
    return seconds > 0 ? of.reduce((sum, r) => sum + r.succeeded, 0) / seconds : 0;
  };
  const defaultLoggingLines = runs.filter((r) => r.logging === 'default').reduce((sum, r) => sum + r.lines, 0);
  // Not a timing check: an API that answered nothing, or a default that logged nothing, makes the ratio a lie.
  for (const { run } of runs) {
    if (run.succeeded === 0) throw new Error(`${run.label}: no successful answer (${JSON.stringify(run.statuses)})`);
  }
  if (defaultLoggingLines === 0) throw new Error('the API with the default logging wrote no access line');
  return { defaultLoggingPerS: rate('default'), loggingOffPerS: rate('off'), defaultLoggingLines, runs };
}

async function warmUpLookups(env: BenchEnv, api: StartedApp): Promise<void> {
  await startLoad({
    label: 'warm-up',
    url: api.url,
    connections: env.plan.connections,
    durationS: env.plan.warmupS,
    requests: lookupRequests(env.merchants.spread, env.plan.lookupKeysPerMerchant),
    successStatus: 200,
    signal: env.signal,
  }).done;
  await sleep(env, 200);
}

/** The stage's line of the results: lookups with the default logging against the same with logging off. */
export function lookupLoggingFigures(stage: LookupLoggingStage): Figure[] {
  return [
    ratioFigure(
      {
        section: 'api',
        name: 'status lookups, default logging (LOG_LEVEL=info)',
        value: stage.defaultLoggingPerS,
        unit: '/s',
        detail: `(${stage.defaultLoggingLines.toLocaleString('en-US')} lines logged)`,
      },
      { name: 'the same, logging off', value: stage.loggingOffPerS, unit: '/s' },
      RATIO_GOALS.lookupLoggingCost,
    ),
  ];
}
