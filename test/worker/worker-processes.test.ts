import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiConfigSchema, loadConfig } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { createRailSim, type RailSim, type RailSimServer } from '@payout/rail-sim';
import { AppProcess } from '../support/app-process.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody, upiBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { FAST_RAIL, FAST_WORKER } from '../support/stack.js';

// Real worker processes sharing one queue: scaled out, killed mid-job, stopped gracefully.
const prisma = testPrisma();
const pool: pg.Pool = testPool();
let api: RunningApi;
let railSim: RailSim;
let rail: RailSimServer;
const workers: AppProcess[] = [];

function startWorkerProcess(extra: Record<string, string> = {}): AppProcess {
  const worker = AppProcess.start('worker', { ...FAST_WORKER, RAIL_BASE_URL: rail.url, ...extra });
  workers.push(worker);
  return worker;
}

async function countByStatus(merchantId: number): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ status: string; n: number }>(
    'SELECT status::text, count(*)::int AS n FROM payouts WHERE merchant_id = $1 GROUP BY status',
    [merchantId],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Every payout of the merchant paid at the rail exactly once, each with one settlement in the ledger. */
async function expectPaidExactlyOnce(merchantId: number, count: number): Promise<void> {
  const { rows } = await pool.query<{ ack_no: string; state: string; settles: number }>(
    `SELECT p.ack_no, p.state::text,
            (SELECT count(*)::int FROM ledger_entries l WHERE l.payout_id = p.id AND l.kind = 'PAYOUT_SETTLE') AS settles
       FROM payouts p WHERE p.merchant_id = $1`,
    [merchantId],
  );
  expect(rows).toHaveLength(count);
  for (const row of rows) {
    expect(row.state).toBe('SUCCESS');
    expect(row.settles).toBe(2); // one entry, two legs
    const atRail = railSim.payout(row.ack_no);
    expect(atRail?.status).toBe('SUCCESS');
  }
  await expectBooksBalanced(pool, merchantId);
}

beforeAll(async () => {
  railSim = createRailSim({ ...FAST_RAIL, latencyMs: 20 });
  rail = await railSim.listen(0);
  api = await startApi(
    loadConfig(apiConfigSchema, { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_POOL_SIZE: '20' }),
  );
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await api.close();
  await rail.close();
  await prisma.$disconnect();
  await pool.end();
});

describe('worker processes', () => {
  it('when two worker processes share the queue, then 500 payouts each settle exactly once and the rail pays each once', async () => {
    const [a, b] = [startWorkerProcess(), startWorkerProcess()];
    await Promise.all([a.logged('worker started'), b.logged('worker started')]);
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    const paymentsBefore = railSim.stats().payments;

    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(api, i % 2 ? '/api/impspayout' : '/api/payout', {
            merchant,
            body: i % 2 ? impsBody({ Amount: '1.00' }) : upiBody({ Amount: '1.00' }),
          }),
        ),
      );
      expect(answers.every((r) => r.status === 202)).toBe(true);
    }

    await eventually(
      () => countByStatus(merchant.merchant.id),
      (c) => c.SUCCESS === 500,
      { timeoutMs: 60_000, what: '500 settled' },
    );
    await expectPaidExactlyOnce(merchant.merchant.id, 500);
    expect(railSim.stats().payments - paymentsBefore).toBe(500);
    // Both processes did part of the work.
    for (const worker of [a, b]) expect(worker.lines.some((l) => l.msg === 'payout settled SUCCESS')).toBe(true);

    a.kill('SIGTERM');
    b.kill('SIGTERM');
    expect((await a.exited).code).toBe(0);
    expect((await b.exited).code).toBe(0);
  });

  it('when a worker is killed with SIGKILL in the middle of jobs, then every payout still settles exactly once', async () => {
    // A slow rail, so the victim dies with rail calls in flight.
    const slow = createRailSim({ ...FAST_RAIL, latencyMs: 300 });
    const slowRail = await slow.listen(0);
    try {
      const victim = startWorkerProcess({ RAIL_BASE_URL: slowRail.url, RAIL_RESPONSE_TIMEOUT_MS: '2000' });
      await victim.logged('worker started');
      const merchant = await makeMerchant(prisma, { balance: '1000.00' });
      await Promise.all(
        Array.from({ length: 40 }, () =>
          call(api, '/api/impspayout', { merchant, body: impsBody({ Amount: '2.00' }) }),
        ),
      );
      await victim.logged('submitting payout to the rail');
      victim.kill('SIGKILL');
      expect((await victim.exited).signal).toBe('SIGKILL');

      const survivor = startWorkerProcess({ RAIL_BASE_URL: slowRail.url, RAIL_RESPONSE_TIMEOUT_MS: '2000' });
      await survivor.logged('worker started');
      await eventually(
        () => countByStatus(merchant.merchant.id),
        (c) => c.SUCCESS === 40,
        { timeoutMs: 60_000, what: '40 settled' },
      );

      const { rows } = await pool.query<{ ack_no: string; settles: number }>(
        `SELECT p.ack_no, (SELECT count(*)::int FROM ledger_entries l WHERE l.payout_id = p.id AND l.kind = 'PAYOUT_SETTLE') AS settles
           FROM payouts p WHERE p.merchant_id = $1`,
        [merchant.merchant.id],
      );
      for (const row of rows) {
        expect(row.settles).toBe(2);
        expect(slow.payout(row.ack_no)?.status).toBe('SUCCESS');
      }
      expect(slow.stats().payments).toBe(40);
      await expectBooksBalanced(pool, merchant.merchant.id);
      survivor.kill('SIGTERM');
      await survivor.exited;
    } finally {
      await slowRail.close();
    }
  });

  it('when a worker gets SIGTERM with jobs in flight, then it finishes them and exits cleanly', async () => {
    const slow = createRailSim({ ...FAST_RAIL, latencyMs: 500 });
    const slowRail = await slow.listen(0);
    try {
      const worker = startWorkerProcess({ RAIL_BASE_URL: slowRail.url, RAIL_RESPONSE_TIMEOUT_MS: '3000' });
      await worker.logged('worker started');
      const merchant = await makeMerchant(prisma, { balance: '100.00' });
      await Promise.all(
        Array.from({ length: 5 }, () => call(api, '/api/impspayout', { merchant, body: impsBody({ Amount: '1.00' }) })),
      );
      await worker.logged('submitting payout to the rail');
      worker.kill('SIGTERM');
      expect((await worker.exited).code).toBe(0);
      // What it had started, it finished: no payout was left half-way in SUBMITTING.
      const { rows } = await pool.query<{ state: string }>('SELECT state::text FROM payouts WHERE merchant_id = $1', [
        merchant.merchant.id,
      ]);
      expect(rows.filter((r) => r.state === 'SUBMITTING')).toEqual([]);
      expect(worker.lines.some((l) => l.msg === 'worker stopped')).toBe(true);

      const next = startWorkerProcess({ RAIL_BASE_URL: slowRail.url, RAIL_RESPONSE_TIMEOUT_MS: '3000' });
      await eventually(
        () => countByStatus(merchant.merchant.id),
        (c) => c.SUCCESS === 5,
        { timeoutMs: 30_000, what: '5 settled' },
      );
      expect(slow.stats().payments).toBe(5);
      next.kill('SIGTERM');
      await next.exited;
    } finally {
      await slowRail.close();
    }
  });
});
