import { afterAll, describe, expect, it } from 'vitest';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody, newTransactionId, upiBody, useApi } from '../support/api.js';
import {
  CONTRACT_MESSAGES,
  digitsOfLength,
  expectJson,
  expectValidationError,
  insertCollection,
  invalidMidBody,
  jsonText,
  markPayoutSuccess,
  notFoundBody,
  unauthorizedBody,
} from './contract-expectations.js';

// Contract of GET /api/check_payout_status: docs/api.md, "Response bodies" and "Lookups". Found → 200,
// error false, status "Pending" / "Success" / "Failed", members of 2.2 plus mode and message, strings only.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const lookup = (transactionId: string) => `/api/check_payout_status?TransactionID=${encodeURIComponent(transactionId)}`;

describe('GET /api/check_payout_status found (200)', () => {
  it('when an IMPS payout is pending, then 200 "Pending" with the whole body of spec 2.2 plus mode and message', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    const accepted = await call(api.current, '/api/impspayout', {
      merchant,
      body: impsBody({ TransactionID: transactionId }),
    });
    expect(accepted.status).toBe(202);

    const res = await call(api.current, lookup(transactionId), { merchant });

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
      message: CONTRACT_MESSAGES.pending,
    });
  });

  it('when a UPI payout is pending, then 200 "Pending" with the UPI address as account, ifsc "" and Amount and TransactionID as strings', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    const accepted = await call(api.current, '/api/payout', {
      merchant,
      body: upiBody({ TransactionID: transactionId }),
    });
    expect(accepted.status).toBe(202);

    const res = await call(api.current, lookup(transactionId), { merchant });

    expectJson(res, 200, {
      error: false,
      status_code: 200,
      status: 'Pending',
      account: 'asha.kumar@okhdfc',
      ifsc: '',
      Amount: '101.00',
      Bankriff: '',
      Ack_no: accepted.json.Ack_no,
      TransactionID: transactionId,
      mode: 'UPI',
      message: CONTRACT_MESSAGES.pending,
    });
    expect(res.text).toContain('"Amount":"101.00"');
    expect(res.text).toContain(`"TransactionID":"${transactionId}"`);
  });

  it('when a payout has succeeded, then 200 "Success" with the Bankriff and MP00', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    const accepted = await call(api.current, '/api/impspayout', {
      merchant,
      body: impsBody({ TransactionID: transactionId, Amount: '250.75' }),
    });
    expect(accepted.status).toBe(202);
    await markPayoutSuccess(pool, merchant.merchant.id, transactionId, '123456789012');

    const res = await call(api.current, lookup(transactionId), { merchant });

    expectJson(res, 200, {
      error: false,
      status_code: 200,
      status: 'Success',
      account: '123456789012',
      ifsc: 'HDFC0001234',
      Amount: '250.75',
      Bankriff: '123456789012',
      Ack_no: accepted.json.Ack_no,
      TransactionID: transactionId,
      mode: 'IMPS',
      message: CONTRACT_MESSAGES.success,
    });
  });

  it('when a UPI payout has succeeded, then the lookup still writes Amount and TransactionID as strings', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    expect(
      (await call(api.current, '/api/payout', { merchant, body: upiBody({ TransactionID: transactionId }) })).status,
    ).toBe(202);
    await markPayoutSuccess(pool, merchant.merchant.id, transactionId, '998877665544');

    const res = await call(api.current, lookup(transactionId), { merchant });

    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'Success', ifsc: '', mode: 'UPI', Bankriff: '998877665544' });
    expect(res.text).toContain('"Amount":"101.00"');
    expect(res.text).toContain(`"TransactionID":"${transactionId}"`);
  });

  it('when a payout failed for insufficient balance, then 200 "Failed" with error false and the MP007 reason', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });
    const transactionId = newTransactionId();
    const refused = await call(api.current, '/api/payout', {
      merchant,
      body: upiBody({ TransactionID: transactionId }),
    });
    expect(refused.status).toBe(400);

    const res = await call(api.current, lookup(transactionId), { merchant });

    expectJson(res, 200, {
      error: false,
      status_code: 200,
      status: 'Failed',
      account: 'asha.kumar@okhdfc',
      ifsc: '',
      Amount: '101.00',
      Bankriff: '',
      Ack_no: refused.json.Ack_no,
      TransactionID: transactionId,
      mode: 'UPI',
      message: CONTRACT_MESSAGES.insufficientBalance,
      // Additions of CONTRACT.md "Several banks", only where the payout has them: a failed one has its reason.
      reason_code: 'INSUFFICIENT_BALANCE',
      retryable: true,
    });
  });

  it('when the payout was made with a 23-digit TransactionID, then the lookup by those digits finds it and echoes them exactly', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = digitsOfLength(23);
    const accepted = await call(api.current, '/api/impspayout', {
      merchant,
      body: jsonText(impsBody(), { TransactionID: transactionId }),
    });
    expect(accepted.status).toBe(202);

    const res = await call(api.current, lookup(transactionId), { merchant });

    expect(res.status).toBe(200);
    expect(res.text).toContain(`"TransactionID":"${transactionId}"`);
  });
});

