import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOf, call, impsBody, losslessBody, upiBody } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { useStack } from '../support/stack.js';
import { insertCollection, merchantSnapshot } from '../api/contract-expectations.js';

// One merchant must never read or move another's money, through any endpoint: another merchant's
// TransactionID is simply not found, using it does not replay or settle that merchant's payout, and
// another merchant's wallet is never shown. The victim's books are compared before and after everything
// the intruder does, with a worker running, so a payout wrongly tied to the victim would be settled
// against the victim's money and show up.

const stack = useStack();
const prisma = testPrisma();
const pool = testPool();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

let victim: TestMerchant;
let intruder: TestMerchant;
let broke: TestMerchant;
const victimImps = impsBody({ Amount: '250.00', Account: '556677889900' });
const victimUpi = upiBody({ Amount: '175.00', Upi: 'victim.payee@okicici' });
const victimCollection = `8${Date.now()}`;

const WALLET = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';
const payoutStatus = (tx: unknown) => `/api/check_payout_status?TransactionID=${String(tx)}`;
const payinStatus = (tx: unknown) => `/api/payin/status?TransactionID=${String(tx)}`;

async function statusOf(merchant: TestMerchant, tx: unknown): Promise<string> {
  return String((await call(stack.current.api, payoutStatus(tx), { merchant })).json.status);
}

beforeAll(async () => {
  victim = await makeMerchant(prisma, { balance: '7777.00' });
  intruder = await makeMerchant(prisma, { balance: '1000.00' });
  broke = await makeMerchant(prisma);
  await insertCollection(pool, {
    merchantId: victim.merchant.id,
    transactionId: victimCollection,
    amountPaise: 99_900n,
    bankReference: '409988776655',
  });
  expect((await call(stack.current.api, '/api/impspayout', { merchant: victim, body: victimImps })).status).toBe(202);
  expect((await call(stack.current.api, '/api/payout', { merchant: victim, body: victimUpi })).status).toBe(202);
  await eventually(
    async () => [await statusOf(victim, victimImps.TransactionID), await statusOf(victim, victimUpi.TransactionID)],
    (s) => s.every((x) => x === 'Success'),
    { what: "the victim's payouts settled" },
  );
});

