import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkInvariants, type PrismaClient } from '@payout/db';
import { PAYIN_SIGNATURE_HEADER, payinSignature, QUEUED_MESSAGE } from '@payout/domain';
import { call, impsBody, newTransactionId, type ApiResponse } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { merchantBooks } from '../support/ledger-checks.js';
import { consoleSession } from '../support/console.js';
import { useStack } from '../support/stack.js';
import { askedAndApproved, fourEyes } from '../support/approvals.js';
import { cli, cliJsonAs, setCliAdmin } from '../webhooks/webhook-fixtures.js';

// Queue if low balance (docs/api.md, "Queue if low balance"): an opted-in merchant's payout that does not
// fit is accepted PENDING and waits, in arrival order, for a credit — a pay-in or an operator credit —
// which releases what fits in its own transaction; one that waits past the merchant's window fails.
const PAYIN_SECRET = 'provider-secret-for-the-queue-tests';
process.env.PAYIN_CALLBACK_SECRET = PAYIN_SECRET;
const stack = useStack();
let db: PrismaClient;
let pool: pg.Pool;
beforeAll(async () => {
  db = testPrisma();
  pool = testPool();
  // `merchant update` is an operator's change: made with the operator's own key.
  setCliAdmin(stack.current.api.adminUrl, (await fourEyes()).makerKey);
});
afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

async function queueingMerchant(balance: string): Promise<TestMerchant> {
  const merchant = await makeMerchant(db, { balance });
  const updated = await cli('merchant', 'update', '--mid', merchant.mid, '--queue-if-low-balance', 'on', '--json');
  expect(updated.status, updated.stderr).toBe(0);
  expect(JSON.parse(updated.stdout)).toMatchObject({ queueIfLowBalance: 'on', queueWindow: '72h' });
  return merchant;
}

const pay = (merchant: TestMerchant, amount: string) =>
  call(stack.current.api, '/api/impspayout', { merchant, body: impsBody({ Amount: amount }) });

async function stateOf(ackNo: unknown): Promise<string> {
  const { rows } = await pool.query<{ state: string }>('SELECT state::text FROM payouts WHERE ack_no = $1', [ackNo]);
  return rows[0]!.state;
}

async function payin(merchant: TestMerchant, amount: string): Promise<ApiResponse> {
  const body = JSON.stringify({
    MID: merchant.mid,
    TransactionID: newTransactionId(),
    Amount: amount,
    mode: 'INTENT',
    account: '',
    Bankriff: `UTR${newTransactionId()}`,
    status: 'SUCCESS',
  });
  const signature = payinSignature(PAYIN_SECRET, Math.floor(Date.now() / 1000), body);
  return call(stack.current.api, '/api/callbacks/payin', { body, headers: { [PAYIN_SIGNATURE_HEADER]: signature } });
}

async function expectReconciled(): Promise<void> {
  const report = await checkInvariants(db, { stuckAfterMs: 60_000, skip: ['no-stuck-payouts'] });
  expect(report.checks.filter((c) => c.breaches > 0)).toEqual([]);
  expect(report.ok).toBe(true);
}

