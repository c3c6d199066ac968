import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '@payout/db';
import { payoutJobs } from '@payout/queue';
import { createHttpRailAdapter } from '@payout/rails';
import { inquirySchedulesOf, PayoutDriver, type PayoutDriverOptions } from '@payout/worker';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { useStack, workerConfig } from '../support/stack.js';

// A scheduled payout and the worker (docs/api.md, "Scheduling a payout"): it is not sent before its time,
// whoever runs its job; it is sent after, once, even when its job was lost or two workers claim it together.
// Nothing here waits for a real minute: a test moves the payout's time into the past in the database, as the
// clock would.

const prisma = testPrisma();
const pool = testPool();
const stack = useStack();
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await prisma.$disconnect();
  await pool.end();
});

const MINUTE = 60_000;

/** Accepts an IMPS payout scheduled `minutesAhead` from now through the API; its id and Ack_no. */
async function acceptScheduled(minutesAhead: number): Promise<{ id: string; ackNo: string; merchantId: number }> {
  const merchant = await makeMerchant(prisma, { balance: '1000.00' });
  const ScheduledAt = new Date(Date.now() + minutesAhead * MINUTE).toISOString();
  const res = await call(stack.current.api, '/api/impspayout', { merchant, body: impsBody({ ScheduledAt }) });
  expect(res.status, res.text).toBe(202);
  const { rows } = await pool.query<{ id: string }>('SELECT id::text FROM payouts WHERE ack_no = $1', [
    res.json.Ack_no,
  ]);
  return { id: rows[0]!.id, ackNo: res.json.Ack_no as string, merchantId: merchant.merchant.id };
}

/**
 * Moves the payout's scheduled time a minute into the past: its time has come. Its next check moves with it, as
 * it was set to the scheduled time at acceptance — unless `sweepable` is false, which keeps the sweeper away so
 * that only the test's own drivers run it.
 */
async function timeHasCome(payoutId: string, { sweepable = true } = {}): Promise<void> {
  await pool.query(
    `UPDATE payouts SET scheduled_at = now() - interval '1 minute',
                        next_check_at = now() + CASE WHEN $2 THEN interval '-1 minute' ELSE interval '1 hour' END
      WHERE id = $1`,
    [payoutId, sweepable],
  );
}

const stateOf = async (payoutId: string) =>
  (await pool.query<{ state: string }>('SELECT state::text FROM payouts WHERE id = $1', [payoutId])).rows[0]!.state;

/** The execute job the API queued for the payout, once it is in Redis. */
const executeJob = (payoutId: string) =>
  eventually(
    () => stack.current.api.deps.producer.queue.getJob(payoutJobs.execute.jobId(payoutId)),
    (job) => job !== undefined,
    { timeoutMs: 5_000, what: 'the execute job' },
  ).then((job) => job!);

/** A payout driver as a worker process builds it, on connections of its own (test/faults/duplicate-execution.test.ts). */
function driver(name: string): PayoutDriver {
  const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 4, connectTimeoutMs: 2_000 });
  const rail = createHttpRailAdapter({
    baseUrl: stack.current.rail.url,
    connectTimeoutMs: 1_000,
    responseTimeoutMs: 3_000,
  });
  closers.push(
    () => db.$disconnect(),
    () => rail.close(),
  );
  const inquiries: PayoutDriverOptions['inquiries'] = { scheduleInquiry: () => Promise.resolve(true) };
  return new PayoutDriver({
    db,
    rail,
    inquiries,
    logger: pino({ level: 'silent' }),
    actor: `test:${name}`,
    schedules: inquirySchedulesOf(workerConfig()),
    deadlineMs: 60_000,
    notFoundTrustedAfterMs: 1_500,
    railWindowMs: 4_000 + 5_000,
  });
}

describe('a scheduled payout and the worker', () => {
  it('when its delayed job is run before its time, then the claim refuses it and the job waits again; once its time has come, it is sent and paid', async () => {
    const { id, ackNo, merchantId } = await acceptScheduled(10);
    const job = await executeJob(id);
    expect(await job.getState()).toBe('delayed');

    // Run early, as a promoted job or a clock that jumped would: the worker takes it and puts it back.
    await job.promote();
    await eventually(
      () => stack.current.api.deps.producer.queue.getJob(job.id!),
      (again) => again?.processedOn !== undefined,
      { what: 'the worker to have taken the job' },
    );
    const waiting = await eventually(
      async () => (await stack.current.api.deps.producer.queue.getJob(job.id!))!.getState(),
      (state) => state === 'delayed',
      { what: 'the job to wait again' },
    );
    expect(waiting).toBe('delayed');
    expect(await stateOf(id)).toBe('ACCEPTED');
    expect(stack.current.railSim.payout(ackNo)).toBeUndefined();

    await timeHasCome(id);
    await (await stack.current.api.deps.producer.queue.getJob(job.id!))!.promote();

    await eventually(
      () => stateOf(id),
      (state) => state === 'SUCCESS',
      { what: 'the payout to be paid after its time' },
    );
    expect(stack.current.railSim.payout(ackNo)?.submissions).toBe(1);
    await expectBooksBalanced(pool, merchantId);
  });

  it('when its job is lost, then the sweeper leaves it alone before its time and sends it once after (a schedule missed while the workers were down)', async () => {
    const { id, ackNo, merchantId } = await acceptScheduled(10);
    const job = await executeJob(id);
    await job.remove();

    const sweep = await eventually(
      () => stack.current.worker.sweeper.sweepOnce(),
      (r) => r.swept,
      { what: 'a sweep' },
    );
    expect(sweep.swept).toBe(true);
    expect(await stack.current.api.deps.producer.queue.getJob(job.id!)).toBeUndefined();
    expect(await stateOf(id)).toBe('ACCEPTED');

    await timeHasCome(id);

    await eventually(
      () => stateOf(id),
      (state) => state === 'SUCCESS',
      { what: 'the swept payout to be paid' },
    );
    expect(stack.current.railSim.payout(ackNo)?.submissions).toBe(1);
    await expectBooksBalanced(pool, merchantId);
  });

  it('when two workers execute it at once, then both are refused before its time, and after it exactly one sends it', async () => {
    const { id, ackNo, merchantId } = await acceptScheduled(10);
    await (await executeJob(id)).remove();
    const [a, b] = [driver('a'), driver('b')];

    const early = await Promise.allSettled([a.execute(BigInt(id)), b.execute(BigInt(id))]);
    expect(early.map((r) => (r.status === 'rejected' ? (r.reason as Error).name : r.value))).toEqual([
      'RunAgainLater',
      'RunAgainLater',
    ]);
    expect(await stateOf(id)).toBe('ACCEPTED');
    expect(stack.current.railSim.payout(ackNo)).toBeUndefined();

    await timeHasCome(id, { sweepable: false });
    const results = await Promise.all([a.execute(BigInt(id)), b.execute(BigInt(id))]);

    expect(results.filter((r) => r === 'SUCCESS' || r.startsWith('AWAITING_RAIL'))).toHaveLength(1);
    expect(stack.current.railSim.payout(ackNo)?.submissions).toBe(1);
    const claims = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM payout_events WHERE payout_id = $1 AND to_state = 'SUBMITTING'",
      [id],
    );
    expect(claims.rows[0]!.n).toBe(1);
    await eventually(
      () => stateOf(id),
      (state) => state === 'SUCCESS',
      { what: 'the payout to be paid' },
    );
    await expectBooksBalanced(pool, merchantId);
  });
});
