import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayoutClient, PayoutClientError } from '@payout/client';
import { STATEMENT_WORDS } from '@payout/contract';
import {
  acceptPayouts,
  creditWallet,
  findPayoutByTransactionId,
  recordDiscrepancy,
  resolveDiscrepancy,
  reversePayout,
  settleFailure,
} from '@payout/db';
import { newAckNo, type PayoutInstructionRecord } from '@payout/domain';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, newTransactionId, upiBody, useApi, type ApiResponse } from '../support/api.js';
import { documentedBodyErrors, type JsonObject } from '../docs/openapi-checks.js';
import {
  errorBody,
  CONTRACT_MESSAGES,
  expectJson,
  expectValidationError,
  insertCollection,
  invalidMidBody,
  markPayoutSuccess,
  merchantSnapshot,
  unauthorizedBody,
} from './contract-expectations.js';

// Contract of GET /api/statement (docs/api.md, "Statement"): the merchant's main wallet statement for a period —
// every movement of the balance GET /api/checkMainWallet shows, oldest first, with the balance after each,
// between an opening and a closing balance that add up; pages by a cursor that carries its period; the whole
// period as a CSV file; every bad parameter a 422 that changes nothing. The money is moved by the real use cases
// (accept, settle, fail, reverse, pay-in, operator credit, late debit). Each JSON answer is also checked against
// the OpenAPI document, and the SDK walks the same statement.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
let document: JsonObject;

afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const WALLET = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';
const IST_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+05:30$/;
const note = { reason: 'test: the rail decided', actor: 'test' };
// A wallet credit's reference a spreadsheet would run as a formula, were it not defused in the CSV.
const FORMULA_REFERENCE = '=HYPERLINK("https://evil.example","x")';

// What each kind of ledger entry is called on the statement, written out here (a contract test does not share
// the code's constants); null where the main wallet does not move.
const TYPE_OF_KIND: Record<string, string | null> = {
  WALLET_CREDIT: 'WALLET_CREDIT',
  COLLECTION_CREDIT: 'PAYIN',
  PAYOUT_RESERVE: 'PAYOUT',
  PAYOUT_SETTLE: null,
  PAYOUT_RELEASE: 'PAYOUT_FAILED',
  PAYOUT_REVERSAL: 'PAYOUT_REVERSED',
  PAYOUT_LATE_DEBIT: 'PAYOUT_CHARGED',
};

interface Entry {
  id: string;
  time: string;
  type: string;
  description: string;
  amount: string;
  balance_after: string;
  TransactionID: string | null;
  reference: string | null;
}

interface Page {
  from: string;
  to: string | null;
  opening_balance: string;
  closing_balance: string;
  entries: Entry[];
  next_cursor: string | null;
}

type Query = Record<string, string | string[]>;

