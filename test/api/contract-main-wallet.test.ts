import { afterAll, describe, expect, it } from 'vitest';
import { creditWallet } from '@payout/db';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody, upiBody, useApi } from '../support/api.js';
import {
  CONTRACT_MESSAGES,
  errorBody,
  expectJson,
  invalidMidBody,
  markPayoutSuccess,
  merchantSnapshot,
  unauthorizedBody,
} from './contract-expectations.js';

// Contract of GET /api/checkMainWallet?PayoutType=Main_Wallet_Balance: docs/api.md, "Response bodies" and
// "Lookups". `mainwallet` is the available balance: credits minus settled and reserved payouts.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const WALLET = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';

function walletBody(mainwallet: string): Record<string, unknown> {
  return { error: false, status_code: 200, status: 'Success', mainwallet, message: 'Success.' };
}

const badPayoutType = errorBody(400, 'BAD REQUEST', CONTRACT_MESSAGES.invalidPayoutType);

describe('GET /api/checkMainWallet found (200)', () => {
  it('when a merchant has a credited wallet, then 200 "Success" with mainwallet as a string with two fraction digits', async () => {
    const merchant = await makeMerchant(prisma, { balance: '4765.00' });

    const res = await call(api.current, WALLET, { merchant });

    expectJson(res, 200, walletBody('4765.00'));
    expect(res.text).toContain('"mainwallet":"4765.00"');
  });

  it('when payouts were accepted, refused and settled, then mainwallet is credits minus reserved and settled payouts', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    await creditWallet(prisma, merchant.merchant.id, 5n, `second-credit-${merchant.mid}`);
    const imps = impsBody({ Amount: '101.00' });
    expect((await call(api.current, '/api/impspayout', { merchant, body: imps })).status).toBe(202);
    expect((await call(api.current, '/api/payout', { merchant, body: upiBody({ Amount: '250.50' }) })).status).toBe(
      202,
    );
    expect((await call(api.current, '/api/payout', { merchant, body: upiBody({ Amount: '900.00' }) })).status).toBe(
      400,
    );
    await markPayoutSuccess(pool, merchant.merchant.id, imps.TransactionID);

    const res = await call(api.current, WALLET, { merchant });

    // 1000.05 credited − 101.00 (settled) − 250.50 (reserved); the refused 900.00 reserved nothing.
    expectJson(res, 200, walletBody('648.55'));
  });

  it('when the whole balance is reserved, then mainwallet is "0.00"', async () => {
    const merchant = await makeMerchant(prisma, { balance: '101.00' });
    expect(
      (await call(api.current, '/api/impspayout', { merchant, body: impsBody({ Amount: '101.00' }) })).status,
    ).toBe(202);

    const res = await call(api.current, WALLET, { merchant });

    expectJson(res, 200, walletBody('0.00'));
  });

  it('when the lookup is answered, then nothing in the database changes', async () => {
    const merchant = await makeMerchant(prisma, { balance: '12.34' });
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    expectJson(await call(api.current, WALLET, { merchant }), 200, walletBody('12.34'));

    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });
});

describe('GET /api/checkMainWallet refused', () => {
  it.each([
    { name: 'missing', query: '' },
    { name: 'empty', query: '?PayoutType=' },
    { name: 'another value', query: '?PayoutType=Commission_Wallet_Balance' },
    { name: 'in another case', query: '?PayoutType=main_wallet_balance' },
    { name: 'repeated twice', query: '?PayoutType=Main_Wallet_Balance&PayoutType=Main_Wallet_Balance' },
  ])('when PayoutType is $name, then 400 BAD REQUEST "please input valid payout type"', async ({ query }) => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });

    const res = await call(api.current, `/api/checkMainWallet${query}`, { merchant });

    expectJson(res, 400, badPayoutType);
  });

  it('when the merchant has no main wallet, then 404 NOT FOUND "Data not found, please contact administrative !!."', async () => {
    const merchant = await makeMerchant(prisma);

    const res = await call(api.current, WALLET, { merchant });

    expectJson(res, 404, errorBody(404, 'NOT FOUND', CONTRACT_MESSAGES.walletNotFound));
  });

  it('when the MID is not well formed, then 400 with status "BAD REQUEST" and "Please Input Valid MID"', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });

    const res = await call(api.current, WALLET, { merchant: { mid: 'bad.mid', token: merchant.token } });

    expectJson(res, 400, invalidMidBody('BAD REQUEST'));
  });

  it('when the credentials are missing, unknown or wrong, then 401 UNAUTHORIZED', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });

    const missing = await call(api.current, WALLET);
    const unknown = await call(api.current, WALLET, { merchant: { mid: `${merchant.mid}Z`, token: merchant.token } });
    const wrong = await call(api.current, WALLET, { merchant: { mid: merchant.mid, token: 'pgt_nope' } });

    expectJson(missing, 401, unauthorizedBody);
    expectJson(unknown, 401, unauthorizedBody);
    expectJson(wrong, 401, unauthorizedBody);
  });
});
