import type pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startWorker } from '@payout/worker';
import { startStubBank } from '../bank-boundary/stub-bank.js';
import { call, impsBody, useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { workerConfig } from '../support/stack.js';

// A slow rail must not starve throughput: a job waiting on the bank holds no CPU and no database connection,
// so one worker keeps far more payouts at the rail than it has connections (docs/performance.md, "A slow
// rail"). Here the bank holds every submit's reply until the test releases them.
const prisma = testPrisma();
const pool: pg.Pool = testPool();
const api = useApi();
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of running.splice(0).reverse()) await thing.close();
});
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const PAYOUTS = 40;
const POOL_SIZE = 2;

describe('a worker in front of a slow rail', () => {
  it(`when ${PAYOUTS} payouts wait on the rail, then all are at the bank at once through a pool of ${POOL_SIZE} connections, and all settle`, async () => {
    const bank = await startStubBank({ holdSubmits: true });
    running.push(bank);
    const worker = await startWorker(
      workerConfig({
        RAIL_BASE_URL: bank.url,
        WORKER_CONCURRENCY: String(PAYOUTS),
        DATABASE_POOL_SIZE: String(POOL_SIZE),
        SETTLE_MAX_IN_FLIGHT: '1',
        // The bank answers when the test says: no time-out meanwhile, and no sweep using a connection.
        RAIL_RESPONSE_TIMEOUT_MS: '60000',
        SWEEP_INTERVAL_MS: '600000',
      }),
    );
    running.push(worker);
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const accepted = await Promise.all(
      Array.from({ length: PAYOUTS }, () =>
        call(api.current, '/api/impspayout', { merchant, body: impsBody({ Amount: '10.00' }) }),
      ),
    );
    expect(accepted.map((r) => r.status)).toEqual(Array(PAYOUTS).fill(202));

    // Every payout's submit is at the bank together: none of them holds one of the two connections.
    await eventually(
      () => Promise.resolve(bank.submits),
      (n) => n === PAYOUTS,
      { timeoutMs: 30_000, what: `${PAYOUTS} submits held at the bank at once` },
    );
    // The worker's own background work (its first money-invariants check, a bank-view refresh) may be on a
    // connection at this moment, and ends; a payout held on one would keep it until the bank answers, and the
    // bank answers only when released below.
    await eventually(
      async () => {
        const { rows } = await pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity
            WHERE application_name = 'payout-gateway-worker' AND datname = current_database() AND state <> 'idle'`,
        );
        return Number(rows[0]!.n);
      },
      (busy) => busy === 0,
      { timeoutMs: 30_000, what: 'no worker connection busy while every payout waits at the bank' },
    );
    const { rows: waiting } = await pool.query<{ state: string; n: string }>(
      'SELECT state::text, count(*) AS n FROM payouts WHERE merchant_id = $1 GROUP BY state',
      [merchant.merchant.id],
    );
    expect(waiting).toEqual([{ state: 'SUBMITTING', n: String(PAYOUTS) }]);

    bank.releaseSubmits();
    const { rows } = await eventually(
      () =>
        pool.query<{ state: string; n: string }>(
          'SELECT state::text, count(*) AS n FROM payouts WHERE merchant_id = $1 GROUP BY state',
          [merchant.merchant.id],
        ),
      (r) => r.rows.length === 1 && r.rows[0]!.state === 'SUCCESS',
      { timeoutMs: 30_000, what: `all ${PAYOUTS} payouts to settle SUCCESS` },
    );
    expect(rows).toEqual([{ state: 'SUCCESS', n: String(PAYOUTS) }]);
    expect(bank.paid()).toHaveLength(PAYOUTS);
    expect(await expectBooksBalanced(pool, merchant.merchant.id)).toMatchObject({ reserved: 0n });
  });
});
