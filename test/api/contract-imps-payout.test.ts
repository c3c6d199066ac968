import { afterAll, describe, expect, it } from 'vitest';
import { creditWallet } from '@payout/db';
import { payoutJobs } from '@payout/queue';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { eventually } from '../support/eventually.js';
import { call, impsBody, newTransactionId, upiBody, useApi } from '../support/api.js';
import {
  ACK_NO_PATTERN,
  CONTRACT_MESSAGES,
  anyText,
  digitsOfLength,
  errorBody,
  expectJson,
  expectValidationError,
  invalidMidBody,
  jsonText,
  ledgerEntriesOf,
  markPayoutSuccess,
  merchantSnapshot,
  payoutRows,
  unauthorizedBody,
  walletOf,
} from './contract-expectations.js';

// Contract of POST /api/impspayout: docs/api.md, "Request members", "Response bodies" and "Payout results".

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const IMPS = '/api/impspayout';

/** The payout result body (docs/api.md, "Response bodies") for an IMPS payout made from impsBody()'s beneficiary. */
function impsResult(fields: {
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  transactionId: string;
  ackNo: string;
  amount?: string;
  bankriff?: string;
  message: string;
}): Record<string, unknown> {
  const statusCode = { PENDING: 202, SUCCESS: 200, FAILED: 400 }[fields.status];
  return {
    error: fields.status === 'FAILED',
    status_code: statusCode,
    status: fields.status,
    account: '123456789012',
    ifsc: 'HDFC0001234',
    Amount: fields.amount ?? '101.00',
    Bankriff: fields.bankriff ?? '',
    Ack_no: fields.ackNo,
    TransactionID: fields.transactionId,
    message: fields.message,
  };
}

