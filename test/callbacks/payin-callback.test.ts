import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { PAYIN_SIGNATURE_HEADER, payinSignature } from '@payout/domain';
import { call, losslessBody, newTransactionId, useApi, type ApiResponse } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { expectBooksBalanced, merchantBooks } from '../support/ledger-checks.js';

const SECRET = 'provider-secret-for-the-payin-tests';
const api = useApi({ PAYIN_CALLBACK_SECRET: SECRET });
let db: PrismaClient;
let pool: pg.Pool;
beforeAll(() => {
  db = testPrisma();
  pool = testPool();
});
afterAll(async () => {
  await pool.end();
  await db.$disconnect();
});

function payin(merchant: TestMerchant, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    MID: merchant.mid,
    TransactionID: newTransactionId(),
    Amount: '500.00',
    mode: 'INTENT',
    account: '',
    Bankriff: 'UTR4177123456',
    status: 'SUCCESS',
    ...overrides,
  });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
/** The provider's signature of `body` sent now (or `secondsAgo` earlier). */
const sign = (secret: string, body: string, secondsAgo = 0) => payinSignature(secret, nowSeconds() - secondsAgo, body);

/** Sends a callback body exactly as given, signed with `secret` now (null: no signature header). */
function send(
  body: string,
  secret: string | null = SECRET,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return call(api.current, '/api/callbacks/payin', {
    body,
    headers: { ...(secret === null ? {} : { [PAYIN_SIGNATURE_HEADER]: sign(secret, body) }), ...headers },
  });
}

const collectionsOf = async (merchantId: number) =>
  (
    await pool.query<{ transaction_id: string; status: string; amount_paise: string; credited: boolean }>(
      `SELECT transaction_id, status::text, amount_paise::text, credited_at IS NOT NULL AS credited
         FROM collections WHERE merchant_id = $1 ORDER BY id`,
      [merchantId],
    )
  ).rows;

