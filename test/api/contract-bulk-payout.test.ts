import { afterAll, describe, expect, it } from 'vitest';
import { jsonNumber } from '@payout/domain';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, losslessBody, newTransactionId, upiBody, useApi, type ApiResponse } from '../support/api.js';
import {
  ACK_NO_PATTERN,
  CONTRACT_MESSAGES,
  anyText,
  digitsOfLength,
  errorBody,
  expectJson,
  invalidMidBody,
  markPayoutSuccess,
  merchantSnapshot,
  payoutRows,
  unauthorizedBody,
  walletOf,
} from './contract-expectations.js';

// Contract of POST /api/bulkpayout and GET /api/bulkpayout/status (docs/api.md, "Bulk payouts").
// results[i] must be exactly what the single endpoint answers for item i, plus `index`: each expectation
// below is the single endpoint's body written out, as in the single endpoints' contract tests.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const BULK = '/api/bulkpayout';
const STATUS = '/api/bulkpayout/status';

const imps = (overrides: Record<string, unknown> = {}) => ({ Mode: 'IMPS', ...impsBody(overrides) });
const upi = (overrides: Record<string, unknown> = {}) => ({ Mode: 'UPI', ...upiBody(overrides) });
const send = (merchant: TestMerchant, body: unknown) => call(api.current, BULK, { merchant, body });
const lookup = (merchant: TestMerchant, batchId: string) =>
  call(api.current, `${STATUS}?BatchID=${encodeURIComponent(batchId)}`, { merchant });

/** Status, Content-Type and the whole body parsed losslessly (numbers compared by their exact literal). */
function expectWire(res: ApiResponse, status: number, body: Record<string, unknown>): void {
  expect(res.headers.get('content-type'), 'Content-Type').toMatch(/^application\/json\s*(;|$)/i);
  expect({ status: res.status, body: losslessBody(res) }, res.text).toEqual({ status, body });
}

const n = (literal: string | number) => jsonNumber(String(literal));
const ackOf = (res: ApiResponse, index: number) => (res.json.results as { Ack_no: string }[])[index]!.Ack_no;

/** The single endpoint's 422 body, as a batch item carries it (numbers as lossless literals). */
function validationItem(index: number, fields: string[]): Record<string, unknown> {
  return {
    error: true,
    status_code: n(422),
    status: 'VALIDATION ERROR',
    message: anyText,
    errors: fields.map((field) => ({ field, message: anyText })),
    index: n(index),
  };
}

