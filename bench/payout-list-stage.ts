import { apiVariables } from './api-throughput.js';
import { checkpoint } from './bench-database.js';
import { startApp, type BenchEnv, type StartedApp } from './bench-env.js';
import type { BenchMerchant } from './bench-database.js';
import { RATIO_GOALS } from './ratios.js';
import { ratioFigure, type Figure } from './results-table.js';
import { removeSeededPayouts, seedSettledPayouts } from './statement-stage.js';

/**
 * The merchant's payout list at scale (GET /api/payouts; docs/api.md, "Listing payouts"; docs/performance.md,
 * "The payout list at scale"): one merchant with very many payouts (10,000,000 in the full bench), spread over
 * days, and one with a handful, both written straight into `payouts` with statement-stage's seeding (settled
 * SUCCESS, no ledger entries, removed at the end of the stage). Through an API of its own, over HTTP as the
 * merchant would ask, one request at a time after a warm-up, it times the large merchant's first page, a page
 * some pages into the walk (by the `next_cursor` the walk was given), and a page narrowed to one day and a mode,
 * and the small merchant's first page. A list read from the merchant's index answers the large merchant about as
 * fast as the small one; one that scanned the merchant's payouts would be hundreds of times slower.
 */

export interface PayoutListPlan {
  /** Payouts of the large merchant. */
  payouts: number;
  /** Days they are spread over (each a seeding of its own, at most 10,000,000 a day). */
  days: number;
  /** Payouts of the small merchant. */
  smallPayouts: number;
  /** Timed requests of each query, after `warmupRequests` untimed. */
  requests: number;
  warmupRequests: number;
  /** Pages walked by `next_cursor` before the deep page that is timed. */
  deepPages: number;
}

export type PayoutListQuery = 'first page' | 'deep page' | 'one day, one mode' | 'small merchant, first page';

export interface PayoutListRun {
  query: PayoutListQuery;
  /** The path and query string asked, cursor left out. */
  path: string;
  requests: number;
  /** Payouts on the page each answer held. */
  pageSize: number;
  latencyMs: { p50: number; p99: number };
}

export interface PayoutListStage {
  payouts: number;
  smallPayouts: number;
  days: number;
  /** Seconds the large merchant's payouts took to write (ANALYZE after each day included). */
  seedS: number;
  runs: PayoutListRun[];
}

/** statement-stage's seeding `index` of each day (it uses 0 and 1 itself), and the small merchant's. */
const FIRST_INDEX = 20;
const PAGE = 100;

export async function measurePayoutListStage(env: BenchEnv): Promise<PayoutListStage> {
  const plan = env.plan.payoutListStage;
  if (plan.days + 1 > 100 - FIRST_INDEX) throw new Error(`payout list: at most ${99 - FIRST_INDEX} days`);
  // Not the statement stage's merchant (spread[0]): its statements must meet only its own payouts.
  const large = env.merchants.spread[1]!;
  const small = env.merchants.spread[2]!;
  const days = Array.from({ length: plan.days }, (_, d) => isoDay(Date.UTC(2025, 6, 1) + d * 86_400_000));
  const indexes = days.map((_, d) => FIRST_INDEX + d);
  const smallIndex = FIRST_INDEX + plan.days;
  const seedStarted = performance.now();
  let written = 0;
  for (const [d, day] of days.entries()) {
    env.signal.throwIfAborted();
    const count = Math.floor(plan.payouts / plan.days) + (d < plan.payouts % plan.days ? 1 : 0);
    await seedSettledPayouts(env.db, { merchantId: large.id, day, count, index: indexes[d]! });
    written += count;
    if (d % 5 === 4 || d === days.length - 1) {
      env.log(`payout list: ${written.toLocaleString('en-US')} payouts written (${elapsedS(seedStarted)} s)`);
    }
  }
  const seedS = elapsedS(seedStarted);
  const middle = days[Math.floor(plan.days / 2)]!;
  await seedSettledPayouts(env.db, { merchantId: small.id, day: middle, count: plan.smallPayouts, index: smallIndex });
  await checkpoint(env.db);
  const api = await startApp(env, 'api-payout-list', 'api', 'PORT', '/healthz', {
    ...apiVariables(env, `${env.queuePrefix}-list`, true),
  });
  const runs: PayoutListRun[] = [];
  try {
    const nextDay = isoDay(Date.parse(`${middle}T00:00:00Z`) + 86_400_000);
    const first = `/api/payouts?limit=${PAGE}`;
    runs.push(await timeQuery(env, api, large, 'first page', first));
    const cursor = await walk(env, api, large, first, plan.deepPages);
    runs.push(await timeQuery(env, api, large, 'deep page', first, cursor));
    runs.push(await timeQuery(env, api, large, 'one day, one mode', `${first}&mode=IMPS&from=${middle}&to=${nextDay}`));
    runs.push(await timeQuery(env, api, small, 'small merchant, first page', first));
  } finally {
    await api.stop();
  }
  for (const run of runs) {
    env.log(`payout list: ${run.query}, p50 ${run.latencyMs.p50} ms, p99 ${run.latencyMs.p99} ms`);
  }
  // Written without their ledger entries. The stage runs last, so the bench's database, dropped at the end,
  // takes them with it: deleting ten million rows one by one took longer than writing them. Removed only from a
  // database the run keeps (--keep), whose books must still add up for whoever reads it.
  if (env.options.keep) {
    const removeStarted = performance.now();
    await removeSeededPayouts(env.db, large.id, indexes);
    await removeSeededPayouts(env.db, small.id, smallIndex);
    env.log(`payout list: seeded payouts removed (${elapsedS(removeStarted)} s)`);
  }
  return { payouts: plan.payouts, smallPayouts: plan.smallPayouts, days: plan.days, seedS, runs };
}