describe('POST /api/impspayout accepted (202 PENDING)', () => {
  it('when a funded merchant sends a valid IMPS payout, then 202 PENDING with the whole result, the balance reserved and the job queued', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();

    const res = await call(api.current, IMPS, { merchant, body: impsBody({ TransactionID: transactionId }) });

    const rows = await payoutRows(pool, merchant.merchant.id, transactionId);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expectJson(
      res,
      202,
      impsResult({ status: 'PENDING', transactionId, ackNo: row.ack_no, message: CONTRACT_MESSAGES.pending }),
    );
    expect(res.text).toContain('"Amount":"101.00"');
    expect(res.text).toContain(`"TransactionID":"${transactionId}"`);
    expect(row.ack_no).toMatch(ACK_NO_PATTERN);
    expect(row).toMatchObject({ mode: 'IMPS', state: 'ACCEPTED', status: 'PENDING', amount_paise: '10100' });
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 89_900n, reserved: 10_100n });
    expect(await ledgerEntriesOf(pool, row.id)).toEqual([
      { kind: 'PAYOUT_RESERVE', account: 'MAIN_WALLET', amount_paise: '-10100' },
      { kind: 'PAYOUT_RESERVE', account: 'RESERVED', amount_paise: '10100' },
    ]);
    // Queued right after the answer, in the same turn of the API's event loop.
    const job = await eventually(
      () => api.current.deps.producer.queue.getJob(payoutJobs.execute.jobId(row.id)),
      (found) => found !== undefined,
      { timeoutMs: 5_000, what: 'the execute job' },
    );
    expect(job?.data).toEqual({ payoutId: row.id });
  });

  it('when TransactionID, Account, Mobile and Amount come as JSON number literals, then a 23-digit TransactionID comes back with exactly the same digits as a string', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = digitsOfLength(23);
    const text = jsonText(impsBody(), {
      TransactionID: transactionId,
      Account: '123456789012',
      Mobile: '9876543210',
      Amount: '101.50',
    });
    expect(text).toContain(`"TransactionID":${transactionId}`);

    const res = await call(api.current, IMPS, { merchant, body: text });

    const [row] = await payoutRows(pool, merchant.merchant.id, transactionId);
    expect(row, 'payout stored under the exact 23 digits').toBeDefined();
    expectJson(
      res,
      202,
      impsResult({
        status: 'PENDING',
        transactionId,
        ackNo: row!.ack_no,
        amount: '101.50',
        message: CONTRACT_MESSAGES.pending,
      }),
    );
    expect(res.text).toContain(`"TransactionID":"${transactionId}"`);
    expect(row!.amount_paise).toBe('10150');
  });

  it('when Amount is a whole-number literal, then the result writes it as a string with two fraction digits', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();

    const res = await call(api.current, IMPS, {
      merchant,
      body: jsonText(impsBody({ TransactionID: transactionId }), { Amount: '250' }),
    });

    expect(res.status).toBe(202);
    expect(res.json.Amount).toBe('250.00');
    expect(res.text).toContain('"Amount":"250.00"');
    expect((await payoutRows(pool, merchant.merchant.id, transactionId))[0]?.amount_paise).toBe('25000');
  });

  it('when Ifsc is sent in lower case, then it is upper-cased and accepted', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();

    const res = await call(api.current, IMPS, {
      merchant,
      body: impsBody({ TransactionID: transactionId, Ifsc: 'hdfc0001234' }),
    });

    expectJson(
      res,
      202,
      impsResult({
        status: 'PENDING',
        transactionId,
        ackNo: expect.stringMatching(ACK_NO_PATTERN) as string,
        message: CONTRACT_MESSAGES.pending,
      }),
    );
    expect((await payoutRows(pool, merchant.merchant.id, transactionId))[0]?.beneficiary_ifsc).toBe('HDFC0001234');
  });

  it('when the body carries unknown members, then they are ignored and the payout is accepted', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();

    const res = await call(api.current, IMPS, {
      merchant,
      body: impsBody({ TransactionID: transactionId, Purpose: 'salary', Nested: { a: [1, 2] }, Flag: true }),
    });

    expect(res.status).toBe(202);
    expect(res.json.status).toBe('PENDING');
    expect(await payoutRows(pool, merchant.merchant.id, transactionId)).toHaveLength(1);
  });

  it('when Amount is exactly 1.00 or exactly the IMPS ceiling 500000.00, then both are accepted', async () => {
    const merchant = await makeMerchant(prisma, { balance: '600000.00' });

    const smallest = await call(api.current, IMPS, { merchant, body: impsBody({ Amount: '1.00' }) });
    const largest = await call(api.current, IMPS, { merchant, body: impsBody({ Amount: '500000.00' }) });

    expect([smallest.status, smallest.json.Amount]).toEqual([202, '1.00']);
    expect([largest.status, largest.json.Amount]).toEqual([202, '500000.00']);
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 9_999_900n, reserved: 50_000_100n });
  });

  it('when Amount is 500000.01, then 422 names Amount and nothing is recorded', async () => {
    const merchant = await makeMerchant(prisma, { balance: '600000.00' });
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await call(api.current, IMPS, { merchant, body: impsBody({ Amount: '500000.01' }) });

    expectValidationError(res, ['Amount']);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when the merchant is configured below the ceiling, then an amount above its limit is 422 Amount and one at the limit is accepted', async () => {
    const merchant = await makeMerchant(prisma, { balance: '5000.00', impsMaxPaise: 100_000n });
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const over = await call(api.current, IMPS, { merchant, body: impsBody({ Amount: '1000.01' }) });
    expectValidationError(over, ['Amount']);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);

    const at = await call(api.current, IMPS, { merchant, body: impsBody({ Amount: '1000.00' }) });
    expect(at.status).toBe(202);
  });
});

describe('POST /api/impspayout with insufficient balance (400 FAILED)', () => {
  it('when the available balance is short, then 400 FAILED with MP007, nothing reserved, and the status lookup finds it as "Failed"', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const transactionId = newTransactionId();

    const res = await call(api.current, IMPS, { merchant, body: impsBody({ TransactionID: transactionId }) });

    const rows = await payoutRows(pool, merchant.merchant.id, transactionId);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expectJson(
      res,
      400,
      impsResult({
        status: 'FAILED',
        transactionId,
        ackNo: row.ack_no,
        message: CONTRACT_MESSAGES.insufficientBalance,
      }),
    );
    expect(row).toMatchObject({ state: 'FAILED', status: 'FAILED', failure_reason: 'INSUFFICIENT_BALANCE' });
    expect(await ledgerEntriesOf(pool, row.id)).toEqual([]);
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 10_000n, reserved: 0n });

    const lookup = await call(api.current, `/api/check_payout_status?TransactionID=${transactionId}`, { merchant });
    expectJson(lookup, 200, {
      error: false,
      status_code: 200,
      status: 'Failed',
      account: '123456789012',
      ifsc: 'HDFC0001234',
      Amount: '101.00',
      Bankriff: '',
      Ack_no: row.ack_no,
      TransactionID: transactionId,
      mode: 'IMPS',
      message: CONTRACT_MESSAGES.insufficientBalance,
      reason_code: 'INSUFFICIENT_BALANCE',
      retryable: true,
    });
  });

  it('when the merchant has no wallet at all, then the payout is 400 FAILED for insufficient balance', async () => {
    const merchant = await makeMerchant(prisma);
    const transactionId = newTransactionId();

    const res = await call(api.current, IMPS, { merchant, body: impsBody({ TransactionID: transactionId }) });

    const [row] = await payoutRows(pool, merchant.merchant.id, transactionId);
    expectJson(
      res,
      400,
      impsResult({
        status: 'FAILED',
        transactionId,
        ackNo: row?.ack_no ?? '(no row)',
        message: CONTRACT_MESSAGES.insufficientBalance,
      }),
    );
  });

  it('when a failed TransactionID is sent again after the wallet is funded, then it is still FAILED and nothing new is recorded (the TransactionID is used up)', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = impsBody();
    const first = await call(api.current, IMPS, { merchant, body });
    expect(first.status).toBe(400);
    await creditWallet(prisma, merchant.merchant.id, 100_000n, `topup-${merchant.mid}`);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const again = await call(api.current, IMPS, { merchant, body });

    expectJson(again, 400, first.json);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });
});