function statementPath(query: Query = {}): string {
  const parts = Object.entries(query).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`),
  );
  return parts.length ? `/api/statement?${parts.join('&')}` : '/api/statement';
}

async function ask(merchant: Pick<TestMerchant, 'mid' | 'token'>, query: Query = {}): Promise<ApiResponse> {
  const res = await call(api.current, statementPath(query), { merchant });
  if (!(res.headers.get('content-type') ?? '').startsWith('text/csv')) {
    expect(documentedBodyErrors(document, '/api/statement', 'get', res), res.text).toEqual([]);
  }
  return res;
}

async function page(merchant: TestMerchant, query: Query = {}): Promise<Page> {
  const res = await ask(merchant, query);
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return res.json as unknown as Page;
}

/** Every page of the statement with this query, following next_cursor. */
async function walk(merchant: TestMerchant, query: Query): Promise<{ pages: Page[]; entries: Entry[] }> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const current: Page = await page(merchant, cursor === null ? query : { ...query, cursor });
    pages.push(current);
    cursor = current.next_cursor;
  } while (cursor !== null);
  return { pages, entries: pages.flatMap((p) => p.entries) };
}

/** A day after tomorrow, India time ("YYYY-MM-DD"): a `to` later than now. */
const istDay = (at: Date) => new Date(at.getTime() + 19_800_000).toISOString().slice(0, 10);
const LATER = istDay(new Date(Date.now() + 2 * 86_400_000));
const DAY_BEFORE_LATER = istDay(new Date(Date.now() + 86_400_000));

const paise = (rupees: string) => BigInt(rupees.replace('.', ''));
const rupees = (amount: bigint) => {
  const sign = amount < 0n ? '-' : '';
  const magnitude = amount < 0n ? -amount : amount;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
};

async function mainWallet(merchant: TestMerchant): Promise<string> {
  const res = await call(api.current, WALLET, { merchant });
  expect(res.status, res.text).toBe(200);
  return res.json.mainwallet as string;
}

async function payOut(merchant: TestMerchant, mode: 'IMPS' | 'UPI', amount: string, expected: number) {
  const body = mode === 'IMPS' ? impsBody({ Amount: amount }) : upiBody({ Amount: amount });
  const res = await call(api.current, mode === 'IMPS' ? '/api/impspayout' : '/api/payout', { merchant, body });
  expect(res.status, res.text).toBe(expected);
  return body.TransactionID;
}

async function payoutId(merchant: TestMerchant, transactionId: string): Promise<bigint> {
  return (await findPayoutByTransactionId(prisma, merchant.merchant.id, transactionId))!.id;
}

// The story: a merchant funded, two payouts accepted and one refused, one paid then reversed, one failed then
// charged after all (the bank paid it), a pay-in and a second credit.
let story: TestMerchant;
let storyStart: string;
const ids = { paid: '', failed: '', refused: '', payin: '' };

beforeAll(async () => {
  document = (await call(api.current, '/openapi.json')).json;
  storyStart = new Date(Date.now() - 1_000).toISOString();
  story = await makeMerchant(prisma, { balance: '1000.00' });
  ids.paid = await payOut(story, 'IMPS', '101.00', 202);
  ids.failed = await payOut(story, 'UPI', '250.50', 202);
  ids.refused = await payOut(story, 'UPI', '900.00', 400);
  await markPayoutSuccess(pool, story.merchant.id, ids.paid);
  expect((await settleFailure(prisma, await payoutId(story, ids.failed), 'RAIL_REJECTED', note)).moved).toBe(true);
  expect((await reversePayout(prisma, await payoutId(story, ids.paid), { source: 'rail', note })).moved).toBe(true);
  ids.payin = newTransactionId();
  await insertCollection(pool, {
    merchantId: story.merchant.id,
    transactionId: ids.payin,
    amountPaise: 2_500n,
    bankReference: '409988776655',
  });
  const late = await recordDiscrepancy(prisma, {
    payoutId: await payoutId(story, ids.failed),
    kind: 'SUCCESS_AFTER_FAILED',
    source: 'rail',
    railAnswer: { status: 'SUCCESS', utr: '123412341234' },
  });
  const charged = await resolveDiscrepancy(prisma, {
    id: late.id,
    resolution: 'debit-merchant',
    note: 'the bank paid it after all',
    actor: 'operator:test',
  });
  expect(charged).toMatchObject({ kind: 'resolved', posted: true });
  await creditWallet(prisma, story.merchant.id, 5n, FORMULA_REFERENCE);
});

const storyEntries = () => [
  {
    type: 'WALLET_CREDIT',
    amount: '1000.00',
    balance_after: '1000.00',
    TransactionID: null,
    reference: `opening-${story.mid}`,
  },
  { type: 'PAYOUT', amount: '-101.00', balance_after: '899.00', TransactionID: ids.paid, reference: null },
  { type: 'PAYOUT', amount: '-250.50', balance_after: '648.50', TransactionID: ids.failed, reference: null },
  { type: 'PAYOUT_FAILED', amount: '250.50', balance_after: '899.00', TransactionID: ids.failed, reference: null },
  { type: 'PAYOUT_REVERSED', amount: '101.00', balance_after: '1000.00', TransactionID: ids.paid, reference: null },
  { type: 'PAYIN', amount: '25.00', balance_after: '1025.00', TransactionID: ids.payin, reference: null },
  { type: 'PAYOUT_CHARGED', amount: '-250.50', balance_after: '774.50', TransactionID: ids.failed, reference: null },
  { type: 'WALLET_CREDIT', amount: '0.05', balance_after: '774.55', TransactionID: null, reference: FORMULA_REFERENCE },
];

describe('GET /api/statement found (200)', () => {
  it('when the period holds every kind of movement, then each is an entry in order with the balance after it, and opening plus the entries is the closing balance, the wallet lookup', async () => {
    const body = await page(story, { from: storyStart });

    expect(body).toEqual({
      error: false,
      status_code: 200,
      status: 'Success',
      from: expect.stringMatching(IST_TIME),
      to: null,
      opening_balance: '0.00',
      closing_balance: '774.55',
      entries: storyEntries().map((e) => ({
        ...e,
        id: expect.stringMatching(/^[1-9][0-9]*$/),
        time: expect.stringMatching(IST_TIME),
        description: expect.stringMatching(/\S/),
      })),
      next_cursor: null,
    });
    expect(new Date(body.from).toISOString()).toBe(storyStart);
    const sum = body.entries.reduce((total, e) => total + paise(e.amount), paise(body.opening_balance));
    expect(rupees(sum)).toBe(body.closing_balance);
    expect(body.closing_balance).toBe(await mainWallet(story));
    // The refused payout reserved nothing, and a settlement moves nothing of the available balance.
    expect(body.entries.map((e) => e.TransactionID)).not.toContain(ids.refused);
  });

  it('when an entry is shown, then it is a main-wallet leg of this merchant in the ledger, its kind named as the statement names it', async () => {
    const { entries } = await page(story, { from: storyStart });
    const { rows } = await pool.query<{
      id: string;
      kind: string;
      account: string;
      amount_paise: string;
      merchant_id: number;
      at: Date;
    }>(
      `SELECT id::text, kind::text, account::text, amount_paise::text, merchant_id, created_at AS at
         FROM ledger_entries WHERE id = ANY($1::bigint[])`,
      [entries.map((e) => e.id)],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const entry of entries) {
      const leg = byId.get(entry.id)!;
      expect(leg, entry.id).toMatchObject({ account: 'MAIN_WALLET', merchant_id: story.merchant.id });
      expect(entry.type).toBe(TYPE_OF_KIND[leg.kind]);
      expect(paise(entry.amount)).toBe(BigInt(leg.amount_paise));
      expect(new Date(entry.time).getTime()).toBe(leg.at.getTime());
    }
    // Every main-wallet leg of the merchant is on the statement.
    const { rows: legs } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_entries WHERE merchant_id = $1 AND account = 'MAIN_WALLET'`,
      [story.merchant.id],
    );
    expect(entries).toHaveLength(legs[0]!.n);
  });

  it('when the ledger has a kind of entry, then the statement names it, or knows it never moves the main wallet', async () => {
    const { rows } = await pool.query<{ kind: string }>(
      'SELECT unnest(enum_range(NULL::ledger_entry_kind))::text AS kind',
    );
    const kinds = rows.map((r) => r.kind).sort();
    expect(Object.keys(TYPE_OF_KIND).sort()).toEqual(kinds);
    expect(Object.keys(STATEMENT_WORDS).sort()).toEqual(kinds);
    for (const kind of kinds)
      expect(STATEMENT_WORDS[kind as keyof typeof STATEMENT_WORDS]?.type ?? null, kind).toBe(TYPE_OF_KIND[kind]);
  });

  it('when walked two entries a page, then the pages hold the same entries once each, with the same balances, and the last has no next_cursor', async () => {
    const whole = await page(story, { from: storyStart });
    const { pages, entries } = await walk(story, { from: storyStart, limit: '2' });

    expect(pages).toHaveLength(4);
    expect(entries).toEqual(whole.entries);
    for (const p of pages) {
      expect(p.entries.length).toBeLessThanOrEqual(2);
      expect(p).toMatchObject({ from: whole.from, to: null, opening_balance: '0.00', closing_balance: '774.55' });
    }
    expect(pages.slice(0, -1).every((p) => typeof p.next_cursor === 'string')).toBe(true);
    expect(pages.at(-1)!.next_cursor).toBeNull();
  });

  it('when the period is cut at an entry, then from includes it and to excludes it, and the closing balance of the one is the opening balance of the other', async () => {
    const whole = await page(story, { from: storyStart });
    const cut = whole.entries[3]!.time;
    const before = whole.entries.filter((e) => new Date(e.time) < new Date(cut));
    const after = whole.entries.filter((e) => new Date(e.time) >= new Date(cut));

    const early = await page(story, { from: storyStart, to: cut });
    const late = await page(story, { from: cut, to: new Date(Date.now() + 86_400_000).toISOString() });

    expect(early.entries).toEqual(before);
    expect(late.entries).toEqual(after);
    expect(early.to).toBe(cut);
    expect(late.from).toBe(cut);
    expect(early.closing_balance).toBe(before.at(-1)!.balance_after);
    expect(late.opening_balance).toBe(early.closing_balance);
    // A `to` later than now: the closing balance is the balance now.
    expect(late.closing_balance).toBe(await mainWallet(story));
  });

  it('when no period is given, then it is today so far in India time, its closing balance the wallet lookup', async () => {
    const today = istDay(new Date());
    const body = await page(story);

    expect(body.from).toBe(`${istDay(new Date())}T00:00:00.000+05:30`);
    expect(body.to).toBeNull();
    expect(body.closing_balance).toBe(await mainWallet(story));
    // The story was written moments ago: today, unless midnight fell in between.
    if (istDay(new Date()) === today && istDay(new Date(storyStart)) === today) expect(body.entries).toHaveLength(8);
  });

  it('when the period holds no movement, then no entries, and its opening and closing balances are the balance then', async () => {
    const body = await page(story, { from: '2026-01-01', to: '2026-01-02' });

    expect(body).toMatchObject({
      from: '2026-01-01T00:00:00.000+05:30',
      to: '2026-01-02T00:00:00.000+05:30',
      opening_balance: '0.00',
      closing_balance: '0.00',
      entries: [],
      next_cursor: null,
    });
  });

  it('when another merchant asks for its statement, then none of these entries is in it', async () => {
    const other = await makeMerchant(prisma, { balance: '10.00' });
    const body = await page(other, { from: storyStart });

    expect(body.entries.map((e) => e.type)).toEqual(['WALLET_CREDIT']);
    expect(body.closing_balance).toBe('10.00');
  });

  it('when the statement is read, then nothing in the database changes', async () => {
    const before = await merchantSnapshot(pool, story.merchant.id);

    await walk(story, { from: storyStart, limit: '3' });
    await ask(story, { from: storyStart, format: 'csv' });

    expect(await merchantSnapshot(pool, story.merchant.id)).toEqual(before);
  });
});

