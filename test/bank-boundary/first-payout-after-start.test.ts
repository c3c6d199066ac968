import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { apiConfigSchema, loadConfig } from '@payout/config';
import { startApi } from '@payout/api';
import { createPrismaClient, type PrismaClient } from '@payout/db';
import { createRailSim } from '@payout/rail-sim';
import { startWorker } from '@payout/worker';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { FAST_RAIL, workerConfig } from '../support/stack.js';

// Right after `pnpm start`, the first payout accepted must be queued at once, not wait ~37 s for the sweeper
// (docs/bank-boundary.md, "The first payout after a start"). The danger: job ids are built from the payout's row id
// (`execute-1`), and a fresh database starts its ids at 1 again while Redis still holds the finished jobs
// of the previous one; BullMQ silently ignores an add whose id it already holds. Here two "deployments"
// share one Redis prefix, as a developer's machine does across fresh starts: the second one's first payout
// must settle as fast as the first one's, with a worker that would not sweep for a minute.
const run = inject('testRun');
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function freshDatabase(): Promise<string> {
  const template = new URL(run.databaseUrl).pathname.slice(1);
  const name = `${template}_fresh${process.pid}`;
  const admin = new pg.Client({ connectionString: run.serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE ${pg.escapeIdentifier(template)}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: run.serverUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await client.end();
  });
  const url = new URL(run.databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Starts rail, worker and API on `databaseUrl` (the file's queue prefix), sends one payout, times it. */
async function firstPayoutOfADeployment(databaseUrl: string) {
  const env = { ...process.env, DATABASE_URL: databaseUrl };
  const db: PrismaClient = createPrismaClient({ url: databaseUrl, poolSize: 2, connectTimeoutMs: 5_000 });
  const rail = await createRailSim(FAST_RAIL).listen(0);
  const worker = await startWorker(
    workerConfig({
      DATABASE_URL: databaseUrl,
      RAIL_BASE_URL: rail.url,
      SWEEP_INTERVAL_MS: '60000',
      SWEEP_GRACE_MS: '60000',
    }),
  );
  const merchant = await makeMerchant(db, { balance: '100.00' });
  const startedAt = Date.now();
  const api = await startApi(loadConfig(apiConfigSchema, { ...env, PORT: '0', HOST: '127.0.0.1' }));
  const listeningAt = Date.now();
  try {
    const accepted = await call(api, '/api/impspayout', { merchant, body: impsBody({ Amount: '10.00' }) });
    expect(accepted.status).toBe(202);
    const acceptedAt = Date.now();
    const payout = await db.payout.findFirstOrThrow({ where: { merchantId: merchant.merchant.id } });
    const settled = await eventually(
      () => db.payout.findUniqueOrThrow({ where: { id: payout.id } }),
      (p) => p.state === 'SUCCESS',
      { timeoutMs: 10_000, intervalMs: 10, what: `the first payout (id ${payout.id}) to settle` },
    );
    return {
      payoutId: payout.id,
      startToListeningMs: listeningAt - startedAt,
      acceptToSuccessMs: settled.settledAt!.getTime() - acceptedAt,
      startToSuccessMs: settled.settledAt!.getTime() - startedAt,
    };
  } finally {
    await api.close();
    await worker.close();
    await rail.close();
    await db.$disconnect();
  }
}

describe('the first payout after a start', () => {
  it('when a fresh database starts over at payout id 1 while Redis still holds the last deployment’s jobs, then its first payout is queued at once', async () => {
    const earlier = await firstPayoutOfADeployment(process.env.DATABASE_URL!);
    const fresh = await firstPayoutOfADeployment(await freshDatabase());

    // Both databases are clones of the migrated template: the same row id, so the same job ids.
    expect(fresh.payoutId).toBe(earlier.payoutId);
    console.info(
      `first payout after a fresh start: API listening ${fresh.startToListeningMs} ms after start; ` +
        `SUCCESS ${fresh.acceptToSuccessMs} ms after its 202, ${fresh.startToSuccessMs} ms after the API was started`,
    );
    // Queued by the accept itself: no sweep can have run (the worker sweeps once a minute).
    expect(fresh.acceptToSuccessMs).toBeLessThan(3_000);
    expect(earlier.acceptToSuccessMs).toBeLessThan(3_000);
  });
});