describe('POST /api/callbacks/payin: authentication', () => {
  it.each([
    ['missing', (body: string) => send(body, null)],
    ['signed with another secret', (body: string) => send(body, `${SECRET}-forged`)],
    ['not hex', (body: string) => send(body, null, { [PAYIN_SIGNATURE_HEADER]: 'sha256=not-a-signature' })],
    [
      'the old form without a timestamp',
      (body: string) => send(body, null, { [PAYIN_SIGNATURE_HEADER]: `sha256=${sign(SECRET, body).split('v1=')[1]!}` }),
    ],
    [
      'for other bytes (the amount changed after signing)',
      (body: string) =>
        send(body.replace('"500.00"', '"5000.00"'), null, { [PAYIN_SIGNATURE_HEADER]: sign(SECRET, body) }),
    ],
    [
      'for the same JSON written differently',
      (body: string) => send(body.replace(',', ', '), null, { [PAYIN_SIGNATURE_HEADER]: sign(SECRET, body) }),
    ],
  ])('when the signature is %s, then 401, nothing is stored and the wallet is unchanged', async (_case, sendIt) => {
    const merchant = await makeMerchant(db, { balance: '100.00' });
    const before = await merchantBooks(pool, merchant.merchant.id);
    const response = await sendIt(payin(merchant));
    expect(response.status).toBe(401);
    expect(response.json).toEqual({
      error: true,
      status_code: 401,
      status: 'UNAUTHORIZED',
      message: 'The callback signature is missing or invalid.',
    });
    expect(await collectionsOf(merchant.merchant.id)).toEqual([]);
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
  });

  it.each([
    ['recorded more than 5 minutes ago (a replay)', 301],
    // Ahead by a clear margin: the request reaches the server some time after it was signed, which brings a
    // date just past the window back inside it on a slow machine (a stale date only grows staler).
    ['dated more than 5 minutes ahead', -360],
  ])(
    'when a genuinely signed callback was %s, then 401, nothing is stored and the wallet is unchanged',
    async (_case, secondsAgo) => {
      const merchant = await makeMerchant(db, { balance: '100.00' });
      const before = await merchantBooks(pool, merchant.merchant.id);
      const body = payin(merchant);
      const response = await send(body, null, { [PAYIN_SIGNATURE_HEADER]: sign(SECRET, body, secondsAgo) });
      expect(response.status).toBe(401);
      expect(response.json).toEqual({
        error: true,
        status_code: 401,
        status: 'UNAUTHORIZED',
        message:
          'The callback signature is more than 5 minutes old or ahead: sign each delivery with the current time.',
      });
      expect(await collectionsOf(merchant.merchant.id)).toEqual([]);
      expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
    },
  );

  it('when a signed callback is replayed within the window, then it is recorded once and credits once', async () => {
    const merchant = await makeMerchant(db, { balance: '100.00' });
    const body = payin(merchant);
    const headers = { [PAYIN_SIGNATURE_HEADER]: sign(SECRET, body, 240) };
    const first = await send(body, null, headers);
    const replayed = await send(body, null, headers);
    expect([first.status, first.json.outcome, first.json.credited]).toEqual([200, 'created', true]);
    expect([replayed.status, replayed.json.outcome, replayed.json.credited]).toEqual([200, 'unchanged', false]);
    expect(await collectionsOf(merchant.merchant.id)).toHaveLength(1);
  });

  it('when unsigned, then 401 comes before the content type or the body is judged', async () => {
    const response = await call(api.current, '/api/callbacks/payin', {
      body: 'not json',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(response.status).toBe(401);
  });

  it('when signed but not JSON, or not sent as JSON, then 400 or 415 and nothing is stored', async () => {
    const notJson = await send('{"MID": ');
    expect(notJson.status).toBe(400);
    expect(notJson.json.status).toBe('BAD REQUEST');
    const merchant = await makeMerchant(db);
    const wrongType = await send(payin(merchant), SECRET, { 'Content-Type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expect(await collectionsOf(merchant.merchant.id)).toEqual([]);
  });

  it('when the signed body is over 16 KiB, then 413 and nothing is stored', async () => {
    const merchant = await makeMerchant(db);
    const response = await send(payin(merchant, { padding: 'x'.repeat(17 * 1024) }));
    expect(response.status).toBe(413);
    expect(response.json.status).toBe('PAYLOAD TOO LARGE');
    expect(await collectionsOf(merchant.merchant.id)).toEqual([]);
  });

  it('when the signed body comes compressed, then 415: the signature is only ever checked against the bytes as sent', async () => {
    const merchant = await makeMerchant(db);
    const body = payin(merchant);
    const response = await send(body, SECRET, { 'Content-Encoding': 'gzip' });
    expect(response.status).toBe(415);
    expect(await collectionsOf(merchant.merchant.id)).toEqual([]);
  });

  it('when asked with another method, then 405', async () => {
    expect((await call(api.current, '/api/callbacks/payin')).status).toBe(405);
  });
});

describe('POST /api/callbacks/payin: recording pay-ins', () => {
  it('when a valid SUCCESS arrives 5 times at once, then one collection is recorded and the wallet is credited once', async () => {
    const merchant = await makeMerchant(db, { balance: '100.00' });
    const body = payin(merchant);
    const responses = await Promise.all(Array.from({ length: 5 }, () => send(body)));

    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(responses.filter((r) => r.json.credited === true)).toHaveLength(1);
    expect(responses.map((r) => r.json.outcome).sort()).toEqual([
      'created',
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    expect(new Set(responses.map((r) => r.json.Ack_no)).size).toBe(1);
    expect(responses[0]!.json).toMatchObject({
      error: false,
      status_code: 200,
      status: 'SUCCESS',
      mode: 'INTENT',
      account: '',
      Amount: '500.00',
      Bankriff: 'UTR4177123456',
    });
    expect(await collectionsOf(merchant.merchant.id)).toHaveLength(1);
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books.available).toBe(60000n);
    expect(books.credits).toBe(60000n);
  });

  it('when PENDING is followed by SUCCESS (twice), then the wallet is credited once, at the SUCCESS', async () => {
    const merchant = await makeMerchant(db);
    const TransactionID = newTransactionId();
    const pending = await send(
      payin(merchant, { TransactionID, status: 'PENDING', Bankriff: '', account: 'ravi@okaxis' }),
    );
    expect(pending.json).toMatchObject({ status: 'PENDING', outcome: 'created', credited: false });
    expect((await merchantBooks(pool, merchant.merchant.id)).available).toBe(0n);

    // An INTENT report may leave the payer out: what the PENDING report said stays.
    const success = await send(payin(merchant, { TransactionID, account: '' }));
    expect(success.json).toMatchObject({
      status: 'SUCCESS',
      outcome: 'updated',
      credited: true,
      account: 'ravi@okaxis',
    });
    expect(success.json.Ack_no).toBe(pending.json.Ack_no);
    const again = await send(payin(merchant, { TransactionID, account: 'ravi@okaxis' }));
    expect(again.json).toMatchObject({ outcome: 'unchanged', credited: false });
    const late = await send(payin(merchant, { TransactionID, status: 'PENDING', Bankriff: '' }));
    expect(late.json).toMatchObject({ status: 'SUCCESS', outcome: 'unchanged' });

    expect(await collectionsOf(merchant.merchant.id)).toEqual([
      { transaction_id: TransactionID, status: 'SUCCESS', amount_paise: '50000', credited: true },
    ]);
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books.available).toBe(50000n);
  });

  it('when the merchant is suspended, then its pay-in is still recorded and credited: the money has arrived', async () => {
    const merchant = await makeMerchant(db);
    await pool.query(`UPDATE merchants SET status = 'SUSPENDED' WHERE id = $1`, [merchant.merchant.id]);
    const response = await send(payin(merchant));
    expect(response.json).toMatchObject({ status: 'SUCCESS', outcome: 'created', credited: true });
    expect((await expectBooksBalanced(pool, merchant.merchant.id)).available).toBe(50000n);
  });

  it('when a pay-in FAILED, then it is recorded and nothing is credited', async () => {
    const merchant = await makeMerchant(db);
    const response = await send(payin(merchant, { status: 'FAILED', Bankriff: '' }));
    expect(response.json).toMatchObject({ status: 'FAILED', outcome: 'created', credited: false, error: false });
    expect((await merchantBooks(pool, merchant.merchant.id)).available).toBe(0n);
  });

  it('when the provider sends TransactionID and Amount as JSON numbers, then every digit is kept', async () => {
    const merchant = await makeMerchant(db);
    const body = `{"MID":"${merchant.mid}","TransactionID":12345678901234567890123,"Amount":0.10,"mode":"QR","account":"payer@ybl","Bankriff":"UTR1","status":"SUCCESS"}`;
    const response = await send(body);
    expect(response.status).toBe(200);
    expect(losslessBody(response).TransactionID).toBe('12345678901234567890123');
    expect(response.json.Amount).toBe('0.10');
    expect(await collectionsOf(merchant.merchant.id)).toEqual([
      { transaction_id: '12345678901234567890123', status: 'SUCCESS', amount_paise: '10', credited: true },
    ]);
  });

  it('when the pay-in status lookup asks for it, then it finds what the callback recorded', async () => {
    const merchant = await makeMerchant(db);
    const TransactionID = newTransactionId();
    const recorded = await send(payin(merchant, { TransactionID }));
    const lookup = await call(api.current, `/api/payin/status?TransactionID=${TransactionID}`, { merchant });
    expect(lookup.status).toBe(200);
    const { outcome: _outcome, credited: _credited, ...asRecorded } = recorded.json;
    expect(lookup.json).toEqual(asRecorded);
  });

  it.each([
    ['another amount', { Amount: '500.01' }],
    ['another mode', { mode: 'QR', account: 'payer@ybl' }],
    ['the opposite outcome', { status: 'FAILED', Bankriff: '' }],
    ['another bank reference', { Bankriff: 'UTR-OTHER' }],
  ])('when a report contradicts the recorded SUCCESS with %s, then 409 and nothing changes', async (_what, change) => {
    const merchant = await makeMerchant(db);
    const TransactionID = newTransactionId();
    await send(payin(merchant, { TransactionID }));
    const before = await merchantBooks(pool, merchant.merchant.id);
    const collections = await collectionsOf(merchant.merchant.id);

    const response = await send(payin(merchant, { TransactionID, ...change }));
    expect(response.status).toBe(409);
    expect(response.json).toMatchObject({ error: true, status_code: 409, status: 'CONFLICT', TransactionID });
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
    expect(await collectionsOf(merchant.merchant.id)).toEqual(collections);
  });

  it.each([
    ['an unknown MID', { MID: 'NOSUCHMERCHANT' }, 'MID'],
    ['a COLLECT pay-in without the payer', { mode: 'COLLECT', account: '' }, 'account'],
    ['a SUCCESS without a bank reference', { Bankriff: '' }, 'Bankriff'],
    ['an amount of zero', { Amount: '0.00' }, 'Amount'],
    ['an amount with three decimals', { Amount: 1.005 }, 'Amount'],
    ['an amount above the pay-in ceiling (5,00,000.00)', { Amount: '500000.01' }, 'Amount'],
    ['an unknown mode', { mode: 'CARD' }, 'mode'],
    ['an unknown status', { status: 'DONE' }, 'status'],
    ['a TransactionID with letters', { TransactionID: '12AB' }, 'TransactionID'],
    ['a payer that is not a UPI address', { account: 'not-an-address' }, 'account'],
  ])('when the report has %s, then 422 names the member and nothing is stored', async (_case, change, field) => {
    const merchant = await makeMerchant(db);
    const response = await send(payin(merchant, change));
    expect(response.status).toBe(422);
    expect(response.json.status).toBe('VALIDATION ERROR');
    expect((response.json.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    expect(await collectionsOf(merchant.merchant.id)).toEqual([]);
  });
});
