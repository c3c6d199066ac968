import { afterAll, describe, expect, it } from 'vitest';
import { jsonNumber } from '@payout/domain';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody, losslessBody, newTransactionId, upiBody, useApi, type ApiResponse } from '../support/api.js';
import {
  CONTRACT_MESSAGES,
  digitsOfLength,
  errorBody,
  expectJson,
  expectValidationError,
  invalidMidBody,
  jsonText,
  markPayoutSuccess,
  merchantSnapshot,
  payoutRows,
  unauthorizedBody,
  walletOf,
} from './contract-expectations.js';

// Contract of POST /api/payout (UPI): docs/api.md, "Request members", "Response bodies" and "Payout results". UPI PENDING
// and SUCCESS results carry Amount and TransactionID as JSON numbers (exact literals); FAILED as strings.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const UPI = '/api/payout';
const UPI_ADDRESS = 'asha.kumar@okhdfc';

/**
 * Asserts status, Content-Type and the whole body parsed losslessly: numbers are compared by their exact
 * literal (jsonNumber('101.00') matches 101.00 only, never 101 or "101.00").
 */
function expectWire(res: ApiResponse, status: number, body: Record<string, unknown>): void {
  expect(res.headers.get('content-type'), 'Content-Type').toMatch(/^application\/json\s*(;|$)/i);
  expect({ status: res.status, body: losslessBody(res) }, res.text).toEqual({ status, body });
}

/** A member written as a JSON literal, followed by the end of the member. */
function literalIn(text: string, member: string, literal: string): boolean {
  return new RegExp(`"${member}":${literal.replace(/[.]/g, '\\.')}(,|\\})`).test(text);
}

describe('POST /api/payout accepted (202 PENDING)', () => {
  it('when a funded merchant sends a valid UPI payout, then 202 PENDING with Amount and TransactionID as number literals and no ifsc', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();

    const res = await call(api.current, UPI, { merchant, body: upiBody({ TransactionID: transactionId }) });

    const [row] = await payoutRows(pool, merchant.merchant.id, transactionId);
    expect(row).toMatchObject({ mode: 'UPI', state: 'ACCEPTED', status: 'PENDING', beneficiary_ifsc: null });
    expectWire(res, 202, {
      error: false,
      status_code: jsonNumber('202'),
      status: 'PENDING',
      account: UPI_ADDRESS,
      Amount: jsonNumber('101.00'),
      Bankriff: '',
      Ack_no: row!.ack_no,
      TransactionID: jsonNumber(transactionId),
      message: CONTRACT_MESSAGES.pending,
    });
    expect(literalIn(res.text, 'Amount', '101.00'), res.text).toBe(true);
    expect(literalIn(res.text, 'TransactionID', transactionId), res.text).toBe(true);
    expect(res.text).not.toContain('"ifsc"');
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 89_900n, reserved: 10_100n });
  });

  it('when a 23-digit TransactionID is sent as a JSON number, then it comes back as a number literal with exactly the same digits', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = digitsOfLength(23);

    const res = await call(api.current, UPI, {
      merchant,
      body: jsonText(upiBody(), { TransactionID: transactionId, Mobile: '9876543210', Amount: '101.00' }),
    });

    expect(res.status).toBe(202);
    expect(literalIn(res.text, 'TransactionID', transactionId), res.text).toBe(true);
    expect(losslessBody(res).TransactionID).toEqual(jsonNumber(transactionId));
    expect(await payoutRows(pool, merchant.merchant.id, transactionId)).toHaveLength(1);
  });

  it('when Amount is sent as the literal 250 or the string "99.5", then the result writes 250.00 and 99.50', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });

    const whole = await call(api.current, UPI, { merchant, body: jsonText(upiBody(), { Amount: '250' }) });
    const half = await call(api.current, UPI, { merchant, body: upiBody({ Amount: '99.5' }) });

    expect([whole.status, half.status]).toEqual([202, 202]);
    expect(literalIn(whole.text, 'Amount', '250.00'), whole.text).toBe(true);
    expect(literalIn(half.text, 'Amount', '99.50'), half.text).toBe(true);
  });

  it('when Amount is exactly the UPI ceiling 100000.00, then it is accepted, and 100000.01 is 422 Amount', async () => {
    const merchant = await makeMerchant(prisma, { balance: '200000.00' });

    const at = await call(api.current, UPI, { merchant, body: upiBody({ Amount: '100000.00' }) });
    expect(at.status).toBe(202);
    expect(literalIn(at.text, 'Amount', '100000.00'), at.text).toBe(true);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const over = await call(api.current, UPI, { merchant, body: upiBody({ Amount: '100000.01' }) });
    expectValidationError(over, ['Amount']);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when the UPI address is as long as the contract allows (256 characters @ 64 letters), then it is accepted', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const longest = `${'a'.repeat(256)}@${'b'.repeat(64)}`;

    const res = await call(api.current, UPI, { merchant, body: upiBody({ Upi: longest }) });

    expect({ status: res.status, account: res.json.account }, res.text).toEqual({ status: 202, account: longest });
  });
});