/** A CSV answer's rows, read by RFC 4180 (what csvLine writes): CRLF ends a row, quotes hold commas and quotes. */
function csvRows(text: string): string[][] {
  expect(text.endsWith('\r\n'), 'the file ends with a line break').toBe(true);
  const cell = /("(?:[^"]|"")*"|[^",\r\n]*)(,|\r\n)/gy;
  const rows: string[][] = [];
  let row: string[] = [];
  for (let match = cell.exec(text); match; match = cell.exec(text)) {
    const [, raw, end] = match as unknown as [string, string, string];
    row.push(raw.startsWith('"') ? raw.slice(1, -1).replaceAll('""', '"') : raw);
    if (end === '\r\n') {
      rows.push(row);
      row = [];
    }
    if (cell.lastIndex === text.length) break;
  }
  expect(cell.lastIndex, 'every byte read').toBe(text.length);
  return rows;
}

describe('GET /api/statement?format=csv', () => {
  it('when asked, then an attachment: the columns, the opening balance, each entry unsigned in Debit or Credit, and the closing balance, as the JSON statement has them', async () => {
    const json = await page(story, { from: storyStart, to: LATER });
    const res = await ask(story, { from: storyStart, to: LATER, format: 'csv' });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      new RegExp(`^attachment; filename="statement-${story.mid}-\\d{4}-\\d{2}-\\d{2}-to-${DAY_BEFORE_LATER}\\.csv"$`),
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const rows = csvRows(res.text);
    expect(rows[0]).toEqual([
      'Time',
      'Type',
      'Description',
      'TransactionID',
      'Reference',
      'Debit',
      'Credit',
      'Balance',
      'EntryID',
    ]);
    expect(rows[1]).toEqual([json.from, 'OPENING_BALANCE', expect.any(String), '', '', '', '', '0.00', '']);
    expect(rows.slice(2, -1)).toEqual(
      json.entries.map((e) => [
        e.time,
        e.type,
        e.description,
        e.TransactionID ?? '',
        // The formula-like reference is written after a ', so a spreadsheet shows it instead of running it.
        e.reference === FORMULA_REFERENCE ? `'${FORMULA_REFERENCE}` : (e.reference ?? ''),
        e.amount.startsWith('-') ? e.amount.slice(1) : '',
        e.amount.startsWith('-') ? '' : e.amount,
        e.balance_after,
        e.id,
      ]),
    );
    expect(rows.at(-1)).toEqual([
      `${LATER}T00:00:00.000+05:30`,
      'CLOSING_BALANCE',
      expect.any(String),
      '',
      '',
      '',
      '',
      json.closing_balance,
      '',
    ]);
    expect(res.text).toContain(`"'=HYPERLINK(""https://evil.example"",""x"")"`);
    // No cell starts with a character a spreadsheet would run.
    expect(rows.flat().filter((cell) => /^[=+\-@]/.test(cell))).toEqual([]);
  });

  it('when the period holds more entries than one read, then the file holds them all, in order, adding up to the wallet lookup', async () => {
    const busy = await makeMerchant(prisma, { balance: '100000.00' });
    const instruction = (n: number): PayoutInstructionRecord => ({
      merchantId: busy.merchant.id,
      transactionId: `${busy.merchant.id}${String(n).padStart(6, '0')}`,
      mode: 'UPI',
      amountPaise: 1_00n + BigInt(n),
      ackNo: newAckNo(),
      account: 'asha@okhdfc',
      ifsc: null,
      name: 'Asha',
      bankName: null,
      mobile: null,
      email: null,
      description: null,
      scheduledAt: null,
    });
    for (let start = 0; start < 2_500; start += 500) {
      await acceptPayouts(
        prisma,
        Array.from({ length: 500 }, (_, i) => instruction(start + i)),
      );
    }

    const res = await ask(busy, { from: storyStart, format: 'csv' });
    const rows = csvRows(res.text);
    const { entries } = await walk(busy, { from: storyStart, limit: '1000' });

    expect(rows).toHaveLength(2 + 2_501 + 1);
    expect(rows.slice(2, -1).map((r) => r[8])).toEqual(entries.map((e) => e.id));
    expect(rows.at(-1)![7]).toBe(await mainWallet(busy));
    expect(rows.at(-2)![7]).toBe(rows.at(-1)![7]);
  });
});