describe('POST /api/bulkpayout', () => {
  it('when a batch mixes good, bad, short-of-balance, replayed and conflicting items, then each result is the single endpoint’s answer plus its index', async () => {
    const merchant = await makeMerchant(prisma, { balance: '500.00', impsMaxPaise: 30_000n });
    // Two payouts the merchant made before: one replayed with the same details, one reused for another payout.
    const earlier = impsBody({ Amount: '10.00' });
    const taken = impsBody({ Amount: '10.00' });
    for (const body of [earlier, taken])
      expect((await call(api.current, '/api/impspayout', { merchant, body })).status).toBe(202);
    const batchId = newTransactionId();
    const ids = Array.from({ length: 9 }, () => newTransactionId());
    const items = [
      imps({ TransactionID: ids[0], Amount: '101.00' }),
      upi({ TransactionID: ids[1], Amount: '99.50' }),
      imps({ TransactionID: ids[2], Ifsc: 'HDFC1234', Account: '12' }),
      { ...impsBody({ TransactionID: ids[3] }) }, // no Mode
      'not an object',
      upi({ TransactionID: ids[5], Amount: '400.00' }), // does not fit what is left
      { Mode: 'IMPS', ...earlier },
      imps({ TransactionID: taken.TransactionID, Amount: '11.00' }),
      imps({ TransactionID: ids[8], Amount: '300.01' }), // over this merchant's IMPS limit
    ];

    const res = await send(merchant, { BatchID: batchId, Payouts: items });

    const earlierRow = (await payoutRows(pool, merchant.merchant.id, earlier.TransactionID))[0]!;
    expectWire(res, 202, {
      error: false,
      status_code: n(202),
      status: 'ACCEPTED',
      BatchID: batchId,
      total: n(9),
      accepted: n(3),
      failed: n(1),
      rejected: n(5),
      message: anyText,
      results: [
        {
          error: false,
          status_code: n(202),
          status: 'PENDING',
          account: '123456789012',
          ifsc: 'HDFC0001234',
          Amount: '101.00',
          Bankriff: '',
          Ack_no: expect.stringMatching(ACK_NO_PATTERN),
          TransactionID: ids[0],
          message: CONTRACT_MESSAGES.pending,
          index: n(0),
        },
        {
          error: false,
          status_code: n(202),
          status: 'PENDING',
          account: 'asha.kumar@okhdfc',
          Amount: n('99.50'),
          Bankriff: '',
          Ack_no: expect.stringMatching(ACK_NO_PATTERN),
          TransactionID: n(ids[1]!),
          message: CONTRACT_MESSAGES.pending,
          index: n(1),
        },
        validationItem(2, ['Account', 'Ifsc']),
        validationItem(3, ['Mode']),
        { ...errorBody(400, 'BAD REQUEST'), status_code: n(400), index: n(4) },
        {
          error: true,
          status_code: n(400),
          status: 'FAILED',
          account: 'asha.kumar@okhdfc',
          Amount: '400.00',
          Bankriff: '',
          Ack_no: expect.stringMatching(ACK_NO_PATTERN),
          TransactionID: ids[5],
          message: CONTRACT_MESSAGES.insufficientBalance,
          index: n(5),
        },
        {
          error: false,
          status_code: n(202),
          status: 'PENDING',
          account: '123456789012',
          ifsc: 'HDFC0001234',
          Amount: '10.00',
          Bankriff: '',
          Ack_no: earlierRow.ack_no,
          TransactionID: earlier.TransactionID,
          message: CONTRACT_MESSAGES.pending,
          index: n(6),
        },
        {
          ...errorBody(409, 'CONFLICT'),
          status_code: n(409),
          TransactionID: taken.TransactionID,
          index: n(7),
        },
        validationItem(8, ['Amount']),
      ],
    });
    // Reserved: the two earlier payouts, then items 0 and 1; item 5 did not fit and reserved nothing.
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({
      available: 50_000n - 2_000n - 10_100n - 9_950n,
      reserved: 22_050n,
    });
    expect(await payoutRows(pool, merchant.merchant.id, ids[2]!)).toEqual([]);
    expect((await payoutRows(pool, merchant.merchant.id, taken.TransactionID))[0]).toMatchObject({
      amount_paise: '1000',
    });
    expect((await payoutRows(pool, merchant.merchant.id, ids[5]!))[0]).toMatchObject({
      state: 'FAILED',
      failure_reason: 'INSUFFICIENT_BALANCE',
    });
  });

  it('when items do not all fit, then they are reserved in item order and the ones that do not fit fail', async () => {
    const merchant = await makeMerchant(prisma, { balance: '300.00' });
    const items = ['100.00', '250.00', '100.00', '100.00', '1.00'].map((Amount) => upi({ Amount }));

    const res = await send(merchant, { BatchID: newTransactionId(), Payouts: items });

    expect(res.status, res.text).toBe(202);
    expect((res.json.results as { status: string }[]).map((r) => r.status)).toEqual([
      'PENDING',
      'FAILED',
      'PENDING',
      'PENDING',
      'FAILED',
    ]);
    expect(res.json).toMatchObject({ total: 5, accepted: 3, failed: 2, rejected: 0 });
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 0n, reserved: 30_000n });
  });

  it('when the same batch comes again, then it answers the batch as it now stands and changes nothing', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = { BatchID: newTransactionId(), Payouts: [imps(), upi(), imps({ Ifsc: 'bad' })] };
    const first = await send(merchant, body);
    expect(first.status, first.text).toBe(202);
    await markPayoutSuccess(pool, merchant.merchant.id, body.Payouts[0]!.TransactionID, '998877665544');
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const again = await send(merchant, body);

    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
    expect(again.status, again.text).toBe(202);
    expect(again.json).toMatchObject({ BatchID: body.BatchID, total: 3, accepted: 2, failed: 0, rejected: 1 });
    const results = again.json.results as Record<string, unknown>[];
    expect(results[0]).toMatchObject({
      status: 'SUCCESS',
      status_code: 200,
      Bankriff: '998877665544',
      Ack_no: ackOf(first, 0),
      message: CONTRACT_MESSAGES.success,
      index: 0,
    });
    expect(results[1]).toMatchObject({ status: 'PENDING', Ack_no: ackOf(first, 1), index: 1 });
    expect(results[2]).toEqual((first.json.results as unknown[])[2]);
  });

  it('when the same BatchID comes with different items, then 409 CONFLICT with the BatchID and nothing changes', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const batchId = newTransactionId();
    const items = [imps(), upi()];
    expect((await send(merchant, { BatchID: batchId, Payouts: items })).status).toBe(202);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const changed = await send(merchant, { BatchID: batchId, Payouts: [items[0], { ...items[1], Amount: '102.00' }] });
    const longer = await send(merchant, { BatchID: batchId, Payouts: [...items, upi()] });

    for (const res of [changed, longer]) {
      expectJson(res, 409, { ...errorBody(409, 'CONFLICT'), BatchID: batchId });
      expect(res.json.message).toContain(batchId);
    }
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when the BatchID is a 25-digit JSON number, then it comes back with exactly the same digits', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const batchId = digitsOfLength(25);
    const item = JSON.stringify(imps());

    const res = await call(api.current, BULK, { merchant, body: `{"BatchID":${batchId},"Payouts":[${item}]}` });

    expect(res.status, res.text).toBe(202);
    expect(losslessBody(res).BatchID).toBe(batchId);
    expect((await lookup(merchant, batchId)).json.BatchID).toBe(batchId);
  });

  it.each([
    ['BatchID missing', { Payouts: [imps()] }, ['BatchID']],
    ['BatchID with a letter', { BatchID: '12a', Payouts: [imps()] }, ['BatchID']],
    ['BatchID of 31 digits', { BatchID: '1'.repeat(31), Payouts: [imps()] }, ['BatchID']],
    ['BatchID negative', { BatchID: -5, Payouts: [imps()] }, ['BatchID']],
    ['Payouts missing', { BatchID: '1' }, ['Payouts']],
    ['Payouts not an array', { BatchID: '1', Payouts: imps() }, ['Payouts']],
    ['Payouts empty', { BatchID: '1', Payouts: [] }, ['Payouts']],
    ['both wrong', { BatchID: 'x', Payouts: [] }, ['BatchID', 'Payouts']],
  ])(
    'when the whole body is invalid (%s), then 422 listing the fields and nothing changes',
    async (_name, body, fields) => {
      const merchant = await makeMerchant(prisma, { balance: '1000.00' });
      const before = await merchantSnapshot(pool, merchant.merchant.id);

      const res = await send(merchant, body);

      expectJson(res, 422, {
        ...errorBody(422, 'VALIDATION ERROR'),
        errors: fields.map((field) => ({ field, message: anyText })),
      });
      expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
    },
  );

  it('when a batch holds 5,001 items, then 422 on Payouts and nothing is reserved', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100000.00' });
    const item = imps({ Amount: '1.00' });
    const payouts = Array.from({ length: 5_001 }, (_, i) => ({ ...item, TransactionID: `${i + 1}` }));

    const res = await send(merchant, { BatchID: '1', Payouts: payouts });

    expectJson(res, 422, { ...errorBody(422, 'VALIDATION ERROR'), errors: [{ field: 'Payouts', message: anyText }] });
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 10_000_000n, reserved: 0n });
  });

  it('when the body is not a JSON object, then 400; over 8 MiB, then 413; without the JSON content type, then 415', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });
    expectJson(await send(merchant, '[1,2]'), 400, errorBody(400, 'BAD REQUEST'));
    const huge = `{"BatchID":"1","Payouts":["${'x'.repeat(8 * 1024 * 1024)}"]}`;
    expectJson(await send(merchant, huge), 413, errorBody(413, 'PAYLOAD TOO LARGE'));
    const textPlain = await call(api.current, BULK, {
      merchant,
      body: JSON.stringify({ BatchID: '1', Payouts: [imps()] }),
      headers: { 'Content-Type': 'text/plain' },
    });
    expectJson(textPlain, 415, errorBody(415, 'UNSUPPORTED MEDIA TYPE'));
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 1_000n, reserved: 0n });
  });

  it('when credentials are missing or the MID is malformed, then 401 or 400 FAILED before the body is read; GET is 405', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });
    expectJson(await call(api.current, BULK, { body: { BatchID: '1', Payouts: [imps()] } }), 401, unauthorizedBody);
    const badMid = await call(api.current, BULK, {
      merchant: { mid: 'not a mid!', token: merchant.token },
      body: { BatchID: '1', Payouts: [imps()] },
    });
    expectJson(badMid, 400, invalidMidBody('FAILED'));
    expectJson(await call(api.current, BULK, { merchant }), 405, errorBody(405, 'METHOD NOT ALLOWED'));
  });

  it('when the same batch is sent twice at once, then each item becomes one payout and both answers agree', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = { BatchID: newTransactionId(), Payouts: Array.from({ length: 20 }, () => upi({ Amount: '10.00' })) };

    const [a, b] = await Promise.all([send(merchant, body), send(merchant, body)]);

    expect([a.status, b.status], a.text + b.text).toEqual([202, 202]);
    const acks = (res: ApiResponse) => (res.json.results as { Ack_no: string }[]).map((r) => r.Ack_no);
    expect(acks(a)).toEqual(acks(b));
    expect(new Set(acks(a)).size).toBe(20);
    const { rows } = await pool.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM payouts WHERE merchant_id = $1',
      [merchant.merchant.id],
    );
    expect(rows[0]!.count).toBe(20);
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 80_000n, reserved: 20_000n });
  });
});

