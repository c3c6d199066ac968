import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '@payout/api';
import type { RunningWorker } from '@payout/worker';
import { call, impsBody, upiBody, type ApiResponse } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { expectAllClear, useFaultStack } from './fault-stack.js';

// Redis carries work, never the only copy of it: with Redis gone, or back but empty, every accepted
// payout must still be decided exactly once.
const stack = useFaultStack();
let api: RunningApi;
let worker: RunningWorker;

beforeAll(async () => {
  api = await stack.current.startApi();
  worker = await stack.current.startWorker();
});

async function post(merchant: TestMerchant, amount: string, i: number): Promise<ApiResponse & { ms: number }> {
  const started = performance.now();
  const answer =
    i % 2 === 0
      ? await call(api, '/api/impspayout', { merchant, body: impsBody({ Amount: amount }) })
      : await call(api, '/api/payout', { merchant, body: upiBody({ Amount: amount }) });
  return { ...answer, ms: performance.now() - started };
}

// Ordinary amounts, with declines (.11) and payouts that settle on a later inquiry (.22) mixed in.
const amountOf = (i: number) => (i % 5 === 1 ? `${i + 1}.11` : i % 5 === 3 ? `${i + 1}.22` : `${i + 1}.00`);

describe('Redis faults', () => {
  it('when Redis is stopped while payouts are being accepted, then every accept still answers 202 at once and each payout settles once after Redis is back', async () => {
    const s = stack.current;
    const merchant = await makeMerchant(s.prisma, { balance: '5000.00' });

    const before = await Promise.all(Array.from({ length: 10 }, (_, i) => post(merchant, amountOf(i), i)));
    // Redis dies with requests in flight, and stays down for the next ones.
    const [during] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, (_, i) => post(merchant, amountOf(i + 10), i))),
      s.redis.stop(),
    ]);
    const after = await Promise.all(Array.from({ length: 20 }, (_, i) => post(merchant, amountOf(i + 20), i)));

    const answers = [...before, ...during, ...after];
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    // The enqueue wait is bounded (ENQUEUE_TIMEOUT_MS 250): nobody waits for Redis.
    expect(Math.max(...after.map((a) => a.ms))).toBeLessThan(1_000);
    const { rows } = await s.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM payouts WHERE merchant_id = $1 AND state = 'ACCEPTED'",
      [merchant.merchant.id],
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(20); // recorded, waiting for a job nobody could queue

    await s.redis.resume();
    const audit = await expectAllClear(s);
    expect(audit).toMatchObject({ payouts: 40, success: 32, failed: 8 });
  });

  it('when Redis restarts and loses every job (waiting executions and delayed inquiries), then the sweeper puts each back and every payout is decided once', async () => {
    const s = stack.current;
    const merchant = await makeMerchant(s.prisma, { balance: '5000.00' });
    const { queue } = worker;

    // Payouts the bank keeps PENDING: their next inquiry sits in Redis as a delayed job.
    const undecided = await Promise.all(['7.55', '8.55', '9.55'].map((amount, i) => post(merchant, amount, i)));
    expect(undecided.map((a) => a.status)).toEqual([202, 202, 202]);
    await eventually(
      () => queue.getJobCounts('delayed'),
      (counts) => (counts.delayed ?? 0) >= 3,
      { what: 'the inquiries of the .55 payouts to be queued' },
    );

    // Jobs queued while no worker takes them, so they are still waiting when Redis goes.
    await worker.worker.pause();
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(merchant, amountOf(i), i)));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
      // The answer does not wait for the job (it is queued within ENQUEUE_GATHER_MS of the accept).
      const queued = await eventually(
        () => queue.getJobs(['wait', 'delayed']),
        (jobs) => jobs.length >= 20 + 3,
        { what: 'the 20 new payouts to be queued' },
      );

      await s.redis.stop();
      await s.redis.resume();
      // The worker's own connection to Redis finds the new server by itself.
      const client = await queue.getBackend().client;
      await eventually(
        () => Promise.resolve(client.status),
        (status) => status === 'ready',
        { what: "the worker's connection to reconnect" },
      );
      // Not one of those jobs survived. (The sweeper may already have queued a payout's job again, under
      // the same id: that is a new job, younger than the restart.)
      const survivors = [];
      for (const job of queued) {
        const now = await queue.getJob(job.id!);
        if (now?.timestamp === job.timestamp) survivors.push(job.id);
      }
      expect(survivors).toEqual([]);
    } finally {
      await worker.worker.resume();
    }
    const audit = await expectAllClear(s);
    expect(audit).toMatchObject({ success: 16 + 32, failed: 4 + 8, deliberatelyPending: 3 });
  });
});