describe('queue if low balance', () => {
  it('when payouts do not fit, then they are accepted PENDING as queued, later ones wait behind them, and each credit releases them in order while they fit', async () => {
    const merchant = await queueingMerchant('100.00');
    const first = await pay(merchant, '60.00');
    const second = await pay(merchant, '60.00');
    // Would fit the 40.00 left, but arrives while the 60.00 waits: it waits behind it.
    const third = await pay(merchant, '30.00');
    expect(first.status).toBe(202);
    for (const queued of [second, third]) {
      expect(queued.status).toBe(202);
      expect(queued.json).toMatchObject({ error: false, status: 'PENDING', message: QUEUED_MESSAGE });
    }
    expect(await stateOf(second.json.Ack_no)).toBe('QUEUED');
    expect(await stateOf(third.json.Ack_no)).toBe('QUEUED');
    // The lookup says Pending, and why.
    const lookup = await call(
      stack.current.api,
      `/api/check_payout_status?TransactionID=${String(second.json.TransactionID)}`,
      { merchant },
    );
    expect(lookup.json).toMatchObject({ status: 'Pending', message: QUEUED_MESSAGE });
    // Support sees them in the console's queue list.
    const cookie = await consoleSession(stack.current.api.adminUrl, `queue-${merchant.mid}`.toLowerCase(), 'support');
    const list = await fetch(`${stack.current.api.adminUrl}/console/lists/queued`, { headers: { Cookie: cookie } });
    const listed = await list.text();
    expect(list.status).toBe(200);
    expect([second, third].map((a) => listed.includes(String(a.json.Ack_no)))).toEqual([true, true]);
    expect(listed.includes(String(first.json.Ack_no))).toBe(false);
    // A replay answers the same.
    expect((await pay(merchant, '60.00')).status).toBe(202);
    // Only the first is reserved (or, by now, paid): the queued ones hold nothing.
    const before = await merchantBooks(pool, merchant.merchant.id);
    expect({ available: before.available, held: before.reserved + before.ledgerPaidOut }).toEqual({
      available: 4_000n,
      held: 6_000n,
    });
    await expectReconciled();

    // A pay-in of 25.00 makes 65.00: the 60.00 goes, the 30.00 behind it does not fit the 5.00 left.
    expect((await payin(merchant, '25.00')).status).toBe(200);
    expect(await stateOf(second.json.Ack_no)).not.toBe('QUEUED');
    expect(await stateOf(third.json.Ack_no)).toBe('QUEUED');

    // An operator credit of 25.00, once a second person approves it, makes 30.00: the 30.00 goes.
    const credit = await askedAndApproved(
      cliJsonAs,
      'wallet',
      'credit',
      '--mid',
      merchant.mid,
      '--amount',
      '25.00',
      '--reference',
      `top-up-${merchant.mid}`,
    );
    expect(credit).toMatchObject({ state: 'EXECUTED' });
    expect(await stateOf(third.json.Ack_no)).not.toBe('QUEUED');

    // Released payouts are ordinary payouts: the worker pays them.
    for (const answer of [first, second, third]) {
      await eventually(
        () => stateOf(answer.json.Ack_no),
        (s) => s === 'SUCCESS',
        { what: 'the payout to be paid' },
      );
    }
    expect(await merchantBooks(pool, merchant.merchant.id)).toMatchObject({ available: 0n, reserved: 0n });
    const { rows: events } = await pool.query<{ from_state: string | null; to_state: string }>(
      `SELECT e.from_state::text, e.to_state::text FROM payout_events e JOIN payouts p ON p.id = e.payout_id
        WHERE p.ack_no = $1 ORDER BY e.id LIMIT 2`,
      [second.json.Ack_no],
    );
    expect(events).toEqual([
      { from_state: null, to_state: 'QUEUED' },
      { from_state: 'QUEUED', to_state: 'ACCEPTED' },
    ]);
    await expectReconciled();
  });

  it('when a queued payout waits longer than the merchant queue window, then it fails with insufficient balance and nothing moves', async () => {
    const merchant = await queueingMerchant('0');
    const queued = await pay(merchant, '10.00');
    expect(queued.json).toMatchObject({ status: 'PENDING', message: QUEUED_MESSAGE });
    // Accepted 73 hours ago, as far as its window is concerned.
    await pool.query(`UPDATE payouts SET created_at = now() - interval '73 hours' WHERE ack_no = $1`, [
      queued.json.Ack_no,
    ]);
    await eventually(
      () => stateOf(queued.json.Ack_no),
      (s) => s === 'FAILED',
      { what: 'the queue window to pass' },
    );
    const lookup = await call(
      stack.current.api,
      `/api/check_payout_status?TransactionID=${String(queued.json.TransactionID)}`,
      { merchant },
    );
    expect(lookup.json).toMatchObject({
      status: 'Failed',
      message: 'MP007 - Transaction failed: insufficient balance in main wallet',
    });
    // A later credit finds nothing to release.
    expect((await payin(merchant, '10.00')).status).toBe(200);
    expect(await stateOf(queued.json.Ack_no)).toBe('FAILED');
    expect(await merchantBooks(pool, merchant.merchant.id)).toMatchObject({ available: 1_000n, reserved: 0n });
    await expectReconciled();
  });

  it('when a merchant has not opted in, then a payout that does not fit is refused at once as before', async () => {
    const merchant = await makeMerchant(db, { balance: '5.00' });
    const refused = await pay(merchant, '10.00');
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      status: 'FAILED',
      message: 'MP007 - Transaction failed: insufficient balance in main wallet',
    });
  });

  it('when credits and payouts race, then no wallet is overdrawn, no payout is released twice, and nothing overtakes a queued payout', async () => {
    const merchant = await queueingMerchant('0');
    const payouts = Array.from({ length: 30 }, () => pay(merchant, '10.00'));
    const credits = Array.from({ length: 10 }, () => payin(merchant, '20.00'));
    const [answers, creditAnswers] = await Promise.all([Promise.all(payouts), Promise.all(credits)]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    expect(creditAnswers.map((a) => a.status)).toEqual(creditAnswers.map(() => 200));

    const { rows } = await pool.query<{ id: string; state: string; reserves: number }>(
      `SELECT p.id::text, p.state::text,
              (SELECT count(*)::int FROM ledger_entries l
                WHERE l.payout_id = p.id AND l.kind = 'PAYOUT_RESERVE' AND l.amount_paise > 0) AS reserves
         FROM payouts p WHERE p.merchant_id = $1 ORDER BY p.id`,
      [merchant.merchant.id],
    );
    // 200.00 of credits pays for exactly twenty 10.00 payouts, each reserved once.
    const reserved = rows.filter((r) => r.state !== 'QUEUED');
    const waiting = rows.filter((r) => r.state === 'QUEUED');
    expect({ reserved: reserved.length, waiting: waiting.length }).toEqual({ reserved: 20, waiting: 10 });
    expect(rows.map((r) => r.reserves)).toEqual(rows.map((r) => (r.state === 'QUEUED' ? 0 : 1)));
    // Arrival order: every payout still waiting arrived after every payout that went ahead.
    expect(rows.map((r) => r.state === 'QUEUED')).toEqual(rows.map((_r, i) => i >= 20));
    const books = await merchantBooks(pool, merchant.merchant.id);
    expect(books.available).toBe(0n);
    await expectReconciled();
  });
});
