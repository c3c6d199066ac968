import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningApi } from '@payout/api';
import { createPrismaClient, type PrismaClient } from '@payout/db';
import { addJob, jobRequest, PAYOUT_QUEUE, payoutJobs } from '@payout/queue';
import { createHttpRailAdapter } from '@payout/rails';
import { inquirySchedulesOf, PayoutDriver, type PayoutDriverOptions } from '@payout/worker';
import { call, impsBody, upiBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { workerConfig } from '../support/stack.js';
import { expectAllClear, useFaultStack, type FaultStack } from './fault-stack.js';

// The same job run by two workers at the same moment: two drivers racing on purpose, and a real worker
// process frozen mid-job (SIGSTOP, as a long GC pause or a stalled VM) whose job another worker takes over
// before it wakes up and carries on.
const RAIL_LATENCY_MS = 800;
const stack = useFaultStack({ railSim: { latencyMs: RAIL_LATENCY_MS } });
let api: RunningApi;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  api = await stack.current.startApi();
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A driver as a worker process builds it, on connections of its own. */
function driver(s: FaultStack, name: string): PayoutDriver {
  const db: PrismaClient = createPrismaClient({ url: s.postgres.databaseUrl, poolSize: 10, connectTimeoutMs: 2_000 });
  const rail = createHttpRailAdapter({ baseUrl: s.railUrl, connectTimeoutMs: 1_000, responseTimeoutMs: 3_000 });
  const redis = new Redis(s.redis.url, { maxRetriesPerRequest: 1 });
  const queue = new Queue(PAYOUT_QUEUE, { connection: redis, prefix: s.queuePrefix });
  closers.push(
    () => db.$disconnect(),
    () => rail.close(),
    async () => {
      await queue.close();
      redis.disconnect();
    },
  );
  const inquiries: PayoutDriverOptions['inquiries'] = {
    async scheduleInquiry(payoutId, attempt, delayMs) {
      await addJob(
        queue,
        jobRequest(payoutJobs.inquire, { payoutId: payoutId.toString(), attempt }, { delay: delayMs }),
      );
      return true;
    },
  };
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

async function accept(s: FaultStack, amounts: string[]): Promise<{ id: bigint; ackNo: string }[]> {
  const merchant = await makeMerchant(s.prisma, { balance: '1000.00' });
  const answers = await Promise.all(
    amounts.map((Amount, i) =>
      i % 2
        ? call(api, '/api/impspayout', { merchant, body: impsBody({ Amount }) })
        : call(api, '/api/payout', { merchant, body: upiBody({ Amount }) }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(amounts.map(() => 202));
  const ackNos = answers.map((a) => a.json.Ack_no as string);
  const { rows } = await s.pool.query<{ id: string; ack_no: string }>(
    'SELECT id::text, ack_no FROM payouts WHERE ack_no = ANY($1) ORDER BY id',
    [ackNos],
  );
  return rows.map((r) => ({ id: BigInt(r.id), ackNo: r.ack_no }));
}

describe('the same job run twice at once', () => {
  it('when two workers execute, and then inquire about, the same payouts at the same moment, then each payout is sent once, paid once and settled once', async () => {
    const s = stack.current;
    const [a, b] = [driver(s, 'a'), driver(s, 'b')];
    // Ordinary payouts, and .22 ones the bank decides later, so inquiries race too.
    const payouts = await accept(s, ['1.00', '2.22', '3.00', '4.22', '5.00', '6.22', '7.00', '8.22', '9.00', '10.00']);

    const executions = await Promise.all(payouts.map(({ id }) => Promise.all([a.execute(id), b.execute(id)])));
    for (const pair of executions) {
      // Exactly one of the two claimed the payout and acted on the bank's answer.
      expect(pair.filter((r) => r === 'SUCCESS' || r.startsWith('AWAITING_RAIL'))).toHaveLength(1);
    }
    expect(payouts.map((p) => s.railSim.payout(p.ackNo)?.submissions)).toEqual(payouts.map(() => 1));

    const awaiting = payouts.filter((_, i) => executions[i]!.some((r) => r.startsWith('AWAITING_RAIL')));
    expect(awaiting).toHaveLength(4);
    const inquiries = await Promise.all(awaiting.map(({ id }) => Promise.all([a.inquire(id, 1), b.inquire(id, 1)])));
    for (const pair of inquiries) {
      // One asked the bank and acted on its answer; the other found the inquiry taken.
      expect(pair.filter((r) => r === 'SUCCESS' || r.startsWith('AWAITING_RAIL'))).toHaveLength(1);
    }

    // A real worker drains what the race left queued (the executions' jobs, later inquiries).
    const worker = await s.startWorker();
    try {
      await expectAllClear(s);
    } finally {
      await worker.close();
    }
    expect(payouts.map((p) => s.railSim.payout(p.ackNo)?.status)).toEqual(payouts.map(() => 'SUCCESS'));
  });

  it('when a worker process freezes mid-job and another takes the job over, then the frozen one wakes up, both finish it, and each payout is paid and settled once', async () => {
    const s = stack.current;
    const frozen = s.startWorkerProcess({
      JOB_LOCK_MS: '1000',
      RAIL_CONNECT_TIMEOUT_MS: '200',
      RAIL_RESPONSE_TIMEOUT_MS: '10000',
    });
    await frozen.logged('worker started');
    const paidBefore = s.railSim.stats().payments;
    const payouts = await accept(s, ['11.00', '12.00', '13.00']);
    // The bank has every instruction (and paid it); its answers are held back by its latency.
    await eventually(
      () => Promise.resolve(payouts.filter((p) => s.railSim.payout(p.ackNo) !== undefined).length),
      (n) => n === 3,
      { what: 'the bank to receive all three' },
    );
    frozen.kill('SIGSTOP');

    // The frozen worker cannot renew its job locks: another worker finds the jobs stalled and runs them.
    const takeover = await s.startWorker({ RAIL_RESPONSE_TIMEOUT_MS: '3000' });
    const results: string[] = [];
    takeover.worker.on('completed', (job, result: string) => {
      if (job.name === payoutJobs.execute.name) results.push(result);
    });
    try {
      await eventually(
        () => Promise.resolve(results.length),
        (n) => n === 3,
        { what: 'the second worker to run the three execute jobs' },
      );
      expect(results).toEqual(payouts.map(() => 'already SUBMITTING; inquiry 1 scheduled'));

      // Woken up, the first worker goes on with the same jobs: it hears the bank's answers and settles.
      frozen.kill('SIGCONT');
      await expectAllClear(s);
    } finally {
      frozen.kill('SIGCONT');
      await takeover.close();
    }
    await eventually(
      () => Promise.resolve(frozen.lines.filter((l) => l.msg === 'payout settled SUCCESS').length),
      (n) => n === 3,
      { what: 'the woken worker to act on the three answers' },
    );
    expect(s.railSim.stats().payments - paidBefore).toBe(3);
    expect(payouts.map((p) => s.railSim.payout(p.ackNo)?.submissions)).toEqual([1, 1, 1]);
    const { rows } = await s.pool.query<{ settles: number }>(
      `SELECT count(*)::int AS settles FROM ledger_entries WHERE kind = 'PAYOUT_SETTLE' AND account = 'PAID_OUT'
          AND payout_id = ANY($1::bigint[])`,
      [payouts.map((p) => p.id.toString())],
    );
    expect(rows[0]!.settles).toBe(3);
  });
});
