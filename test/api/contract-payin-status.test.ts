import { afterAll, describe, expect, it } from 'vitest';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody, newTransactionId, useApi } from '../support/api.js';
import {
  digitsOfLength,
  expectJson,
  expectValidationError,
  insertCollection,
  invalidMidBody,
  merchantSnapshot,
  notFoundBody,
  unauthorizedBody,
} from './contract-expectations.js';

// Contract of GET /api/payin/status: docs/api.md, "Response bodies" and "Lookups". Found → 200 with the
// members of 2.1 only; status upper case; mode INTENT, COLLECT or QR; account "" allowed for INTENT.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const lookup = (transactionId: string) => `/api/payin/status?TransactionID=${encodeURIComponent(transactionId)}`;

describe('GET /api/payin/status found (200)', () => {
  it('when an INTENT collection succeeded, then 200 with exactly the members of spec 2.1, status "SUCCESS" and account ""', async () => {
    const merchant = await makeMerchant(prisma);
    const transactionId = newTransactionId();
    const ackNo = await insertCollection(pool, {
      merchantId: merchant.merchant.id,
      transactionId,
      mode: 'INTENT',
      payerAccount: '',
      amountPaise: 25_000n,
      bankReference: '401234567890',
      ackNo: `COLL${digitsOfLength(14)}`,
      status: 'SUCCESS',
    });

    const res = await call(api.current, lookup(transactionId), { merchant });

    expectJson(res, 200, {
      error: false,
      status_code: 200,
      status: 'SUCCESS',
      mode: 'INTENT',
      account: '',
      Amount: '250.00',
      Bankriff: '401234567890',
      Ack_no: ackNo,
      TransactionID: transactionId,
    });
    expect(res.text).toContain('"Amount":"250.00"');
    expect(res.text).toContain(`"TransactionID":"${transactionId}"`);
  });

  it('when a COLLECT collection is pending, then 200 with status "PENDING", mode "COLLECT" and the payer UPI address', async () => {
    const merchant = await makeMerchant(prisma);
    const transactionId = newTransactionId();
    const ackNo = await insertCollection(pool, {
      merchantId: merchant.merchant.id,
      transactionId,
      mode: 'COLLECT',
      payerAccount: 'payer.one@okicici',
      amountPaise: 1_005n,
      bankReference: '',
      status: 'PENDING',
    });

    const res = await call(api.current, lookup(transactionId), { merchant });

    expectJson(res, 200, {
      error: false,
      status_code: 200,
      status: 'PENDING',
      mode: 'COLLECT',
      account: 'payer.one@okicici',
      Amount: '10.05',
      Bankriff: '',
      Ack_no: ackNo,
      TransactionID: transactionId,
    });
  });

  it('when a QR collection failed, then 200 with status "FAILED" in upper case and mode "QR"', async () => {
    const merchant = await makeMerchant(prisma);
    const transactionId = newTransactionId();
    const ackNo = await insertCollection(pool, {
      merchantId: merchant.merchant.id,
      transactionId,
      mode: 'QR',
      payerAccount: 'payer.two@ybl',
      amountPaise: 100n,
      bankReference: '',
      status: 'FAILED',
    });

    const res = await call(api.current, lookup(transactionId), { merchant });

    expectJson(res, 200, {
      error: false,
      status_code: 200,
      status: 'FAILED',
      mode: 'QR',
      account: 'payer.two@ybl',
      Amount: '1.00',
      Bankriff: '',
      Ack_no: ackNo,
      TransactionID: transactionId,
    });
  });

  it('when the lookup is answered, then nothing in the database changes', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });
    const transactionId = newTransactionId();
    await insertCollection(pool, {
      merchantId: merchant.merchant.id,
      transactionId,
      amountPaise: 700n,
      bankReference: '401234567891',
    });
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    expect((await call(api.current, lookup(transactionId), { merchant })).status).toBe(200);

    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });
});

describe('GET /api/payin/status not found (404)', () => {
  it('when no collection has the TransactionID, then 404 NOT FOUND with the contract message and the TransactionID', async () => {
    const merchant = await makeMerchant(prisma);
    const transactionId = newTransactionId();

    const res = await call(api.current, lookup(transactionId), { merchant });

    expectJson(res, 404, notFoundBody(transactionId));
  });

  it("when the TransactionID is another merchant's collection, then it is simply not found", async () => {
    const owner = await makeMerchant(prisma);
    const stranger = await makeMerchant(prisma);
    const transactionId = newTransactionId();
    await insertCollection(pool, {
      merchantId: owner.merchant.id,
      transactionId,
      amountPaise: 25_000n,
      bankReference: '401234567892',
    });

    const res = await call(api.current, lookup(transactionId), { merchant: stranger });

    expectJson(res, 404, notFoundBody(transactionId));
  });

  it('when the TransactionID belongs to a payout of the merchant, then the pay-in lookup does not find it', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    expect(
      (await call(api.current, '/api/impspayout', { merchant, body: impsBody({ TransactionID: transactionId }) }))
        .status,
    ).toBe(202);

    const res = await call(api.current, lookup(transactionId), { merchant });

    expectJson(res, 404, notFoundBody(transactionId));
  });
});

describe('GET /api/payin/status refused', () => {
  it.each([
    { name: 'missing', query: '' },
    { name: 'letters', query: '?TransactionID=ABC' },
    { name: '31 digits', query: `?TransactionID=${'9'.repeat(31)}` },
    { name: 'negative', query: '?TransactionID=-42' },
    { name: 'repeated twice', query: '?TransactionID=1&TransactionID=1' },
  ])('when the query TransactionID is $name, then 422 VALIDATION ERROR naming TransactionID', async ({ query }) => {
    const merchant = await makeMerchant(prisma);

    const res = await call(api.current, `/api/payin/status${query}`, { merchant });

    expectValidationError(res, ['TransactionID']);
  });

  it('when the MID is not well formed, then 400 with status "FAILED" and "Please Input Valid MID"', async () => {
    const merchant = await makeMerchant(prisma);

    const res = await call(api.current, lookup('123'), { merchant: { mid: 'M'.repeat(65), token: merchant.token } });

    expectJson(res, 400, invalidMidBody('FAILED'));
  });

  it('when the credentials are missing or wrong, then 401 UNAUTHORIZED', async () => {
    const merchant = await makeMerchant(prisma);

    const missing = await call(api.current, lookup('123'), { headers: { MID: merchant.mid } });
    const wrong = await call(api.current, lookup('123'), { merchant: { mid: merchant.mid, token: 'pgt_nope' } });

    expectJson(missing, 401, unauthorizedBody);
    expectJson(wrong, 401, unauthorizedBody);
  });
});
