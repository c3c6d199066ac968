import { measure, warmUp } from './api-throughput.js';
import { startApp, type BenchEnv, type StartedApp } from './bench-env.js';
import { lookupRequests, type HttpRunResult, type PayoutRequests } from './http-load.js';

/** The reference server's figures: the ceilings the API's accepts and lookups are divided by. */
export interface ReferenceMeasurements {
  acceptImpsSpread: HttpRunResult;
  lookups: HttpRunResult;
}

/** Starts the reference server (bench/reference-server.ts) on the bench's database, with the API's pool size. */
export function startReference(env: BenchEnv): Promise<StartedApp> {
  return startApp(env, 'reference', 'reference', 'PORT', '/healthz', {
    HOST: '127.0.0.1',
    DATABASE_URL: env.databaseUrl,
    DATABASE_POOL_SIZE: String(env.plan.poolSize),
  });
}

/**
 * The same two loads as the API's "accept IMPS over the spread merchants" and "status lookups" runs — the
 * same autocannon, connections, duration and requests — against the reference server, which is stopped
 * afterwards so it holds nothing during the runs that follow.
 */
export async function measureReference(
  env: BenchEnv,
  reference: StartedApp,
  payouts: PayoutRequests,
): Promise<ReferenceMeasurements> {
  const { merchants, plan } = env;
  const spread = `${merchants.spread.length.toLocaleString('en-US')} merchants`;
  await warmUp(env, reference, payouts);
  const acceptImpsSpread = await measure(env, reference, 202, `reference: accept IMPS, ${spread}`, {
    requests: payouts.requests(['IMPS'], merchants.spread),
  });
  const lookups = await measure(env, reference, 200, `reference: status lookups, ${spread}`, {
    requests: lookupRequests(merchants.spread, plan.lookupKeysPerMerchant),
  });
  await reference.stop();
  // Not a timing check (the smoke run makes none): a reference that answered nothing is broken, and every
  // ratio to it would be meaningless.
  for (const run of [acceptImpsSpread, lookups]) {
    if (run.succeeded === 0) {
      throw new Error(
        `${run.label}: no successful answer (statuses ${JSON.stringify(run.statuses)}, ${run.errors} errors)`,
      );
    }
  }
  return { acceptImpsSpread, lookups };
}
