import { afterAll, describe, expect, it } from 'vitest';
import { payoutJobs } from '@payout/queue';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { call, impsBody, newTransactionId, upiBody, useApi } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import {
  ACK_NO_PATTERN,
  errorBody,
  expectJson,
  expectValidationError,
  ledgerEntriesOf,
  merchantSnapshot,
  payoutRows,
  walletOf,
} from './contract-expectations.js';

// Contract of ScheduledAt on the payout operations and bulk items: docs/api.md, "Scheduling a payout";
// CONTRACT.md, "The merchant API beyond the seed". No worker runs here, so a scheduled payout stays ACCEPTED;
// test/worker/scheduled-payouts.test.ts shows the worker sending it at its time and not before.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const IMPS = '/api/impspayout';
const UPI = '/api/payout';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A whole minute `ms` from now, as India's wall clock reads it (the contract's IST, written out here). */
function istWallClock(ms: number): { at: Date; iso: string; shown: string } {
  const at = new Date(Math.floor((Date.now() + ms) / MINUTE) * MINUTE);
  const wall = new Date(at.getTime() + (5 * 60 + 30) * MINUTE).toISOString();
  return {
    at,
    iso: `${wall.slice(0, 16)}:00+05:30`,
    shown: `${wall.slice(0, 10)} ${wall.slice(11, 16)} IST`,
  };
}

const scheduledText = (shown: string) => `MP006 - Your transaction is scheduled for ${shown}`;

const impsPending = (transactionId: string, ackNo: unknown, message: string) => ({
  error: false,
  status_code: 202,
  status: 'PENDING',
  account: '123456789012',
  ifsc: 'HDFC0001234',
  Amount: '101.00',
  Bankriff: '',
  Ack_no: ackNo,
  TransactionID: transactionId,
  message,
});

const lookup = (merchant: TestMerchant, transactionId: string) =>
  call(api.current, `/api/check_payout_status?TransactionID=${transactionId}`, { merchant });

describe('a payout with ScheduledAt', () => {
  it('when an IMPS payout is scheduled two hours ahead, then 202 PENDING "scheduled for" its IST minute, the amount reserved, and its job delayed until then', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    const when = istWallClock(2 * 60 * MINUTE);

    const res = await call(api.current, IMPS, {
      merchant,
      body: impsBody({ TransactionID: transactionId, ScheduledAt: when.iso }),
    });

    const [row] = await payoutRows(pool, merchant.merchant.id, transactionId);
    expect(row?.ack_no).toMatch(ACK_NO_PATTERN);
    expectJson(res, 202, impsPending(transactionId, row!.ack_no, scheduledText(when.shown)));
    expect(row).toMatchObject({ state: 'ACCEPTED', status: 'PENDING' });
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 89_900n, reserved: 10_100n });
    expect(await ledgerEntriesOf(pool, row!.id)).toEqual([
      { kind: 'PAYOUT_RESERVE', account: 'MAIN_WALLET', amount_paise: '-10100' },
      { kind: 'PAYOUT_RESERVE', account: 'RESERVED', amount_paise: '10100' },
    ]);
    // The sweeper's clock for it is its time: a schedule missed while the workers were down is found then.
    const { rows } = await pool.query<{ scheduled_at: Date; next_check_at: Date }>(
      'SELECT scheduled_at, next_check_at FROM payouts WHERE id = $1',
      [row!.id],
    );
    expect(rows[0]).toEqual({ scheduled_at: when.at, next_check_at: when.at });
    const job = await eventually(
      () => api.current.deps.producer.queue.getJob(payoutJobs.execute.jobId(row!.id)),
      (found) => found !== undefined,
      { timeoutMs: 5_000, what: 'the execute job' },
    );
    expect(await job!.getState()).toBe('delayed');
    expect(job!.timestamp + job!.opts.delay!).toBeGreaterThanOrEqual(when.at.getTime() - 1_000);
    expect(job!.timestamp + job!.opts.delay!).toBeLessThanOrEqual(when.at.getTime() + 1_000);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when it is looked up before its time, then Pending with the same scheduled text', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    const when = istWallClock(3 * DAY);
    const accepted = await call(api.current, IMPS, {
      merchant,
      body: impsBody({ TransactionID: transactionId, ScheduledAt: when.iso }),
    });
    expect(accepted.status, accepted.text).toBe(202);

    const res = await lookup(merchant, transactionId);

    expectJson(res, 200, {
      error: false,
      status_code: 200,
      status: 'Pending',
      account: '123456789012',
      ifsc: 'HDFC0001234',
      Amount: '101.00',
      Bankriff: '',
      Ack_no: accepted.json.Ack_no,
      TransactionID: transactionId,
      mode: 'IMPS',
      message: scheduledText(when.shown),
    });
  });

  it('when a UPI payout gives its time in UTC (Z), then the message tells the same moment in IST', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const when = istWallClock(DAY);
    const body = upiBody({ ScheduledAt: when.at.toISOString() });

    const res = await call(api.current, UPI, { merchant, body });

    expect(res.status, res.text).toBe(202);
    expect(res.json).toMatchObject({ status: 'PENDING', message: scheduledText(when.shown) });
  });

  it('when ScheduledAt is absent, null or "", then the payout is sent at once as before', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    for (const ScheduledAt of [undefined, null, '']) {
      const res = await call(api.current, IMPS, { merchant, body: impsBody({ ScheduledAt }) });
      expect(res.json.message, res.text).toBe('MP006 - Your transaction is in progress');
    }
  });
});

