import { checkpoint } from './bench-database.js';
import { describeCpu } from './cpu-meter.js';
import type { RssSample } from './app-process.js';
import { sleep, type BenchEnv, type StartedApp } from './bench-env.js';
import { startPacedLoad } from './paced-load.js';
import { lookupRequests, startLoad, type HttpRunResult, type LoadSpec, type PayoutRequests } from './http-load.js';

export interface ApiMeasurements {
  acceptImpsSpread: HttpRunResult;
  acceptUpiSpread: HttpRunResult;
  acceptImpsHot: HttpRunResult;
  acceptUpiHot: HttpRunResult;
  /** IMPS over the spread merchants at a fixed fraction of acceptImpsSpread's rate, evenly spaced (paced-load.ts). */
  acceptAtFraction: HttpRunResult;
  /**
   * The same rate asked of autocannon (`overallRate`), which sends each second's quota in one burst at the
   * start of the second: kept beside the paced figure to show what the load generator's bursts do to the tail.
   */
  acceptAtFractionInBursts: HttpRunResult;
  lookups: HttpRunResult;
  uncoalescedImpsHot: HttpRunResult;
  uncoalescedImpsSpread: HttpRunResult;
  /** The coalescing API's RSS once warm: what growth under load is measured from. */
  rssAfterWarmup: RssSample | undefined;
}

export function apiVariables(env: BenchEnv, queuePrefix: string, coalescing: boolean): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    // Two APIs run at once: each admin and metrics listener takes a free port of its own.
    ADMIN_PORT: '0',
    METRICS_PORT: '0',
    DATABASE_URL: env.databaseUrl,
    DATABASE_POOL_SIZE: String(env.plan.poolSize),
    REDIS_URL: env.redisUrl,
    QUEUE_PREFIX: queuePrefix,
    RATE_LIMIT_ENABLED: 'false',
    ACCEPT_COALESCING: String(coalescing),
  };
}

/**
 * The merchant API on its own (no worker): accepts as fast as it answers, IMPS and UPI, over many merchants
 * and on one; latency at a steady fraction of that rate; status lookups; and the one-merchant rate again on
 * `uncoalesced` (coalescing switched off, stopped afterwards), to show what coalescing buys. Accepted
 * payouts are queued in Redis as in production; nothing takes them off here.
 */
export async function measureApi(
  env: BenchEnv,
  api: StartedApp,
  uncoalesced: StartedApp,
  payouts: PayoutRequests,
): Promise<ApiMeasurements> {
  const { plan, merchants } = env;
  const spread = `${merchants.spread.length.toLocaleString('en-US')} merchants`;

  await warmUp(env, api, payouts);
  const baseline = api.process.memory().samples.at(-1);

  const acceptImpsSpread = await measure(env, api, 202, `accept IMPS, ${spread}`, {
    requests: payouts.requests(['IMPS'], merchants.spread),
  });
  const acceptUpiSpread = await measure(env, api, 202, `accept UPI, ${spread}`, {
    requests: payouts.requests(['UPI'], merchants.spread),
  });
  const acceptImpsHot = await measure(env, api, 202, 'accept IMPS, one merchant', {
    requests: payouts.requests(['IMPS'], [merchants.hot]),
  });
  const acceptUpiHot = await measure(env, api, 202, 'accept UPI, one merchant', {
    requests: payouts.requests(['UPI'], [merchants.hot]),
  });
  const acceptAtFraction = await measureAtFraction(env, api, payouts, acceptImpsSpread);
  const rate = acceptAtFraction.requestedRate ?? 1;
  const acceptAtFractionInBursts = await measure(env, api, 202, `accept IMPS, ${spread}, at ${rate}/s in bursts`, {
    requests: payouts.requests(['IMPS'], merchants.spread),
    overallRate: rate,
    bursts: true,
  });
  const lookups = await measure(env, api, 200, `status lookups, ${spread}`, {
    requests: lookupRequests(merchants.spread, plan.lookupKeysPerMerchant),
  });

  await warmUp(env, uncoalesced, payouts);
  const uncoalescedImpsHot = await measure(env, uncoalesced, 202, 'accept IMPS, one merchant, coalescing off', {
    requests: payouts.requests(['IMPS'], [merchants.hot]),
  });
  const uncoalescedImpsSpread = await measure(env, uncoalesced, 202, `accept IMPS, ${spread}, coalescing off`, {
    requests: payouts.requests(['IMPS'], merchants.spread),
  });
  await uncoalesced.stop();

  return {
    acceptImpsSpread,
    acceptUpiSpread,
    acceptImpsHot,
    acceptUpiHot,
    acceptAtFraction,
    acceptAtFractionInBursts,
    lookups,
    uncoalescedImpsHot,
    uncoalescedImpsSpread,
    rssAfterWarmup: baseline,
  };
}