describe('GET /api/bulkpayout/status', () => {
  it('when the batch exists, then 200 with the counts and each item’s status-lookup body plus its index', async () => {
    const merchant = await makeMerchant(prisma, { balance: '200.00' });
    const batchId = newTransactionId();
    const items = [imps({ Amount: '50.00' }), upi({ Amount: '50.00' }), upi({ Amount: '150.00' }), upi({ Upi: 'x' })];
    const accepted = await send(merchant, { BatchID: batchId, Payouts: items });
    expect(accepted.status, accepted.text).toBe(202);
    await markPayoutSuccess(pool, merchant.merchant.id, items[1]!.TransactionID, '112233445566');

    const res = await lookup(merchant, batchId);

    expectWire(res, 200, {
      error: false,
      status_code: n(200),
      status: 'Success',
      BatchID: batchId,
      total: n(4),
      pending: n(1),
      success: n(1),
      failed: n(1),
      rejected: n(1),
      message: anyText,
      results: [
        {
          error: false,
          status_code: n(200),
          status: 'Pending',
          account: '123456789012',
          ifsc: 'HDFC0001234',
          Amount: '50.00',
          Bankriff: '',
          Ack_no: ackOf(accepted, 0),
          TransactionID: items[0]!.TransactionID,
          mode: 'IMPS',
          message: CONTRACT_MESSAGES.pending,
          index: n(0),
        },
        {
          error: false,
          status_code: n(200),
          status: 'Success',
          account: 'asha.kumar@okhdfc',
          ifsc: '',
          Amount: '50.00',
          Bankriff: '112233445566',
          Ack_no: ackOf(accepted, 1),
          TransactionID: items[1]!.TransactionID,
          mode: 'UPI',
          message: CONTRACT_MESSAGES.success,
          index: n(1),
        },
        {
          error: false,
          status_code: n(200),
          status: 'Failed',
          account: 'asha.kumar@okhdfc',
          ifsc: '',
          Amount: '150.00',
          Bankriff: '',
          Ack_no: ackOf(accepted, 2),
          TransactionID: items[2]!.TransactionID,
          mode: 'UPI',
          message: CONTRACT_MESSAGES.insufficientBalance,
          reason_code: 'INSUFFICIENT_BALANCE',
          retryable: true,
          index: n(2),
        },
        validationItem(3, ['Upi']),
      ],
    });
  });

  it('when the BatchID is unknown or another merchant’s, then 404 NOT FOUND with the BatchID', async () => {
    const owner = await makeMerchant(prisma, { balance: '100.00' });
    const other = await makeMerchant(prisma, { balance: '100.00' });
    const batchId = newTransactionId();
    expect((await send(owner, { BatchID: batchId, Payouts: [upi()] })).status).toBe(202);

    for (const [merchant, id] of [
      [other, batchId],
      [owner, newTransactionId()],
    ] as const) {
      expectJson(await lookup(merchant, id), 404, {
        ...errorBody(404, 'NOT FOUND', CONTRACT_MESSAGES.transactionNotFound),
        BatchID: id,
      });
    }
  });

  it('when the BatchID query is missing or not digits, then 422; POST is 405; no credentials 401', async () => {
    const merchant = await makeMerchant(prisma);
    for (const query of ['', '?BatchID=12x', `?BatchID=${'9'.repeat(31)}`]) {
      const res = await call(api.current, STATUS + query, { merchant });
      expectJson(res, 422, { ...errorBody(422, 'VALIDATION ERROR'), errors: [{ field: 'BatchID', message: anyText }] });
    }
    expectJson(
      await call(api.current, `${STATUS}?BatchID=1`, { merchant, method: 'POST' }),
      405,
      errorBody(405, 'METHOD NOT ALLOWED'),
    );
    expectJson(await call(api.current, `${STATUS}?BatchID=1`), 401, unauthorizedBody);
  });
});
