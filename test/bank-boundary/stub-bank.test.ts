import type pg from 'pg';
import { pino } from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkInvariants } from '@payout/db';
import { createHttpRailAdapter } from '@payout/rails';
import { createMetrics } from '@payout/telemetry';
import { inquirySchedulesOf, PayoutDriver, startWorker, type RunningWorker } from '@payout/worker';
import { call, impsBody, upiBody, useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { workerConfig } from '../support/stack.js';
import { startStubBank, type BankManners, type Garbage, type StubBank } from './stub-bank.js';

// A payout must end as the bank's money says, whatever manners the bank has (docs/bank-boundary.md). Each test runs the
// real API and worker against a stub bank of its own (./stub-bank.ts, not apps/rail-sim) with one of the
// manners switched on, and checks the payout's end state, the wallet against the ledger, the bank's book,
// and reconcile. The worker runs with fast timings: a rail time-out of 300 ms, a status check every 300 ms,
// and a NOT_FOUND trusted 3 s after a refusal (the real defaults are in docs/bank-boundary.md).
const prisma = testPrisma();
const pool: pg.Pool = testPool();
const api = useApi();
const TRUSTED_AFTER_MS = 3_000;
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of running.splice(0).reverse()) await thing.close();
});
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

interface Sent {
  bank: StubBank;
  worker: RunningWorker;
  merchantId: number;
  payoutId: string;
  ackNo: string;
}

async function sendThrough(
  manners: BankManners,
  body: Record<string, string> = impsBody({ Amount: '10.00' }),
): Promise<Sent> {
  const bank = await startStubBank(manners);
  running.push(bank);
  const worker = await startWorker(
    workerConfig({
      RAIL_BASE_URL: bank.url,
      RAIL_RESPONSE_TIMEOUT_MS: '300',
      RAIL_NOT_FOUND_TRUSTED_AFTER_MS: String(TRUSTED_AFTER_MS),
    }),
  );
  running.push(worker);
  const merchant = await makeMerchant(prisma, { balance: '100.00' });
  const path = 'Upi' in body ? '/api/payout' : '/api/impspayout';
  expect((await call(api.current, path, { merchant, body })).status).toBe(202);
  const { rows } = await pool.query<{ id: string; ack_no: string }>(
    'SELECT id, ack_no FROM payouts WHERE merchant_id = $1',
    [merchant.merchant.id],
  );
  return { bank, worker, merchantId: merchant.merchant.id, payoutId: rows[0]!.id, ackNo: rows[0]!.ack_no };
}

interface Ended {
  state: string;
  bank_reference: string | null;
  failure_reason: string | null;
  settled_at: Date | null;
}

async function ended(sent: Sent, states = ['SUCCESS', 'FAILED', 'REVERSED']): Promise<Ended> {
  const { rows } = await eventually(
    () =>
      pool.query<Ended>(
        'SELECT state::text, bank_reference, failure_reason::text, settled_at FROM payouts WHERE id = $1',
        [sent.payoutId],
      ),
    (r) => states.includes(r.rows[0]!.state),
    { timeoutMs: 20_000, what: `payout ${sent.payoutId} to reach ${states.join(' or ')}` },
  );
  return rows[0]!;
}

/** Every state the payout passed through, in order. */
async function story(payoutId: string): Promise<string[]> {
  const { rows } = await pool.query<{ to_state: string }>(
    'SELECT to_state::text FROM payout_events WHERE payout_id = $1 ORDER BY id',
    [payoutId],
  );
  return rows.map((r) => r.to_state);
}

async function expectReconcileClean(): Promise<void> {
  const report = await checkInvariants(prisma, { stuckAfterMs: 60_000 });
  expect(report.checks.filter((c) => c.breaches > 0)).toEqual([]);
}