describe('GET /api/statement refused', () => {
  it.each<[string, Query, string[]]>([
    ['an unknown parameter', { PayoutType: 'Main_Wallet_Balance' }, ['PayoutType']],
    ['from repeated', { from: ['2026-12-01', '2026-12-01'] }, ['from']],
    ['from not a time', { from: 'yesterday' }, ['from']],
    ['from without its offset', { from: '2026-12-01T00:00:00' }, ['from']],
    ['to without from', { to: '2026-12-02' }, ['from']],
    ['to at from', { from: '2026-12-01', to: '2026-12-01T00:00:00+05:30' }, ['to']],
    ['to before from', { from: '2026-12-02', to: '2026-12-01' }, ['to']],
    ['a period of 94 days', { from: '2026-01-01', to: '2026-04-05' }, ['to']],
    ['limit 0', { limit: '0' }, ['limit']],
    ['limit 1001', { limit: '1001' }, ['limit']],
    ['limit not a number', { limit: '1e2' }, ['limit']],
    ['an unknown format', { format: 'pdf' }, ['format']],
    ['limit with the CSV', { format: 'csv', limit: '10' }, ['limit']],
    ['a cursor that is not ours', { cursor: 'czE6MDo6MDox' }, ['cursor']],
    [
      'everything wrong at once',
      { from: 'x', limit: '0', format: 'xml', extra: '1' },
      ['extra', 'from', 'format', 'limit'],
    ],
  ])('when %s, then 422 naming it, and nothing changes', async (_what, query, fields) => {
    const before = await merchantSnapshot(pool, story.merchant.id);

    expectValidationError(await ask(story, query), fields);

    expect(await merchantSnapshot(pool, story.merchant.id)).toEqual(before);
  });

  it('when a cursor is sent with another period, changed, or with the CSV, then 422 on cursor', async () => {
    const first = await page(story, { from: storyStart, to: LATER, limit: '2' });
    const cursor = first.next_cursor!;
    const payload = Buffer.from(cursor, 'base64url').toString('latin1');
    const edited = Buffer.from(
      payload.replace(/:(\d+):([0-9a-f]{12})$/, (_m, id: string, check: string) => `:${BigInt(id) + 1n}:${check}`),
      'latin1',
    ).toString('base64url');

    expectValidationError(await ask(story, { cursor, from: storyStart, to: DAY_BEFORE_LATER }), ['cursor']);
    expectValidationError(await ask(story, { cursor, from: '2026-01-01' }), ['cursor']);
    expectValidationError(await ask(story, { cursor: edited }), ['cursor']);
    expectValidationError(await ask(story, { cursor, format: 'csv' }), ['cursor']);
    // The same cursor with its own period, or with none, is the next page.
    const next = await page(story, { cursor, from: storyStart, to: LATER });
    expect(await page(story, { cursor })).toEqual(next);
    expect(next.entries[0]!.balance_after).toBe(storyEntries()[2]!.balance_after);
  });

  it('when the merchant has no main wallet, then 404 as the wallet lookup, in JSON and as CSV', async () => {
    const merchant = await makeMerchant(prisma);
    const notFound = errorBody(404, 'NOT FOUND', CONTRACT_MESSAGES.walletNotFound);

    expectJson(await ask(merchant), 404, notFound);
    expectJson(await ask(merchant, { format: 'csv' }), 404, notFound);
  });

  it('when the MID is not well formed, then 400 "BAD REQUEST" as the wallet lookup; when the credentials are wrong, then 401, before any parameter is read', async () => {
    expectJson(await ask({ mid: 'bad.mid', token: story.token }, { limit: '0' }), 400, invalidMidBody('BAD REQUEST'));
    expectJson(await ask({ mid: story.mid, token: 'pgt_nope' }, { limit: '0' }), 401, unauthorizedBody);
    expectJson(await call(api.current, '/api/statement'), 401, unauthorizedBody);
  });

  it('when asked with another method, then 405', async () => {
    const res = await call(api.current, '/api/statement', { merchant: story, body: {} });
    expectJson(res, 405, errorBody(405, 'METHOD NOT ALLOWED'));
  });
});

