import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import type { Job } from 'bullmq';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig, workerConfigSchema, type WorkerConfig } from '@payout/config';
import { payoutJobs } from '@payout/queue';
import { createRailSim } from '@payout/rail-sim';
import { startWorker, type RunningWorker } from '@payout/worker';
import { call, impsBody, upiBody, useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { workerConfig } from '../support/stack.js';

// A bank's short outage: the submit is answered 503, the status check says NOT_FOUND, the resubmit is answered
// 503 again, the next status check says NOT_FOUND, and the third submit is paid. Each resubmit's status check
// must wait the mode's first delay, not the spacing between checks of a payment the bank may hold
// (docs/bank-boundary.md). The worker runs the DEFAULT status-check schedule; the test does not wait it out in
// real time: it reads the wait the worker stored (the delayed inquiry job and the payout's next_check_at) and
// then promotes that job, which is the queue's clock moved on to the check.
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

const DEFAULTS = loadConfig(workerConfigSchema, {});
/** The real schedule (and sweeper timings), over the fast timings of test/support/stack.ts. */
const DEFAULT_SCHEDULE: Partial<Record<keyof WorkerConfig, string>> = Object.fromEntries(
  (
    [
      'INQUIRY_UPI_FIRST_DELAY_MS',
      'INQUIRY_UPI_SPACING_MS',
      'INQUIRY_UPI_MAX_CHECKS',
      'INQUIRY_IMPS_FIRST_DELAY_MS',
      'INQUIRY_IMPS_SPACING_MS',
      'INQUIRY_IMPS_MAX_CHECKS',
      'RAIL_NOT_FOUND_TRUSTED_AFTER_MS',
      'INQUIRY_DEADLINE_MS',
      'SWEEP_INTERVAL_MS',
      'SWEEP_GRACE_MS',
    ] as const
  ).map((name) => [name, String(DEFAULTS[name])]),
);
const THREE_MINUTES_MS = 3 * 60 * 1000;

interface Sent {
  worker: RunningWorker;
  merchantId: number;
  payoutId: string;
  ackNo: string;
  acceptedAt: number;
}

async function send(railUrl: string, body: Record<string, string>): Promise<Sent> {
  const worker = await startWorker(workerConfig({ RAIL_BASE_URL: railUrl, ...DEFAULT_SCHEDULE }));
  running.push(worker);
  const merchant = await makeMerchant(prisma, { balance: '100.00' });
  const path = 'Upi' in body ? '/api/payout' : '/api/impspayout';
  const acceptedAt = Date.now();
  expect((await call(api.current, path, { merchant, body })).status).toBe(202);
  const { rows } = await pool.query<{ id: string; ack_no: string }>(
    'SELECT id, ack_no FROM payouts WHERE merchant_id = $1',
    [merchant.merchant.id],
  );
  return { worker, merchantId: merchant.merchant.id, payoutId: rows[0]!.id, ackNo: rows[0]!.ack_no, acceptedAt };
}

interface ScheduledCheck {
  /** The wait the worker chose before this status check. */
  delayMs: number;
  /** The payout's submits so far when the check was scheduled. */
  submitAttempts: number;
}

/**
 * Waits until the worker has queued status check `attempt`, reads the wait it chose, checks the payout's
 * next_check_at says the same, and promotes the job: the check runs now instead of after the wait.
 */
async function checkScheduledThenRunIt(sent: Sent, attempt: number): Promise<ScheduledCheck> {
  const jobId = payoutJobs.inquire.jobId(sent.payoutId, attempt);
  const job = await eventually(
    async () => (await sent.worker.queue.getJob(jobId)) as Job | undefined,
    (j) => j !== undefined,
    { what: `status check ${attempt} of payout ${sent.payoutId} to be queued` },
  );
  const { rows } = await pool.query<{ next_check_at: Date; submit_attempts: number; state: string }>(
    'SELECT next_check_at, submit_attempts, state::text FROM payouts WHERE id = $1',
    [sent.payoutId],
  );
  const row = rows[0]!;
  expect(row.state).toBe('OUTCOME_UNKNOWN');
  // The stored next check and the queued job agree (both written from the same wait, the row first).
  const delayMs = job!.delay;
  expect(Math.abs(row.next_check_at.getTime() - (job!.timestamp + delayMs))).toBeLessThan(1_000);
  await job!.promote();
  return { delayMs, submitAttempts: row.submit_attempts };
}

/**
 * Drives the outage through: two status checks, each after a 503-answered submit, then the paid submit.
 * Returns how long the payout would have taken from its accept to SUCCESS with nobody promoting its checks:
 * the two waits the worker chose plus the real time spent.
 */
async function throughTheOutage(sent: Sent, firstDelayMs: number): Promise<number> {
  const checks = [await checkScheduledThenRunIt(sent, 1), await checkScheduledThenRunIt(sent, 2)];
  expect(checks.map((c) => c.submitAttempts)).toEqual([1, 2]);
  for (const check of checks) {
    // The first delay, plus at most its tenth of jitter: never the spacing.
    expect(check.delayMs).toBeGreaterThanOrEqual(firstDelayMs);
    expect(check.delayMs).toBeLessThanOrEqual(Math.round(firstDelayMs * 1.1));
  }
  const { rows } = await eventually(
    () => pool.query<{ state: string }>('SELECT state::text FROM payouts WHERE id = $1', [sent.payoutId]),
    (r) => r.rows[0]!.state === 'SUCCESS',
    { what: `payout ${sent.payoutId} to settle SUCCESS at its second status check's resubmit` },
  );
  expect(rows[0]!.state).toBe('SUCCESS');
  expect(await expectBooksBalanced(pool, sent.merchantId)).toMatchObject({ reserved: 0n });
  return checks[0]!.delayMs + checks[1]!.delayMs + (Date.now() - sent.acceptedAt);
}

describe('a bank down for a moment: the rail simulator’s .44 (503, 503, then paid)', () => {
  it('when an IMPS payout meets the outage with the default schedule, then each resubmit is checked after the first delay and it is SUCCESS within 3 minutes', async () => {
    const sim = createRailSim();
    const rail = await sim.listen(0);
    running.push(rail);
    const sent = await send(rail.url, impsBody({ Amount: '10.44' }));

    expect(await throughTheOutage(sent, DEFAULTS.INQUIRY_IMPS_FIRST_DELAY_MS)).toBeLessThan(THREE_MINUTES_MS);

    // Three submits under one reference, one payment.
    expect(sim.payout(sent.ackNo)).toMatchObject({ status: 'SUCCESS', submissions: 3 });
    expect(sim.stats().payments).toBe(1);
    const { rows } = await pool.query<{ submit_attempts: number; inquiry_attempts: number }>(
      'SELECT submit_attempts, inquiry_attempts FROM payouts WHERE id = $1',
      [sent.payoutId],
    );
    expect(rows[0]).toEqual({ submit_attempts: 3, inquiry_attempts: 2 });
  });

  it('when a UPI payout meets the outage with the default schedule, then each resubmit is checked after the 90 s NPCI allows, not 45 min later', async () => {
    const sim = createRailSim();
    const rail = await sim.listen(0);
    running.push(rail);
    const sent = await send(rail.url, upiBody({ Amount: '10.44' }));

    // Two first delays of 90 s (NPCI's floor for a first check) and their jitter: about 3 minutes, where the
    // spacing made it 46.5 minutes.
    expect(await throughTheOutage(sent, DEFAULTS.INQUIRY_UPI_FIRST_DELAY_MS)).toBeLessThan(4 * 60 * 1000);

    expect(sim.payout(sent.ackNo)).toMatchObject({ status: 'SUCCESS', submissions: 3 });
  });
});

describe('a stub bank down for a moment: 503, 503, NOT_FOUND on status, then paid', () => {
  it('when an IMPS payout meets it with the default schedule, then the resubmit is checked after the first delay and the payout is SUCCESS within 3 minutes', async () => {
    const bank = await startOutageBank(2);
    running.push(bank);
    const sent = await send(bank.url, impsBody({ Amount: '10.00' }));

    expect(await throughTheOutage(sent, DEFAULTS.INQUIRY_IMPS_FIRST_DELAY_MS)).toBeLessThan(THREE_MINUTES_MS);

    const { rows } = await pool.query<{ bank_reference: string }>('SELECT bank_reference FROM payouts WHERE id = $1', [
      sent.payoutId,
    ]);
    expect(rows[0]!.bank_reference).toBe(bank.utrOf(sent.ackNo));
    expect(bank.calls).toEqual(['submit 503', 'status NOT_FOUND', 'submit 503', 'status NOT_FOUND', 'submit paid']);
  });
});

interface OutageBank {
  url: string;
  /** What the bank answered, in order: "submit 503", "status NOT_FOUND", "submit paid", … */
  calls: string[];
  utrOf(reference: string): string | undefined;
  close(): Promise<void>;
}

/**
 * A bank written for this test, in the rail's wire format (docs/rail-sim.md): it answers the first
 * `unavailableSubmits` submits of a reference 503 without recording them, says NOT_FOUND of a reference it
 * has not paid, and pays the next submit.
 */
async function startOutageBank(unavailableSubmits: number): Promise<OutageBank> {
  const refusedSubmits = new Map<string, number>();
  const paid = new Map<string, string>();
  const calls: string[] = [];
  let utrs = 400_000_000_000;
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const status = /^\/v1\/payouts\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && status) {
      const reference = decodeURIComponent(status[1]!);
      const utr = paid.get(reference);
      calls.push(utr ? 'status SUCCESS' : 'status NOT_FOUND');
      if (utr) send(200, { reference, status: 'SUCCESS', utr, submissions: 1 });
      else send(404, { reference, status: 'NOT_FOUND' });
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/payouts') {
      send(404, { error: 'NOT_FOUND' });
      return;
    }
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const { reference } = JSON.parse(text) as { reference: string };
      const refused = refusedSubmits.get(reference) ?? 0;
      if (refused < unavailableSubmits) {
        refusedSubmits.set(reference, refused + 1);
        calls.push('submit 503');
        send(503, { error: 'UNAVAILABLE', message: 'rail temporarily unavailable; nothing was paid' });
        return;
      }
      const utr = paid.get(reference) ?? String(utrs++);
      paid.set(reference, utr);
      calls.push('submit paid');
      send(200, { reference, status: 'SUCCESS', utr, submissions: 1 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    utrOf: (reference) => paid.get(reference),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