describe('merchant isolation', () => {
  it("when a merchant asks for another merchant's payout or collection, then it is simply not found, with nothing of the other's in the answer", async () => {
    const { api } = stack.current;
    for (const [path, tx] of [
      [payoutStatus(victimImps.TransactionID), victimImps.TransactionID],
      [payoutStatus(victimUpi.TransactionID), victimUpi.TransactionID],
      [payinStatus(victimCollection), victimCollection],
    ] as const) {
      const res = await call(api, path, { merchant: intruder });
      expect({ status: res.status, body: res.json }).toEqual({
        status: 404,
        body: {
          error: true,
          status_code: 404,
          status: 'NOT FOUND',
          message: 'Transaction not found, Please Contact the Administrator.',
          TransactionID: tx,
        },
      });
    }
    // The same lookups by the victim do find them: the TransactionIDs are right.
    expect((await call(api, payinStatus(victimCollection), { merchant: victim })).status).toBe(200);
    // The intruder's own payout list holds none of them, while the victim's lists both.
    const listed = await call(api, '/api/payouts', { merchant: intruder });
    expect({ status: listed.status, payouts: listed.json.payouts }).toEqual({ status: 200, payouts: [] });
    expect((await call(api, '/api/payouts', { merchant: victim })).json.payouts).toHaveLength(2);
    // The intruder's statement shows its own funding alone, and its own balance, never the victim's.
    const since = encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString());
    const statement = await call(api, `/api/statement?from=${since}`, { merchant: intruder });
    const entries = statement.json.entries as { type: string }[];
    expect({ types: entries.map((e) => e.type), closing: statement.json.closing_balance }).toEqual({
      types: ['WALLET_CREDIT'],
      closing: '1000.00',
    });
    expect(statement.text).not.toContain('7777');
    // The intruder's events feed holds none of the victim's events, while the victim's holds both results.
    const events = await call(api, '/api/events', { merchant: intruder });
    expect({ status: events.status, events: events.json.events }).toEqual({ status: 200, events: [] });
    expect((await call(api, '/api/events', { merchant: victim })).json.events).toHaveLength(2);
    // The intruder cannot cancel the victim's payouts: the same 404 as a lookup, and they stand as they were.
    const before = await merchantSnapshot(pool, victim.merchant.id);
    for (const tx of [victimImps.TransactionID, victimUpi.TransactionID]) {
      const cancel = await call(api, '/api/payout/cancel', { merchant: intruder, body: { TransactionID: tx } });
      expect({ status: cancel.status, TransactionID: cancel.json.TransactionID }).toEqual({
        status: 404,
        TransactionID: tx,
      });
    }
    expect(await merchantSnapshot(pool, victim.merchant.id)).toEqual(before);
  });

  it("when a merchant looks up its wallet, then it sees its own balance, never another's, and mixed credentials are refused everywhere", async () => {
    const { api } = stack.current;
    const own = await call(api, WALLET, { merchant: intruder });
    expect(own.json).toMatchObject({ status_code: 200, mainwallet: '1000.00' });
    const paths = [
      WALLET,
      '/api/payouts',
      '/api/statement',
      '/api/events',
      payoutStatus(victimImps.TransactionID),
      payinStatus(victimCollection),
      '/api/impspayout',
      '/api/payout',
      '/api/payout/cancel',
    ];
    const mixed = [
      { MID: victim.mid, Token: intruder.token },
      { MID: intruder.mid, Token: victim.token },
      { MID: intruder.mid, Token: `${intruder.token}, ${victim.token}` },
      { MID: `${intruder.mid}, ${victim.mid}`, Token: victim.token },
    ];
    const before = await merchantSnapshot(pool, victim.merchant.id);
    for (const path of paths) {
      for (const headers of mixed) {
        const isPost = path.startsWith('/api/i') || path === '/api/payout' || path === '/api/payout/cancel';
        const res = await call(api, path, {
          headers,
          ...(isPost && { body: impsBody({ TransactionID: victimImps.TransactionID }) }),
        });
        expect([401, 400], `${path} with ${JSON.stringify(Object.keys(headers))}`).toContain(res.status);
        expect(res.text).not.toContain('7777');
        expect(res.text).not.toContain(victim.mid);
      }
    }
    expect(await merchantSnapshot(pool, victim.merchant.id)).toEqual(before);
  });

  it("when a merchant sends another merchant's payout again, same TransactionID and details, then it is a new payout of its own, paid from its own wallet, and the other's payout is untouched", async () => {
    const { api } = stack.current;
    const before = await merchantSnapshot(pool, victim.merchant.id);
    const victimView = losslessBody(await call(api, payoutStatus(victimImps.TransactionID), { merchant: victim }));

    const replay = await call(api, '/api/impspayout', { merchant: intruder, body: victimImps });
    expect(replay.status).toBe(202);
    expect(replay.json.Ack_no).not.toBe(victimView.Ack_no);
    expect(replay.json.Bankriff).toBe('');

    const upiReplay = await call(api, '/api/payout', { merchant: intruder, body: { ...victimUpi, Amount: '9.00' } });
    expect(upiReplay.status, 'another amount is no conflict: the TransactionID is not the intruder’s').toBe(202);

    // A merchant with no money cannot ride on the other's payout either: refused for its own balance.
    const unfunded = await call(api, '/api/impspayout', { merchant: broke, body: victimImps });
    expect(unfunded.json).toMatchObject({
      status_code: 400,
      status: 'FAILED',
      message: 'MP007 - Transaction failed: insufficient balance in main wallet',
    });

    await eventually(
      () => statusOf(intruder, victimImps.TransactionID),
      (s) => s === 'Success',
      { what: "the intruder's own payout settled" },
    );
    const after = await call(api, WALLET, { merchant: intruder });
    expect(after.json.mainwallet).toBe('741.00'); // 1000.00 − 250.00 − 9.00, from its own wallet
    expect(losslessBody(await call(api, payoutStatus(victimImps.TransactionID), { merchant: victim }))).toEqual(
      victimView,
    );
    expect(await merchantSnapshot(pool, victim.merchant.id)).toEqual(before);
  });

  it("when a merchant's credentials are used on the operator and callback surfaces, then they open nothing", async () => {
    const { api } = stack.current;
    const attempts = [
      ...[api, adminOf(api)].flatMap((surface) => [
        call(surface, `/admin/payouts?mid=${victim.mid}&TransactionID=${victimImps.TransactionID}`, {
          merchant: intruder,
        }),
        call(surface, `/admin/payouts?mid=${victim.mid}&TransactionID=${victimImps.TransactionID}`, {
          merchant: intruder,
          headers: { Authorization: `Bearer ${intruder.token}` },
        }),
        call(surface, '/admin/queues', { merchant: intruder, headers: { Authorization: `Bearer ${intruder.token}` } }),
      ]),
      call(api, '/api/callbacks/payin', {
        merchant: intruder,
        body: { TransactionID: victimCollection, Amount: '999.00', status: 'SUCCESS' },
      }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.text).not.toContain(victim.mid);
      expect(res.text).not.toContain('556677889900');
    }
  });
});