interface ListAnswer {
  payouts: unknown[];
  next_cursor: string | null;
}

async function ask(api: StartedApp, merchant: BenchMerchant, path: string, cursor?: string): Promise<ListAnswer> {
  const url = api.url + path + (cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`);
  const response = await fetch(url, { headers: { mid: merchant.mid, token: merchant.token } });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 500)}`);
  return JSON.parse(body) as ListAnswer;
}

/** The cursor of the page `pages` pages into the walk. */
async function walk(env: BenchEnv, api: StartedApp, merchant: BenchMerchant, path: string, pages: number) {
  let cursor: string | undefined;
  for (let page = 0; page < pages; page++) {
    env.signal.throwIfAborted();
    const answer = await ask(api, merchant, path, cursor);
    if (answer.next_cursor === null) throw new Error(`payout list: the walk ended after ${page + 1} pages`);
    cursor = answer.next_cursor;
  }
  return cursor;
}

/** `requests` answers to the same request, one at a time after the warm-up, each timed. */
async function timeQuery(
  env: BenchEnv,
  api: StartedApp,
  merchant: BenchMerchant,
  query: PayoutListQuery,
  path: string,
  cursor?: string,
): Promise<PayoutListRun> {
  const { requests, warmupRequests } = env.plan.payoutListStage;
  let pageSize = 0;
  for (let n = 0; n < warmupRequests; n++) pageSize = (await ask(api, merchant, path, cursor)).payouts.length;
  // Not a timing check: a page that came back short measured something else than a page.
  const expected = merchant === env.merchants.spread[1] ? PAGE : 1;
  if (pageSize < expected) throw new Error(`payout list: ${query} held ${pageSize} payouts`);
  const times: number[] = [];
  for (let n = 0; n < requests; n++) {
    env.signal.throwIfAborted();
    const started = performance.now();
    await ask(api, merchant, path, cursor);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    query,
    path,
    requests,
    pageSize,
    latencyMs: { p50: percentile(times, 0.5), p99: percentile(times, 0.99) },
  };
}

/** Nearest rank, to 0.01 ms. */
export function percentile(sorted: readonly number[], fraction: number): number {
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return Math.round((sorted[at] ?? Number.NaN) * 100) / 100;
}

/** The large merchant's slowest query (by p50) and the small merchant's first page, as the ratio reads them. */
export function payoutListRatioInputs(stage: PayoutListStage): { atScaleP50Ms: number; smallP50Ms: number } {
  const atScale = stage.runs.filter((r) => r.query !== 'small merchant, first page');
  const smallRun = stage.runs.find((r) => r.query === 'small merchant, first page');
  return {
    atScaleP50Ms: atScale.length ? Math.max(...atScale.map((r) => r.latencyMs.p50)) : Number.NaN,
    smallP50Ms: smallRun?.latencyMs.p50 ?? 0,
  };
}

export function payoutListFigures(stage: PayoutListStage): Figure[] {
  const large = `${stage.payouts.toLocaleString('en-US')}-payout merchant`;
  const smallRun = stage.runs.find((r) => r.query === 'small merchant, first page');
  const { atScaleP50Ms } = payoutListRatioInputs(stage);
  const worst = stage.runs.find((r) => r !== smallRun && r.latencyMs.p50 === atScaleP50Ms);
  return stage.runs.map((run) => {
    const figure = {
      section: 'api' as const,
      name:
        run.query === 'small merchant, first page'
          ? `payout list, small merchant (${stage.smallPayouts} payouts seeded), first page`
          : `payout list, ${large}, ${run.query}`,
      value: run.latencyMs.p50,
      unit: 'ms',
      latencyMs: run.latencyMs,
      detail: `(p50 of ${run.requests} requests one at a time, ${run.pageSize} a page)`,
    };
    // The large merchant's slowest query beside the small merchant's first page: an index keeps it near 1.
    return smallRun && run === worst
      ? ratioFigure(
          figure,
          { name: 'small merchant, first page', value: smallRun.latencyMs.p50, unit: 'ms' },
          RATIO_GOALS.payoutListAtScaleToSmall,
        )
      : ratioFigure(figure, undefined);
  });
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function elapsedS(since: number): number {
  return Math.round((performance.now() - since) / 100) / 10;
}