/**
 * IMPS over the spread merchants at `plan.p99LoadFraction` of the rate `atFullSpeed` reached, evenly spaced:
 * the latency a merchant sees on a server that is busy but not saturated.
 */
async function measureAtFraction(
  env: BenchEnv,
  api: StartedApp,
  payouts: PayoutRequests,
  atFullSpeed: HttpRunResult,
): Promise<HttpRunResult> {
  const spread = `${env.merchants.spread.length.toLocaleString('en-US')} merchants`;
  const rate = Math.max(1, Math.round(atFullSpeed.succeededPerSecond * env.plan.p99LoadFraction));
  return measure(env, api, 202, `accept IMPS, ${spread}, at ${rate}/s`, {
    requests: payouts.requests(['IMPS'], env.merchants.spread),
    overallRate: rate,
  });
}

/**
 * What the accept stage measures: accepts and lookups over the spread merchants (the runs the API is compared
 * with the reference server on), and the latency at a fraction of the accept rate.
 */
export type AcceptMeasurements = Pick<ApiMeasurements, 'acceptImpsSpread' | 'acceptAtFraction' | 'lookups'>;

/**
 * The accept stage alone (`--only accept`): the API's accepts over the spread merchants, warm, then the same at
 * a fraction of that rate, then lookups.
 */
export async function measureAccepts(
  env: BenchEnv,
  api: StartedApp,
  payouts: PayoutRequests,
): Promise<AcceptMeasurements> {
  const spread = `${env.merchants.spread.length.toLocaleString('en-US')} merchants`;
  await warmUp(env, api, payouts);
  const acceptImpsSpread = await measure(env, api, 202, `accept IMPS, ${spread}`, {
    requests: payouts.requests(['IMPS'], env.merchants.spread),
  });
  const acceptAtFraction = await measureAtFraction(env, api, payouts, acceptImpsSpread);
  const lookups = await measure(env, api, 200, `status lookups, ${spread}`, {
    requests: lookupRequests(env.merchants.spread, env.plan.lookupKeysPerMerchant),
  });
  return { acceptImpsSpread, acceptAtFraction, lookups };
}

/**
 * Unmeasured load (both modes, every merchant) so the JIT, the credential cache and the pools are warm.
 */
export async function warmUp(env: BenchEnv, api: StartedApp, payouts: PayoutRequests): Promise<void> {
  await startLoad({
    label: 'warm-up',
    url: api.url,
    connections: env.plan.connections,
    durationS: env.plan.serverWarmupS,
    requests: payouts.requests(['IMPS', 'UPI'], [...env.merchants.spread, env.merchants.hot]),
    successStatus: 202,
    signal: env.signal,
  }).done;
  await sleep(env, 200);
}

/** One measured autocannon run against `api` (the service or the reference server), with who used the CPU. */
export async function measure(
  env: BenchEnv,
  api: StartedApp,
  successStatus: number,
  label: string,
  spec: Pick<LoadSpec, 'requests' | 'overallRate'> & { bursts?: boolean },
): Promise<HttpRunResult> {
  env.signal.throwIfAborted();
  await checkpoint(env.db);
  const { bursts = false, ...load } = spec;
  const loadSpec: LoadSpec = {
    signal: env.signal,
    label,
    url: api.url,
    connections: env.plan.connections,
    durationS: env.plan.durationS,
    successStatus,
    ...load,
  };
  // A fixed rate is paced evenly unless autocannon's bursts are asked for; "as fast as it answers" is autocannon's.
  // The paced load warms up at its own pace first (autocannon's warm-up did not open its connections), and
  // the CPU is measured from the end of that warm-up.
  const overallRate = loadSpec.overallRate;
  const paced =
    overallRate !== undefined && !bursts
      ? startPacedLoad({ ...loadSpec, overallRate, warmupS: env.plan.warmupS })
      : undefined;
  await paced?.measuring;
  const { result, cpu } = await env.cpu.measure(() => paced?.done ?? startLoad(loadSpec).done);
  const apiCores = cpu.byUser[api.process.name] ?? 0;
  const apiCpuMsPerSuccess = result.succeeded ? (apiCores * cpu.wallS * 1000) / result.succeeded : 0;
  const measured = { ...result, cpu, apiCpuMsPerSuccess: Math.round(apiCpuMsPerSuccess * 1000) / 1000 };
  env.log(
    `${describe(measured)}\n    ${describeCpu(cpu)}; ${api.process.name} ${measured.apiCpuMsPerSuccess} ms CPU per answer`,
  );
  return measured;
}

export function describe(r: HttpRunResult): string {
  const others = Object.entries(r.statuses)
    .filter(([code]) => code !== String(202) && code !== String(200))
    .map(([code, n]) => `${n}×${code}`);
  return (
    `${r.label}: ${Math.round(r.succeededPerSecond)}/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms` +
    (others.length ? ` (also ${others.join(', ')})` : '') +
    (r.errors ? ` (${r.errors} errors, ${r.timeouts} timeouts)` : '')
  );
}