describe('a bank that refuses a resubmit of a reference it paid, after losing the reply', () => {
  it('when the reply is lost, the status API lags with NOT_FOUND and the resubmit gets 400 DUPLICATE_REFERENCE, then the payout ends SUCCESS, never FAILED', async () => {
    const sent = await sendThrough({ loseFirstReply: true, statusLagMs: 1_200, strictDuplicates: true });
    const payout = await ended(sent);

    expect(payout).toMatchObject({ state: 'SUCCESS', bank_reference: sent.bank.book.get(sent.ackNo)!.utr });
    const states = await story(sent.payoutId);
    expect(states).not.toContain('FAILED');
    // It went through every step of the story: lost reply, NOT_FOUND, resubmit refused, then asked again.
    expect(states.filter((s) => s === 'SUBMITTING')).toHaveLength(2);
    expect(sent.bank.book.get(sent.ackNo)!.submissions).toBe(2);
    const refused = await pool.query(
      "SELECT 1 FROM payout_events WHERE payout_id = $1 AND rail_answer->>'outcome' = 'REFUSED'",
      [sent.payoutId],
    );
    expect(refused.rowCount).toBe(1);
    expect(sent.bank.paid()).toEqual([sent.ackNo]);
    expect(await expectBooksBalanced(pool, sent.merchantId)).toMatchObject({
      available: 9_000n,
      ledgerPaidOut: 1_000n,
    });
    await expectReconcileClean();
  });

  it('when the bank refuses the submit and its status API never shows the reference, then the payout fails only once the NOT_FOUND is old enough to trust, and the money comes back once', async () => {
    const sent = await sendThrough({ refuseEverySubmit: { status: 400, body: { error: 'INVALID_INSTRUCTION' } } });
    const payout = await ended(sent);

    expect(payout).toMatchObject({ state: 'FAILED', failure_reason: 'RAIL_REJECTED' });
    const { rows } = await pool.query<{ refused_at: Date }>(
      "SELECT min(created_at) AS refused_at FROM payout_events WHERE payout_id = $1 AND rail_answer->>'outcome' = 'REFUSED'",
      [sent.payoutId],
    );
    expect(payout.settled_at!.getTime() - rows[0]!.refused_at.getTime()).toBeGreaterThanOrEqual(TRUSTED_AFTER_MS);
    // Refused once, and not sent again into a refusal: the later steps were status checks.
    expect(sent.bank.submits).toBe(1);
    expect(sent.bank.statusCalls).toBeGreaterThanOrEqual(2);
    expect(await expectBooksBalanced(pool, sent.merchantId)).toMatchObject({
      available: 10_000n,
      reserved: 0n,
      ledgerPaidOut: 0n,
    });
    await expectReconcileClean();
  });
});

describe('deemed success and reversal', () => {
  it('when the bank keeps a payout PENDING for a while and then deems it successful, then it ends SUCCESS', async () => {
    const sent = await sendThrough({ deemedAfterMs: 1_500 }, upiBody({ Amount: '12.00' }));
    const payout = await ended(sent);
    expect(payout).toMatchObject({ state: 'SUCCESS', bank_reference: sent.bank.book.get(sent.ackNo)!.utr });
    expect(await story(sent.payoutId)).toContain('AWAITING_RAIL');
    expect(await expectBooksBalanced(pool, sent.merchantId)).toMatchObject({
      available: 8_800n,
      ledgerPaidOut: 1_200n,
    });
    await expectReconcileClean();
  });

  it('when the bank paid, lost the reply, and the money came back before it was asked, then the payout is settled SUCCESS and reversed once: the amount is back in the wallet', async () => {
    const sent = await sendThrough({ loseFirstReply: true, reverseAfterMs: 100 });
    const payout = await ended(sent, ['REVERSED', 'FAILED']);

    expect(payout).toMatchObject({
      state: 'REVERSED',
      failure_reason: 'REVERSED_BY_BENEFICIARY_BANK',
      bank_reference: sent.bank.book.get(sent.ackNo)!.utr,
    });
    expect(await story(sent.payoutId)).toEqual(expect.arrayContaining(['SUCCESS', 'REVERSED']));
    const { rows } = await pool.query<{ kind: string; n: number }>(
      'SELECT kind::text, count(*)::int AS n FROM ledger_entries WHERE payout_id = $1 GROUP BY kind ORDER BY kind',
      [sent.payoutId],
    );
    expect(rows).toEqual([
      { kind: 'PAYOUT_RESERVE', n: 2 },
      { kind: 'PAYOUT_REVERSAL', n: 2 },
      { kind: 'PAYOUT_SETTLE', n: 2 },
    ]);
    expect(sent.bank.reversed()).toEqual([sent.ackNo]);
    expect(await expectBooksBalanced(pool, sent.merchantId)).toMatchObject({ available: 10_000n, ledgerPaidOut: 0n });
    await expectReconcileClean();
  });
});