describe('POST /api/impspayout replays', () => {
  it('when the same TransactionID and details are sent again while pending, then 202 with the same payout and nothing new is recorded', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = impsBody();
    const first = await call(api.current, IMPS, { merchant, body });
    expect(first.status).toBe(202);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    // Same details written differently: numbers as literals, the amount without its zeros, Ifsc lower case.
    const again = await call(api.current, IMPS, {
      merchant,
      body: jsonText(
        { ...body, Ifsc: 'hdfc0001234' },
        { TransactionID: body.TransactionID, Account: body.Account, Amount: '101' },
      ),
    });

    expectJson(again, 202, first.json);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when a replay arrives after the payout succeeded, then 200 SUCCESS with MP00 and the Bankriff', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = impsBody();
    const first = await call(api.current, IMPS, { merchant, body });
    expect(first.status).toBe(202);
    await markPayoutSuccess(pool, merchant.merchant.id, body.TransactionID, '412345678901');

    const again = await call(api.current, IMPS, { merchant, body });

    expectJson(
      again,
      200,
      impsResult({
        status: 'SUCCESS',
        transactionId: body.TransactionID,
        ackNo: first.json.Ack_no as string,
        bankriff: '412345678901',
        message: CONTRACT_MESSAGES.success,
      }),
    );
  });

  it.each([
    { name: 'a different amount', change: { Amount: '102.00' } },
    { name: 'a different account', change: { Account: '999999999999' } },
    { name: 'a different IFSC', change: { Ifsc: 'ICIC0004321' } },
  ])(
    'when the same TransactionID comes with $name, then 409 CONFLICT with the TransactionID and nothing changes',
    async ({ change }) => {
      const merchant = await makeMerchant(prisma, { balance: '1000.00' });
      const body = impsBody();
      expect((await call(api.current, IMPS, { merchant, body })).status).toBe(202);
      const before = await merchantSnapshot(pool, merchant.merchant.id);

      const res = await call(api.current, IMPS, { merchant, body: { ...body, ...change } });

      expectJson(res, 409, {
        ...errorBody(409, 'CONFLICT', expect.stringMatching(/already used for a different payout/i)),
        TransactionID: body.TransactionID,
      });
      expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
    },
  );

  it('when a TransactionID already used by a UPI payout is sent for IMPS, then 409 CONFLICT (unique across IMPS and UPI)', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();
    expect(
      (await call(api.current, '/api/payout', { merchant, body: upiBody({ TransactionID: transactionId }) })).status,
    ).toBe(202);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await call(api.current, IMPS, { merchant, body: impsBody({ TransactionID: transactionId }) });

    expectJson(res, 409, {
      ...errorBody(409, 'CONFLICT', expect.stringMatching(/already used for a different payout/i)),
      TransactionID: transactionId,
    });
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when ten identical requests arrive at once, then exactly one payout is recorded and every answer is the same 202', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = impsBody();

    const answers = await Promise.all(Array.from({ length: 10 }, () => call(api.current, IMPS, { merchant, body })));

    const rows = await payoutRows(pool, merchant.merchant.id, body.TransactionID);
    expect(rows).toHaveLength(1);
    for (const answer of answers) {
      expectJson(
        answer,
        202,
        impsResult({
          status: 'PENDING',
          transactionId: body.TransactionID,
          ackNo: rows[0]!.ack_no,
          message: CONTRACT_MESSAGES.pending,
        }),
      );
    }
    expect(await walletOf(pool, merchant.merchant.id)).toEqual({ available: 89_900n, reserved: 10_100n });
  });

  it('when two requests with one TransactionID but different amounts race, then one is accepted, the other is 409, and one payout exists', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = impsBody();

    const answers = await Promise.all([
      call(api.current, IMPS, { merchant, body }),
      call(api.current, IMPS, { merchant, body: { ...body, Amount: '202.00' } }),
    ]);

    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(await payoutRows(pool, merchant.merchant.id, body.TransactionID)).toHaveLength(1);
  });

  it('when two merchants use the same TransactionID, then each gets its own payout', async () => {
    const first = await makeMerchant(prisma, { balance: '1000.00' });
    const second = await makeMerchant(prisma, { balance: '1000.00' });
    const transactionId = newTransactionId();

    const a = await call(api.current, IMPS, { merchant: first, body: impsBody({ TransactionID: transactionId }) });
    const b = await call(api.current, IMPS, {
      merchant: second,
      body: impsBody({ TransactionID: transactionId, Amount: '55.00' }),
    });

    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.json.Ack_no).not.toBe(b.json.Ack_no);
    expect(await payoutRows(pool, second.merchant.id, transactionId)).toHaveLength(1);
  });
});