describe('the SDK', () => {
  const client = (merchant: TestMerchant) =>
    new PayoutClient({
      baseUrl: api.current.url,
      mid: merchant.mid,
      token: merchant.token,
      retry: { firstDelayMs: 20, maxDelayMs: 100, deadlineMs: 5_000 },
    });

  it('when iterating statement(), then it yields every entry of the period, page after page, as the API shows them', async () => {
    const yielded: unknown[] = [];
    for await (const entry of client(story).statement({ from: new Date(storyStart), limit: 3 })) yielded.push(entry);

    expect(yielded).toEqual((await page(story, { from: storyStart })).entries);
  });

  it('when asking for a page, then the balances and the cursor; when asking for the CSV, then the file', async () => {
    const sdk = client(story);
    const first = await sdk.getStatementPage({ from: storyStart, limit: 5 });
    expect(first).toMatchObject({
      kind: 'found',
      httpStatus: 200,
      statement: { opening_balance: '0.00', closing_balance: '774.55' },
    });
    const next = await sdk.getStatementPage({ from: storyStart }, first.kind === 'found' ? first.nextCursor : null);
    expect(next.kind === 'found' && next.statement.entries.map((e) => e.type)).toEqual([
      'PAYIN',
      'PAYOUT_CHARGED',
      'WALLET_CREDIT',
    ]);

    const csv = await sdk.getStatementCsv({ from: storyStart, to: LATER });
    expect(csv).toMatchObject({ kind: 'found', httpStatus: 200 });
    expect(csv.kind === 'found' && csv.csv).toBe(
      (await ask(story, { from: storyStart, to: LATER, format: 'csv' })).text,
    );
  });

  it('when the period is refused, then the page is invalid and the iterator throws INVALID_REQUEST; without a wallet, nothing to iterate', async () => {
    const sdk = client(story);
    expect(await sdk.getStatementPage({ from: '2026-12-02', to: '2026-12-01' })).toMatchObject({
      kind: 'invalid',
      httpStatus: 422,
      errors: [{ field: 'to', message: expect.any(String) }],
    });
    const walking = async () => {
      for await (const _entry of sdk.statement({ to: '2026-12-01' })) expect.unreachable();
    };
    await expect(walking()).rejects.toSatisfy((e) => e instanceof PayoutClientError && e.code === 'INVALID_REQUEST');
    expect(await sdk.getStatementCsv({ from: 'soon' })).toMatchObject({ kind: 'invalid', httpStatus: 422 });

    const unfunded = client(await makeMerchant(prisma));
    const entries: unknown[] = [];
    for await (const entry of unfunded.statement()) entries.push(entry);
    expect(entries).toEqual([]);
    expect(await unfunded.getStatementCsv()).toMatchObject({ kind: 'not_found', httpStatus: 404 });
  });
});