describe('garbage replies', () => {
  it.each<Garbage>(['html-502', 'truncated-json', 'long-utr', 'nul-in-json'])(
    'when the bank pays and answers the submit with %s, then nothing is settled on it: the status API is asked and the payout ends SUCCESS with the real UTR',
    async (garbage) => {
      const sent = await sendThrough({ garbleFirstReply: garbage });
      const payout = await ended(sent);
      expect(payout).toMatchObject({ state: 'SUCCESS', bank_reference: sent.bank.book.get(sent.ackNo)!.utr });
      expect(await story(sent.payoutId)).toContain('OUTCOME_UNKNOWN');
      expect(sent.bank.submits).toBe(1);
      expect(await expectBooksBalanced(pool, sent.merchantId)).toMatchObject({ ledgerPaidOut: 1_000n });
      // The garbled reply is in the payout's story, stored as it came (NULs made visible).
      const { rows } = await pool.query<{ answer: string }>(
        "SELECT rail_answer::text AS answer FROM payout_events WHERE payout_id = $1 AND to_state = 'OUTCOME_UNKNOWN'",
        [sent.payoutId],
      );
      expect(rows[0]!.answer).toContain('UNKNOWN');
      await expectReconcileClean();
    },
  );

  it('when the bank declines and answers the submit with garbage, then the payout ends FAILED on the status API’s word, and the money comes back once', async () => {
    const sent = await sendThrough({ decide: () => 'decline', garbleFirstReply: 'nul-in-json' });
    const payout = await ended(sent);
    expect(payout).toMatchObject({ state: 'FAILED', failure_reason: 'DECLINED_BY_BENEFICIARY_BANK' });
    expect(await expectBooksBalanced(pool, sent.merchantId)).toMatchObject({ available: 10_000n, ledgerPaidOut: 0n });
    await expectReconcileClean();
  });
});

describe('a rail answer that contradicts a settled payout', () => {
  it('when a slow submit answers SUCCESS after an inquiry settled the payout FAILED on the status API’s word, then the SUCCESS is recorded as a discrepancy, logged and counted — not dropped, not applied', async () => {
    // A worker stalls in a submit; the sweeper's inquiry runs meanwhile and the status API says FAILED
    // (the bank contradicting itself). The submit's SUCCESS arrives last.
    const bank = await startStubBank({
      holdSubmits: true,
      statusSays: (reference) => ({ reference, status: 'FAILED', reason: 'DECLINED_BY_BENEFICIARY_BANK' }),
    });
    running.push(bank);
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const db = testPrisma();
    const rail = createHttpRailAdapter({ baseUrl: bank.url, connectTimeoutMs: 1_000, responseTimeoutMs: 10_000 });
    running.push({ close: () => db.$disconnect() }, rail);
    const metrics = createMetrics('test');
    const errors: unknown[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => errors.push(JSON.parse(line)) });
    const driver = new PayoutDriver({
      db,
      rail,
      inquiries: { scheduleInquiry: () => Promise.resolve(true) },
      logger,
      actor: 'test',
      schedules: inquirySchedulesOf(workerConfig()),
      deadlineMs: 60_000,
      notFoundTrustedAfterMs: TRUSTED_AFTER_MS,
      railWindowMs: 15_000,
      metrics,
    });
    expect((await call(api.current, '/api/impspayout', { merchant, body: impsBody({ Amount: '10.00' }) })).status).toBe(
      202,
    );
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM payouts WHERE merchant_id = $1', [
      merchant.merchant.id,
    ]);
    const id = BigInt(rows[0]!.id);
    // The API's own worker-less queue holds the execute job; this driver runs the payout by hand.
    const submitting = driver.execute(id);
    await eventually(
      () => Promise.resolve(bank.submits),
      (n) => n === 1,
      { what: 'the submit to reach the bank' },
    );
    expect(await driver.inquire(id, 1)).toBe('FAILED DECLINED_BY_BENEFICIARY_BANK');
    bank.releaseSubmits();
    expect(await submitting).toBe('discrepancy SUCCESS_AFTER_FAILED (FAILED here)');

    const payout = await prisma.payout.findUniqueOrThrow({ where: { id } });
    expect(payout.state).toBe('FAILED');
    const { rows: open } = await pool.query<{ kind: string; source: string; status: string }>(
      'SELECT kind::text, source, status::text FROM discrepancies WHERE payout_id = $1',
      [id],
    );
    expect(open).toEqual([{ kind: 'SUCCESS_AFTER_FAILED', source: 'rail', status: 'OPEN' }]);
    expect(errors).toContainEqual(
      expect.objectContaining({ kind: 'SUCCESS_AFTER_FAILED', msg: expect.stringMatching(/discrepancy recorded/) }),
    );
    const counted = await metrics.railDiscrepancies.get();
    expect(counted.values).toContainEqual(
      expect.objectContaining({ labels: { kind: 'SUCCESS_AFTER_FAILED' }, value: 1 }),
    );
    // The money followed our settlement (returned to the wallet) until an operator resolves the discrepancy.
    expect(await expectBooksBalanced(pool, merchant.merchant.id)).toMatchObject({ available: 10_000n });
    const report = await checkInvariants(prisma, { stuckAfterMs: 60_000, skip: ['no-stuck-payouts'] });
    expect(report.openDiscrepancies).toBeGreaterThanOrEqual(1);
  });
});