describe('POST /api/impspayout validation (422)', () => {
  it('when every member is invalid, then 422 VALIDATION ERROR lists every failing field and nothing is recorded', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await call(api.current, IMPS, {
      merchant,
      body: {
        BankName: 'B'.repeat(101),
        Account: '1234',
        Ifsc: 'HDFC1234',
        Name: 'N'.repeat(101),
        Mobile: '5123456789',
        Email: 'not-an-address',
        Amount: '0.50',
        Description: 'D'.repeat(256),
        TransactionID: '12AB',
      },
    });

    expectValidationError(res, [
      'BankName',
      'Account',
      'Ifsc',
      'Name',
      'Mobile',
      'Email',
      'Amount',
      'Description',
      'TransactionID',
    ]);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when the body is an empty object, then 422 lists the missing identifying members and nothing else', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });

    const res = await call(api.current, IMPS, { merchant, body: {} });

    expectJson(res, 422, {
      ...errorBody(422, 'VALIDATION ERROR'),
      errors: expect.arrayContaining(
        ['TransactionID', 'Amount', 'Account', 'Ifsc', 'Name'].map((field) => ({ field, message: anyText })),
      ),
    });
    const spec24 = ['BankName', 'Account', 'Ifsc', 'Name', 'Mobile', 'Email', 'Amount', 'Description', 'TransactionID'];
    for (const entry of res.json.errors as { field: string }[]) expect(spec24).toContain(entry.field);
  });
});

describe('POST /api/impspayout authentication', () => {
  it.each([
    { name: 'no MID and no Token', headers: (_m: { mid: string; token: string }) => ({}) },
    { name: 'no Token', headers: (m: { mid: string; token: string }) => ({ MID: m.mid }) },
    { name: 'no MID', headers: (m: { mid: string; token: string }) => ({ Token: m.token }) },
    {
      name: 'an unknown MID',
      headers: (m: { mid: string; token: string }) => ({ MID: 'NOSUCHMERCHANT01', Token: m.token }),
    },
    { name: 'a wrong token', headers: (m: { mid: string; token: string }) => ({ MID: m.mid, Token: `${m.token}x` }) },
  ])('when the request has $name, then 401 UNAUTHORIZED and nothing is recorded', async ({ headers }) => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await call(api.current, IMPS, { headers: headers(merchant), body: impsBody() });

    expectJson(res, 401, unauthorizedBody);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it("when the MID is valid but the Token is another merchant's, then 401 and neither merchant is charged", async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const other = await makeMerchant(prisma, { balance: '1000.00' });
    const before = [
      await merchantSnapshot(pool, merchant.merchant.id),
      await merchantSnapshot(pool, other.merchant.id),
    ];

    const res = await call(api.current, IMPS, {
      merchant: { mid: merchant.mid, token: other.token },
      body: impsBody(),
    });

    expectJson(res, 401, unauthorizedBody);
    expect([
      await merchantSnapshot(pool, merchant.merchant.id),
      await merchantSnapshot(pool, other.merchant.id),
    ]).toEqual(before);
  });

  it.each(['bad.mid', 'M'.repeat(65), 'mid with space', 'mid/1'])(
    'when the MID %j is not well formed, then 400 FAILED "Please Input Valid MID"',
    async (mid) => {
      const merchant = await makeMerchant(prisma, { balance: '1000.00' });

      const res = await call(api.current, IMPS, { merchant: { mid, token: merchant.token }, body: impsBody() });

      expectJson(res, 400, invalidMidBody('FAILED'));
    },
  );
});