describe('POST /api/payout with insufficient balance (400 FAILED)', () => {
  it('when the available balance is short, then 400 FAILED with Amount and TransactionID as strings, MP007 and nothing reserved', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const transactionId = newTransactionId();

    const res = await call(api.current, UPI, {
      merchant,
      body: jsonText(upiBody(), { TransactionID: transactionId, Amount: '101.00' }),
    });

    const [row] = await payoutRows(pool, merchant.merchant.id, transactionId);
    expect(row).toMatchObject({ state: 'FAILED', failure_reason: 'INSUFFICIENT_BALANCE' });
    expectWire(res, 400, {
      error: true,
      status_code: jsonNumber('400'),
      status: 'FAILED',
      account: UPI_ADDRESS,
      Amount: '101.00',
      Bankriff: '',
      Ack_no: row!.ack_no,
      TransactionID: transactionId,
      message: CONTRACT_MESSAGES.insufficientBalance,
    });
    expect(res.text).toContain('"Amount":"101.00"');
    expect(res.text).toContain(`"TransactionID":"${transactionId}"`);
    expect(res.text).not.toContain('"ifsc"');
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 10_000n, reserved: 0n });
  });
});

describe('POST /api/payout replays', () => {
  it('when the same TransactionID and details are sent again while pending, then the same 202 and nothing new is recorded', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = upiBody();
    const first = await call(api.current, UPI, { merchant, body });
    expect(first.status).toBe(202);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const again = await call(api.current, UPI, {
      merchant,
      body: jsonText(body, { TransactionID: body.TransactionID, Amount: '101' }),
    });

    expect({ status: again.status, text: again.text }).toEqual({ status: 202, text: first.text });
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when a replay arrives after the payout succeeded, then 200 SUCCESS with number literals, MP00 and the Bankriff', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = upiBody();
    const first = await call(api.current, UPI, { merchant, body });
    expect(first.status).toBe(202);
    await markPayoutSuccess(pool, merchant.merchant.id, body.TransactionID, '512345678901');

    const again = await call(api.current, UPI, { merchant, body });

    expectWire(again, 200, {
      error: false,
      status_code: jsonNumber('200'),
      status: 'SUCCESS',
      account: UPI_ADDRESS,
      Amount: jsonNumber('101.00'),
      Bankriff: '512345678901',
      Ack_no: first.json.Ack_no,
      TransactionID: jsonNumber(body.TransactionID),
      message: CONTRACT_MESSAGES.success,
    });
    expect(literalIn(again.text, 'Amount', '101.00'), again.text).toBe(true);
  });

  it.each([
    { name: 'a different UPI address', change: { Upi: 'someone.else@okaxis' } },
    { name: 'a different amount', change: { Amount: '100.99' } },
  ])('when the same TransactionID comes with $name, then 409 CONFLICT and nothing changes', async ({ change }) => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = upiBody();
    expect((await call(api.current, UPI, { merchant, body })).status).toBe(202);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await call(api.current, UPI, { merchant, body: { ...body, ...change } });

    expectJson(res, 409, {
      ...errorBody(409, 'CONFLICT', expect.stringMatching(/already used for a different payout/i)),
      TransactionID: body.TransactionID,
    });
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when a TransactionID already used by an IMPS payout is sent for UPI, then 409 CONFLICT', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    const imps = await call(api.current, '/api/impspayout', {
      merchant,
      body: impsBody({ TransactionID: transactionId }),
    });
    expect(imps.status).toBe(202);

    const res = await call(api.current, UPI, { merchant, body: upiBody({ TransactionID: transactionId }) });

    expectJson(res, 409, {
      ...errorBody(409, 'CONFLICT', expect.stringMatching(/already used for a different payout/i)),
      TransactionID: transactionId,
    });
  });
});

describe('POST /api/payout validation and authentication', () => {
  it('when every member is invalid, then 422 lists every failing field and nothing is recorded', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await call(api.current, UPI, {
      merchant,
      body: {
        Name: '',
        Mobile: '12345',
        Email: 'asha@@example.com',
        Amount: '-5.00',
        Description: 'x'.repeat(256),
        TransactionID: '1'.repeat(31),
        Upi: 'no-at-sign',
      },
    });

    expectValidationError(res, ['Name', 'Mobile', 'Email', 'Amount', 'Description', 'TransactionID', 'Upi']);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when the credentials are missing, then 401 UNAUTHORIZED', async () => {
    const res = await call(api.current, UPI, { body: upiBody() });

    expectJson(res, 401, unauthorizedBody);
  });

  it('when the Token is wrong, then 401 UNAUTHORIZED and nothing is recorded', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await call(api.current, UPI, { merchant: { mid: merchant.mid, token: 'pgt_wrong' }, body: upiBody() });

    expectJson(res, 401, unauthorizedBody);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when the MID is unknown, then 401 UNAUTHORIZED', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });

    const res = await call(api.current, UPI, {
      merchant: { mid: `${merchant.mid}X`, token: merchant.token },
      body: upiBody(),
    });

    expectJson(res, 401, unauthorizedBody);
  });

  it('when the MID is not well formed, then 400 FAILED "Please Input Valid MID"', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });

    const res = await call(api.current, UPI, {
      merchant: { mid: 'not a mid', token: merchant.token },
      body: upiBody(),
    });

    expectJson(res, 400, invalidMidBody('FAILED'));
  });
});
