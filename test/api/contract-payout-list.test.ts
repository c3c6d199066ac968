import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayoutClient, PayoutClientError } from '@payout/client';
import { acceptPayouts } from '@payout/db';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { upiInstruction } from '../support/payout-instructions.js';
import { call, impsBody, losslessBody, newTransactionId, upiBody, useApi, type ApiResponse } from '../support/api.js';
import { documentedBodyErrors, type JsonObject } from '../docs/openapi-checks.js';
import {
  digitsOfLength,
  expectJson,
  expectValidationError,
  invalidMidBody,
  markPayoutSuccess,
  merchantSnapshot,
  unauthorizedBody,
} from './contract-expectations.js';

// Contract of GET /api/payouts (docs/api.md, "Listing payouts"): the merchant's own payouts, newest first, each
// exactly its status lookup's body; filters that narrow; pages by a cursor that no payout accepted meanwhile
// can shift; every bad parameter a 422 that changes nothing. Each answer is also checked against the OpenAPI
// document, and the SDK's listPayouts walks the same pages.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
let document: JsonObject;

beforeAll(async () => {
  document = (await call(api.current, '/openapi.json')).json;
});
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

type Query = Record<string, string | string[]>;

/** The list's URL: each parameter encoded, a list as the parameter repeated. */
function listPath(query: Query = {}): string {
  const parts = Object.entries(query).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`),
  );
  return parts.length ? `/api/payouts?${parts.join('&')}` : '/api/payouts';
}

async function list(merchant: TestMerchant, query: Query = {}): Promise<ApiResponse> {
  const res = await call(api.current, listPath(query), { merchant });
  expect(documentedBodyErrors(document, '/api/payouts', 'get', res), res.text).toEqual([]);
  return res;
}

interface Page {
  payouts: Record<string, unknown>[];
  next_cursor: string | null;
}

/** A 200 page, parsed losslessly. */
async function page(merchant: TestMerchant, query: Query = {}): Promise<Page> {
  const res = await list(merchant, query);
  expect(res.status, res.text).toBe(200);
  return losslessBody(res) as unknown as Page;
}

/** Every page of the list with this query, following next_cursor; `between` runs after each page. */
async function walk(
  merchant: TestMerchant,
  query: Query,
  between: () => Promise<void> = async () => {},
): Promise<{ payouts: Record<string, unknown>[]; pages: number }> {
  const payouts: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const current: Page = await page(merchant, cursor === null ? query : { ...query, cursor });
    pages += 1;
    payouts.push(...current.payouts);
    cursor = current.next_cursor;
    await between();
  } while (cursor !== null);
  return { payouts, pages };
}

const acks = (payouts: Record<string, unknown>[]) => payouts.map((p) => p.Ack_no as string);

/** The merchant's Ack_nos newest first, as the database orders them. */
async function acksInDatabase(merchant: TestMerchant): Promise<string[]> {
  const { rows } = await pool.query<{ ack_no: string }>(
    'SELECT ack_no FROM payouts WHERE merchant_id = $1 ORDER BY created_at DESC, id DESC',
    [merchant.merchant.id],
  );
  return rows.map((r) => r.ack_no);
}

async function payOut(merchant: TestMerchant, mode: 'IMPS' | 'UPI', overrides: Record<string, unknown> = {}) {
  const body = { TransactionID: newTransactionId(), ...overrides };
  const transactionId = body.TransactionID;
  const res = await call(api.current, mode === 'IMPS' ? '/api/impspayout' : '/api/payout', {
    merchant,
    body: mode === 'IMPS' ? impsBody(body) : upiBody(body),
  });
  expect([202, 400], res.text).toContain(res.status);
  return { transactionId, ackNo: res.json.Ack_no as string };
}

async function bulk(merchant: TestMerchant, items: number): Promise<{ batchId: string; acks: string[] }> {
  const batchId = newTransactionId();
  const Payouts = Array.from({ length: items }, (_, i) =>
    i % 2 ? { Mode: 'UPI', ...upiBody() } : { Mode: 'IMPS', ...impsBody() },
  );
  const res = await call(api.current, '/api/bulkpayout', { merchant, body: { BatchID: batchId, Payouts } });
  expect(res.status, res.text).toBe(202);
  return { batchId, acks: (res.json.results as { Ack_no: string }[]).map((r) => r.Ack_no) };
}

const lookup = async (merchant: TestMerchant, transactionId: string) =>
  losslessBody(await call(api.current, `/api/check_payout_status?TransactionID=${transactionId}`, { merchant }));

describe('GET /api/payouts found (200)', () => {
  it('when the merchant has payouts of every kind, then 200 lists them newest first, each exactly its status lookup body', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const pendingImps = await payOut(merchant, 'IMPS');
    const pendingUpi = await payOut(merchant, 'UPI', { TransactionID: digitsOfLength(23) });
    const paid = await payOut(merchant, 'IMPS', { Amount: '250.75' });
    await markPayoutSuccess(pool, merchant.merchant.id, paid.transactionId);
    await pool.query(`UPDATE payouts SET bank = 'secondary' WHERE ack_no = $1`, [paid.ackNo]);
    const refused = await payOut(merchant, 'UPI', { Amount: '5000.00' });
    const inOrder = [refused, paid, pendingUpi, pendingImps];

    const res = await list(merchant);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = losslessBody(res);
    expect(body).toEqual({
      error: false,
      status_code: expect.anything(),
      status: 'Success',
      payouts: await Promise.all(inOrder.map((p) => lookup(merchant, p.transactionId))),
      next_cursor: null,
    });
    expect(res.json.status_code).toBe(200);
    expect((body.payouts as Record<string, unknown>[]).map((p) => [p.status, p.mode, p.bank, p.reason_code])).toEqual([
      ['Failed', 'UPI', undefined, 'INSUFFICIENT_BALANCE'],
      ['Success', 'IMPS', 'secondary', undefined],
      ['Pending', 'UPI', undefined, undefined],
      ['Pending', 'IMPS', undefined, undefined],
    ]);
    // Identifiers and amounts are strings with their exact digits, as in the lookup.
    expect(res.text).toContain(`"TransactionID":"${pendingUpi.transactionId}"`);
    expect(res.text).toContain('"Amount":"250.75"');
  });

  it('when the merchant has no payouts, then 200 with an empty list and next_cursor null', async () => {
    const merchant = await makeMerchant(prisma);

    expectJson(await list(merchant), 200, {
      error: false,
      status_code: 200,
      status: 'Success',
      payouts: [],
      next_cursor: null,
    });
  });

  it('when no limit is given, then a page holds 100 payouts; limit sets another size, up to 1,000', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    await acceptPayouts(
      prisma,
      Array.from({ length: 105 }, () => upiInstruction(merchant.merchant.id, 100n)),
    );

    const first = await page(merchant);
    const second = await page(merchant, { cursor: first.next_cursor! });
    expect([first.payouts.length, second.payouts.length, second.next_cursor]).toEqual([100, 5, null]);
    expect((await page(merchant, { limit: '1000' })).payouts).toHaveLength(105);
    const one = await page(merchant, { limit: '1' });
    expect(one.payouts).toHaveLength(1);
    expect(one.next_cursor).toEqual(expect.any(String));
  });
});

describe('GET /api/payouts filters', () => {
  let merchant: TestMerchant;
  let everything: Record<string, unknown>[];
  let firstBatch: { batchId: string; acks: string[] };

  beforeAll(async () => {
    merchant = await makeMerchant(prisma, { balance: '2000.00' });
    await payOut(merchant, 'IMPS');
    await payOut(merchant, 'UPI');
    firstBatch = await bulk(merchant, 3);
    const paidImps = await payOut(merchant, 'IMPS');
    const paidUpi = await payOut(merchant, 'UPI');
    await markPayoutSuccess(pool, merchant.merchant.id, paidImps.transactionId);
    await markPayoutSuccess(pool, merchant.merchant.id, paidUpi.transactionId);
    await pool.query(`UPDATE payouts SET bank = 'primary' WHERE ack_no = $1`, [paidImps.ackNo]);
    await pool.query(`UPDATE payouts SET bank = 'secondary' WHERE ack_no = $1`, [paidUpi.ackNo]);
    await bulk(merchant, 2);
    await payOut(merchant, 'UPI', { Amount: '9000.00' }); // refused: insufficient balance
    await payOut(merchant, 'IMPS');
    everything = (await walk(merchant, {})).payouts;
    expect(everything).toHaveLength(11);
  });

  it.each<[string, Query, (p: Record<string, unknown>) => boolean]>([
    ['status=Pending', { status: 'Pending' }, (p) => p.status === 'Pending'],
    ['status=Success', { status: 'Success' }, (p) => p.status === 'Success'],
    ['status=Failed', { status: 'Failed' }, (p) => p.status === 'Failed'],
    ['mode=IMPS', { mode: 'IMPS' }, (p) => p.mode === 'IMPS'],
    ['mode=UPI', { mode: 'UPI' }, (p) => p.mode === 'UPI'],
    ['bank=primary', { bank: 'primary' }, (p) => p.bank === 'primary'],
    [
      'mode=UPI and status=Success',
      { mode: 'UPI', status: 'Success' },
      (p) => p.mode === 'UPI' && p.status === 'Success',
    ],
  ])('when filtered by %s, then exactly the payouts that match, in the same order', async (_name, query, matches) => {
    const expected = everything.filter(matches);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(everything.length);

    // Pages of 2, so the filter holds across pages too.
    const filtered = await walk(merchant, { ...query, limit: '2' });

    expect(filtered.payouts).toEqual(expected);
  });

  it('when filtered by a BatchID, then exactly that batch’s payouts; a BatchID of no batch lists nothing', async () => {
    const batch = await walk(merchant, { BatchID: firstBatch.batchId });
    expect(acks(batch.payouts).sort()).toEqual([...firstBatch.acks].sort());
    expect(batch.payouts).toEqual(everything.filter((p) => firstBatch.acks.includes(p.Ack_no as string)));

    expect((await page(merchant, { BatchID: '999999999999999999999999999999' })).payouts).toEqual([]);
  });

  it('when filtered by a bank no payout went to, or a status no payout has, then an empty list', async () => {
    expect((await page(merchant, { bank: 'third-bank' })).payouts).toEqual([]);
    expect((await page(merchant, { mode: 'UPI', status: 'Success', bank: 'primary' })).payouts).toEqual([]);
  });
});

describe('GET /api/payouts time windows', () => {
  // Acceptance times around India's midnight (00:00 IST is 18:30 UTC the day before).
  const TIMES = [
    '2026-11-28T18:30:00.000Z', // 29 Nov 00:00 IST
    '2026-11-28T18:29:59.999Z', // 28 Nov 23:59:59.999 IST
    '2026-11-28T04:30:00.000Z', // 28 Nov 10:00 IST
    '2026-11-27T18:30:00.000Z', // 28 Nov 00:00 IST
    '2026-11-27T18:29:59.999Z', // 27 Nov 23:59:59.999 IST
  ];
  let merchant: TestMerchant;
  let ackAt: Record<string, string>;

  beforeAll(async () => {
    merchant = await makeMerchant(prisma, { balance: '1000.00' });
    ackAt = {};
    for (const at of TIMES) {
      const { ackNo } = await payOut(merchant, 'UPI');
      await pool.query('UPDATE payouts SET created_at = $1 WHERE ack_no = $2', [at, ackNo]);
      ackAt[at] = ackNo;
    }
  });

  const at = (...times: string[]) => times.map((t) => ackAt[t]);

  it.each<[string, Query, string[]]>([
    ['one IST day, by dates', { from: '2026-11-28', to: '2026-11-29' }, [TIMES[1]!, TIMES[2]!, TIMES[3]!]],
    ['from a date on', { from: '2026-11-28' }, TIMES.slice(0, 4)],
    ['before a date', { to: '2026-11-28' }, [TIMES[4]!]],
    ['from an IST timestamp, inclusive', { from: '2026-11-28T10:00:00+05:30' }, TIMES.slice(0, 3)],
    ['to a UTC timestamp, exclusive', { to: '2026-11-28T04:30:00Z' }, TIMES.slice(3)],
    ['one millisecond', { from: '2026-11-28T04:30:00Z', to: '2026-11-28T04:30:00.001Z' }, [TIMES[2]!]],
    ['a finer bound rounds up', { from: '2026-11-28T18:29:59.9985Z' }, TIMES.slice(0, 2)],
  ])('when the window is %s, then exactly the payouts accepted in it', async (_name, query, times) => {
    expect(acks((await walk(merchant, query)).payouts)).toEqual(at(...times));
  });

  it('when the offset’s + is sent unencoded (it arrives as a space), then it is still read as +05:30', async () => {
    const res = await call(api.current, '/api/payouts?from=2026-11-28T10:00:00+05:30', { merchant });
    expect(res.status, res.text).toBe(200);
    expect(acks(losslessBody(res).payouts as Record<string, unknown>[])).toEqual(at(...TIMES.slice(0, 3)));
  });
});

describe('GET /api/payouts pages', () => {
  it('when payouts are accepted between page fetches, then the walk still holds every earlier payout exactly once, in order, and none of the new', async () => {
    const merchant = await makeMerchant(prisma, { balance: '5000.00' });
    for (let i = 0; i < 8; i++) await payOut(merchant, i % 2 ? 'UPI' : 'IMPS');
    // A batch is accepted in one statement: its payouts share one acceptance time, and the id orders them.
    await bulk(merchant, 7);
    for (let i = 0; i < 8; i++) await payOut(merchant, i % 2 ? 'UPI' : 'IMPS');
    const before = await acksInDatabase(merchant);
    const { rows } = await pool.query<{ distinct: number }>(
      'SELECT count(DISTINCT created_at)::int AS distinct FROM payouts WHERE merchant_id = $1',
      [merchant.merchant.id],
    );
    expect(rows[0]!.distinct).toBeLessThan(before.length);

    const newcomers: string[] = [];
    const walked = await walk(merchant, { limit: '3' }, async () => {
      newcomers.push((await payOut(merchant, 'UPI')).ackNo, (await bulk(merchant, 2)).acks[0]!);
    });

    expect(walked.pages).toBe(Math.ceil(before.length / 3));
    expect(acks(walked.payouts)).toEqual(before);
    expect(acks(walked.payouts).some((ack) => newcomers.includes(ack))).toBe(false);
    // A new walk starts with them.
    const fresh = await page(merchant, { limit: '1' });
    expect(acks(fresh.payouts)).toEqual([(await acksInDatabase(merchant))[0]]);
  });

  it('when pages of another size are asked with the same cursor, then the list goes on from the same place', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    await acceptPayouts(
      prisma,
      Array.from({ length: 12 }, () => upiInstruction(merchant.merchant.id, 100n)),
    );
    const all = await acksInDatabase(merchant);

    const first = await page(merchant, { limit: '4' });
    const rest = await page(merchant, { limit: '8', cursor: first.next_cursor! });

    expect([...acks(first.payouts), ...acks(rest.payouts)]).toEqual(all);
    expect(rest.next_cursor).toBeNull();
  });
});

describe('GET /api/payouts isolation', () => {
  it('when two merchants have payouts (one TransactionID shared), then each lists only its own, whatever cursor or BatchID it sends', async () => {
    const owner = await makeMerchant(prisma, { balance: '1000.00' });
    const other = await makeMerchant(prisma, { balance: '1000.00' });
    const shared = newTransactionId();
    await payOut(owner, 'IMPS', { TransactionID: shared });
    await payOut(other, 'IMPS', { TransactionID: shared });
    const ownerBatch = await bulk(owner, 3);
    for (let i = 0; i < 3; i++) await payOut(other, 'UPI');
    const ownerAcks = await acksInDatabase(owner);
    const otherAcks = await acksInDatabase(other);

    expect(acks((await walk(owner, { limit: '2' })).payouts)).toEqual(ownerAcks);
    expect(acks((await walk(other, { limit: '2' })).payouts)).toEqual(otherAcks);

    // The owner's cursor positions the other merchant's own list; it never reaches the owner's payouts.
    const ownerPage = await page(owner, { limit: '1' });
    const withOwnersCursor = await page(other, { cursor: ownerPage.next_cursor! });
    expect(acks(withOwnersCursor.payouts)).toEqual([otherAcks.at(-1)]);
    expect((await page(other, { BatchID: ownerBatch.batchId })).payouts).toEqual([]);
  });
});

describe('GET /api/payouts refused', () => {
  let merchant: TestMerchant;
  let cursor: string;

  beforeAll(async () => {
    merchant = await makeMerchant(prisma, { balance: '1000.00' });
    for (let i = 0; i < 3; i++) await payOut(merchant, 'UPI');
    cursor = (await page(merchant, { mode: 'UPI', limit: '1' })).next_cursor!;
  });

  /** The same cursor with one character of its fingerprint changed: still well formed, no longer ours. */
  const tampered = () => {
    const payload = Buffer.from(cursor, 'base64url').toString('latin1');
    const last = payload.at(-1) === '0' ? '1' : '0';
    return Buffer.from(payload.slice(0, -1) + last, 'latin1').toString('base64url');
  };

  it.each<[string, () => Query, string[]]>([
    ['a parameter the list does not have', () => ({ state: 'PENDING' }), ['state']],
    ['a parameter in another letter case', () => ({ Mode: 'UPI' }), ['Mode']],
    ['the lookup’s TransactionID', () => ({ TransactionID: '123' }), ['TransactionID']],
    ['a repeated parameter', () => ({ mode: ['UPI', 'IMPS'] }), ['mode']],
    ['a repeated cursor', () => ({ mode: 'UPI', cursor: [cursor, cursor] }), ['cursor']],
    ['a status as the payout result spells it', () => ({ status: 'SUCCESS' }), ['status']],
    ['a mode not offered', () => ({ mode: 'NEFT' }), ['mode']],
    ['a date that does not exist', () => ({ from: '2026-02-30' }), ['from']],
    ['a timestamp without offset', () => ({ to: '2026-11-28T10:00:00' }), ['to']],
    ['a Unix time', () => ({ from: '1764300000' }), ['from']],
    ['to equal to from', () => ({ from: '2026-11-28', to: '2026-11-27T18:30:00Z' }), ['to']],
    ['to before from', () => ({ from: '2026-11-28', to: '2026-11-01' }), ['to']],
    ['limit 0', () => ({ limit: '0' }), ['limit']],
    ['limit 1001', () => ({ limit: '1001' }), ['limit']],
    ['limit not a whole number', () => ({ limit: '2.5' }), ['limit']],
    ['a BatchID with letters', () => ({ BatchID: 'B-17' }), ['BatchID']],
    ['a bank in capitals', () => ({ bank: 'PRIMARY' }), ['bank']],
    ['a cursor that is not one', () => ({ cursor: 'page-2' }), ['cursor']],
    ['a cursor cut short', () => ({ mode: 'UPI', cursor: cursor.slice(0, -3) }), ['cursor']],
    ['a tampered cursor', () => ({ mode: 'UPI', cursor: tampered() }), ['cursor']],
    ['a cursor with a filter dropped', () => ({ cursor }), ['cursor']],
    ['a cursor with a filter changed', () => ({ mode: 'IMPS', cursor }), ['cursor']],
    ['a cursor with a filter added', () => ({ mode: 'UPI', status: 'Pending', cursor }), ['cursor']],
    ['several faults', () => ({ limit: '-1', mode: 'upi', sort: 'asc' }), ['limit', 'mode', 'sort']],
  ])('when given %s, then 422 VALIDATION ERROR naming it, and nothing changes', async (_name, query, fields) => {
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const res = await list(merchant, query());

    expectValidationError(res, fields);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when the same cursor comes back with its own filters, then it is read (the cases above are refused for their faults alone)', async () => {
    expect((await page(merchant, { mode: 'UPI', cursor })).payouts).toHaveLength(2);
  });

  it('when the MID is not well formed, then 400 "FAILED" as on the status lookup; missing or wrong credentials 401', async () => {
    expectJson(await list({ ...merchant, mid: 'bad.mid' }), 400, invalidMidBody('FAILED'));
    expectJson(await list({ ...merchant, token: 'pgt_wrong' }), 401, unauthorizedBody);
    expectJson(await call(api.current, '/api/payouts'), 401, unauthorizedBody);
  });

  it('when the credentials are wrong, then the query is not read: 401 even for a bad query', async () => {
    expectJson(await list({ ...merchant, token: 'pgt_wrong' }, { limit: '0' }), 401, unauthorizedBody);
  });

  it('when another method is used, then 405; a path below it is 404', async () => {
    expect((await call(api.current, '/api/payouts', { merchant, method: 'POST', body: {} })).status).toBe(405);
    expect((await call(api.current, '/api/payouts', { merchant, method: 'DELETE' })).status).toBe(405);
    expect((await call(api.current, '/api/payouts/1', { merchant })).status).toBe(404);
  });
});

describe('the SDK’s listPayouts', () => {
  const clientFor = (merchant: TestMerchant) =>
    new PayoutClient({
      baseUrl: api.current.url,
      mid: merchant.mid,
      token: merchant.token,
      retry: { firstDelayMs: 20, maxDelayMs: 100, deadlineMs: 5_000 },
    });

  async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    return all;
  }

  it('when iterated, then it yields every payout once, newest first, across pages, each as the lookup shows it', async () => {
    const merchant = await makeMerchant(prisma, { balance: '2000.00' });
    for (let i = 0; i < 5; i++) await payOut(merchant, i % 2 ? 'UPI' : 'IMPS');
    await bulk(merchant, 4);
    const paid = await payOut(merchant, 'UPI');
    await markPayoutSuccess(pool, merchant.merchant.id, paid.transactionId);

    const payouts = await collect(clientFor(merchant).listPayouts({ limit: 3 }));

    expect(payouts.map((p) => p.Ack_no)).toEqual(await acksInDatabase(merchant));
    const lookedUp = await call(api.current, `/api/check_payout_status?TransactionID=${paid.transactionId}`, {
      merchant,
    });
    expect(payouts[0]).toEqual(lookedUp.json);
  });

  it('when given filters (times as Dates), then it yields what the gateway lists for them', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    for (let i = 0; i < 4; i++) await payOut(merchant, i % 2 ? 'UPI' : 'IMPS');
    const batch = await bulk(merchant, 3);
    const from = new Date(Date.now() - 3_600_000);

    const upi = await collect(
      clientFor(merchant).listPayouts({ mode: 'UPI', from, to: new Date(Date.now() + 60_000), limit: 1 }),
    );
    const ofBatch = await collect(clientFor(merchant).listPayouts({ BatchID: BigInt(batch.batchId) }));

    expect(upi.map((p) => p.Ack_no)).toEqual(acks((await walk(merchant, { mode: 'UPI' })).payouts));
    expect(upi.length).toBeGreaterThan(1);
    expect(ofBatch.map((p) => p.Ack_no).sort()).toEqual([...batch.acks].sort());
  });

  it('when the gateway refuses the filters, then iterating throws INVALID_REQUEST naming them', async () => {
    const merchant = await makeMerchant(prisma);

    const error = await collect(clientFor(merchant).listPayouts({ limit: 5_000 })).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PayoutClientError);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', details: { httpStatus: 422 } });
    expect((error as PayoutClientError).details.last).toContain('"field":"limit"');
  });

  it('when a page is asked for itself, then getPayoutPage answers it with the cursor of the next', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    for (let i = 0; i < 3; i++) await payOut(merchant, 'UPI');
    const client = clientFor(merchant);

    const first = await client.getPayoutPage({ limit: 2 });
    if (first.kind !== 'found') throw new Error(`not found: ${JSON.stringify(first)}`);
    const second = await client.getPayoutPage({ limit: 2 }, first.nextCursor);

    expect(second).toMatchObject({ kind: 'found', nextCursor: null, httpStatus: 200 });
    expect([...first.payouts, ...(second.kind === 'found' ? second.payouts : [])].map((p) => p.Ack_no)).toEqual(
      await acksInDatabase(merchant),
    );
    expect(await client.getPayoutPage({ mode: 'IMPS' }, first.nextCursor)).toMatchObject({
      kind: 'invalid',
      errors: [{ field: 'cursor', message: expect.any(String) }],
    });
  });
});