describe('GET /api/check_payout_status not found (404)', () => {
  it('when no payout has the TransactionID, then 404 NOT FOUND with the contract message and the TransactionID asked for', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();

    const res = await call(api.current, lookup(transactionId), { merchant });

    expectJson(res, 404, notFoundBody(transactionId));
  });

  it("when the TransactionID is another merchant's payout, then it is simply not found", async () => {
    const owner = await makeMerchant(prisma, { balance: '1000.00' });
    const stranger = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    expect(
      (
        await call(api.current, '/api/impspayout', {
          merchant: owner,
          body: impsBody({ TransactionID: transactionId }),
        })
      ).status,
    ).toBe(202);

    const res = await call(api.current, lookup(transactionId), { merchant: stranger });

    expectJson(res, 404, notFoundBody(transactionId));
  });

  it('when the TransactionID belongs to a collection (pay-in) of the merchant, then the payout lookup does not find it', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    await insertCollection(pool, {
      merchantId: merchant.merchant.id,
      transactionId,
      amountPaise: 5_000n,
      bankReference: '300000000001',
    });

    const res = await call(api.current, lookup(transactionId), { merchant });

    expectJson(res, 404, notFoundBody(transactionId));
  });
});

describe('GET /api/check_payout_status refused', () => {
  it.each([
    { name: 'missing', query: '' },
    { name: 'empty', query: '?TransactionID=' },
    { name: 'letters', query: '?TransactionID=12AB34' },
    { name: '31 digits', query: `?TransactionID=${'1'.repeat(31)}` },
    { name: 'a decimal', query: '?TransactionID=123.0' },
    { name: 'repeated twice', query: '?TransactionID=123&TransactionID=456' },
  ])('when the query TransactionID is $name, then 422 VALIDATION ERROR naming TransactionID', async ({ query }) => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });

    const res = await call(api.current, `/api/check_payout_status${query}`, { merchant });

    expectValidationError(res, ['TransactionID']);
  });

  it('when the MID is not well formed, then 400 with status "FAILED" and "Please Input Valid MID"', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });

    const res = await call(api.current, lookup('123'), { merchant: { mid: 'bad.mid', token: merchant.token } });

    expectJson(res, 400, invalidMidBody('FAILED'));
  });

  it('when the credentials are missing or wrong, then 401 UNAUTHORIZED', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });

    const missing = await call(api.current, lookup('123'));
    const wrong = await call(api.current, lookup('123'), { merchant: { mid: merchant.mid, token: 'pgt_nope' } });

    expectJson(missing, 401, unauthorizedBody);
    expectJson(wrong, 401, unauthorizedBody);
  });
});