describe('a ScheduledAt the contract refuses', () => {
  it.each([
    { name: 'thirty seconds ahead (too soon)', value: () => new Date(Date.now() + 30_000).toISOString() },
    { name: 'an hour ago', value: () => new Date(Date.now() - 60 * MINUTE).toISOString() },
    { name: '91 days ahead (too late)', value: () => new Date(Date.now() + 91 * DAY).toISOString() },
    { name: 'no offset', value: () => istWallClock(2 * 60 * MINUTE).iso.slice(0, 19) },
    { name: 'a date that does not exist', value: () => '2027-02-30T10:00:00+05:30' },
    { name: 'not a time', value: () => 'tomorrow at ten' },
    { name: 'a number', value: () => 1798108200000 },
  ])('when it is $name, then 422 naming ScheduledAt, and nothing is recorded or reserved', async ({ value }) => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await call(api.current, IMPS, { merchant, body: impsBody({ ScheduledAt: value() }) });

    expectValidationError(res, ['ScheduledAt']);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });
});

describe('a replay of a scheduled payout', () => {
  it('when the same TransactionID comes with the same time (in another offset), then the same answer and nothing more is reserved', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const when = istWallClock(2 * 60 * MINUTE);
    const body = impsBody({ ScheduledAt: when.iso });
    const first = await call(api.current, IMPS, { merchant, body });
    expect(first.status, first.text).toBe(202);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const again = await call(api.current, IMPS, { merchant, body });
    const inUtc = await call(api.current, IMPS, { merchant, body: { ...body, ScheduledAt: when.at.toISOString() } });

    expectJson(again, 202, first.json);
    expectJson(inUtc, 202, first.json);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when its time is already past, then a replay with that time is still answered as the replay, not refused', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = impsBody({ ScheduledAt: istWallClock(2 * 60 * MINUTE).iso });
    expect((await call(api.current, IMPS, { merchant, body })).status).toBe(202);
    // As if the time had come while the workers were away: the payout is still ACCEPTED, its time now past.
    const past = new Date(Math.floor(Date.now() / 1_000) * 1_000 - 10 * MINUTE);
    await pool.query(
      'UPDATE payouts SET scheduled_at = $3, next_check_at = $3 WHERE merchant_id = $1 AND transaction_id = $2',
      [merchant.merchant.id, body.TransactionID, past],
    );
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await call(api.current, IMPS, { merchant, body: { ...body, ScheduledAt: past.toISOString() } });

    expect(res.status, res.text).toBe(202);
    expect(res.json.message).toMatch(/^MP006 - Your transaction is scheduled for \d{4}-\d{2}-\d{2} \d{2}:\d{2} IST$/);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it.each([
    { name: 'a different ScheduledAt', first: 2 * 60, second: 3 * 60 },
    { name: 'a ScheduledAt where the first had none', first: null, second: 2 * 60 },
    { name: 'no ScheduledAt where the first had one', first: 2 * 60, second: null },
    { name: 'a ScheduledAt outside the window where the first had another', first: 2 * 60, second: -60 },
  ])('when the same TransactionID comes with $name, then 409 CONFLICT and nothing changes', async (c) => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const at = (minutes: number | null) => (minutes === null ? undefined : istWallClock(minutes * MINUTE).iso);
    const body = impsBody({ ScheduledAt: at(c.first) });
    expect((await call(api.current, IMPS, { merchant, body })).status).toBe(202);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await call(api.current, IMPS, { merchant, body: { ...body, ScheduledAt: at(c.second) } });

    expectJson(res, 409, {
      ...errorBody(409, 'CONFLICT', expect.stringMatching(/already used for a different payout/i)),
      TransactionID: body.TransactionID,
    });
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });
});

describe('cancelling a scheduled payout', () => {
  it('when a payout waiting for its time is cancelled, then it fails "cancelled by you" and its amount is back in the main wallet', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    const accepted = await call(api.current, IMPS, {
      merchant,
      body: impsBody({ TransactionID: transactionId, ScheduledAt: istWallClock(DAY).iso }),
    });
    expect(accepted.status, accepted.text).toBe(202);
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 89_900n, reserved: 10_100n });

    const res = await call(api.current, '/api/payout/cancel', { merchant, body: { TransactionID: transactionId } });

    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      status: 'Failed',
      Ack_no: accepted.json.Ack_no,
      message: 'MP007 - Transaction failed: cancelled by you',
      reason_code: 'CANCELLED_BY_MERCHANT',
    });
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 100_000n, reserved: 0n });
    expect((await lookup(merchant, transactionId)).json.message).toBe('MP007 - Transaction failed: cancelled by you');
    await expectBooksBalanced(pool, merchant.merchant.id);
  });
});

describe('ScheduledAt on a bulk item', () => {
  it('when one item is scheduled and another is too soon, then the first is PENDING "scheduled for" and reserved, the second refused alone', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const when = istWallClock(2 * 60 * MINUTE);
    const scheduled = { Mode: 'IMPS', ...impsBody({ ScheduledAt: when.iso }) };
    const tooSoon = { Mode: 'UPI', ...upiBody({ ScheduledAt: new Date(Date.now() + 10_000).toISOString() }) };

    const res = await call(api.current, '/api/bulkpayout', {
      merchant,
      body: { BatchID: newTransactionId(), Payouts: [scheduled, tooSoon] },
    });

    expect(res.status, res.text).toBe(202);
    const [first, second] = res.json.results as Record<string, unknown>[];
    expect(first).toMatchObject({ index: 0, status: 'PENDING', message: scheduledText(when.shown) });
    expect(second).toMatchObject({
      index: 1,
      status_code: 422,
      errors: [{ field: 'ScheduledAt', message: expect.stringMatching(/\S/) }],
    });
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 89_900n, reserved: 10_100n });
    expect(await payoutRows(pool, merchant.merchant.id, tooSoon.TransactionID)).toEqual([]);
  });
});
