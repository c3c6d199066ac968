import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { call, losslessBody, useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { getPage, hrefs, listedTransactionIds, payOut, signedIn, type SignedIn } from './pages-support.js';

// The dashboard's payouts page, GET /dashboard, and its CSV (docs/api.md, "Listing payouts", which both
// mirror): one merchant's payouts newest first and never another's, the list API's filters and cursor, the
// CSV of exactly what the filters list, and a role without `statements` refused the download.

const db: PrismaClient = testPrisma();
const pool = testPool();
const api = useApi();

let ours: TestMerchant;
let theirs: TestMerchant;
/** Ours, oldest first: IMPS, UPI, IMPS. */
let ourIds: string[];
let theirId: string;
let finance: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  ours = await makeMerchant(db, { balance: '1000.00' });
  theirs = await makeMerchant(db, { balance: '1000.00' });
  ourIds = [];
  ourIds.push(await payOut(api.current, ours, 'IMPS', { Amount: '101.00' }));
  ourIds.push(await payOut(api.current, ours, 'UPI', { Amount: '20.50' }));
  ourIds.push(await payOut(api.current, ours, 'IMPS', { Amount: '3.00' }));
  theirId = await payOut(api.current, theirs, 'IMPS');
  finance = await signedIn(db, ours, 'FINANCE');
  viewer = await signedIn(db, ours, 'VIEWER');
});
afterAll(async () => {
  await db.$disconnect();
  await pool.end();
});

const page = (path: string, person: SignedIn = viewer) => getPage(api.current.url, path, person);

describe('GET /dashboard', () => {
  it('lists the signed-in merchant’s payouts newest first, in rupees, each linking to its page, and no other merchant’s', async () => {
    const res = await page('/dashboard');

    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(listedTransactionIds(res.text)).toEqual([...ourIds].reverse());
    expect(res.text).not.toContain(theirId);
    expect(res.text).toContain('<td class="num">101.00</td>');
    expect(res.text).toContain('<td class="num">20.50</td>');
  });

  it('shows the same payouts, in the same order, as GET /api/payouts with the same filters', async () => {
    const apiBody = losslessBody(await call(api.current, '/api/payouts?mode=IMPS', { merchant: ours }));
    const fromApi = (apiBody.payouts as { TransactionID: string }[]).map((p) => p.TransactionID);

    const res = await page('/dashboard?mode=IMPS&status=&from=&to=&BatchID=&bank=');

    expect(res.status).toBe(200);
    expect(listedTransactionIds(res.text)).toEqual(fromApi);
    expect(fromApi).toEqual([ourIds[2], ourIds[0]]);
  });

  it('lists what GET /api/payouts lists for each filter: status, an IST date range, bank and BatchID', async () => {
    const istDay = (offsetDays: number) =>
      new Date(Date.now() + offsetDays * 86_400_000 + 5.5 * 3_600_000).toISOString().slice(0, 10);
    const queries = [
      'status=Pending',
      'status=Success',
      `from=${istDay(0)}&to=${istDay(1)}`,
      `to=${istDay(-1)}`,
      'bank=primary',
      'BatchID=424242',
      'mode=UPI&status=Pending',
    ];
    for (const query of queries) {
      const apiBody = losslessBody(await call(api.current, `/api/payouts?${query}`, { merchant: ours }));
      const fromApi = (apiBody.payouts as { TransactionID: string }[]).map((p) => p.TransactionID);

      const res = await page(`/dashboard?${query}`);

      expect(res.status, query).toBe(200);
      expect(listedTransactionIds(res.text), query).toEqual(fromApi);
    }
    // Not all empty: the date range of today and Pending hold every payout of ours.
    const today = await page(`/dashboard?from=${istDay(0)}&to=${istDay(1)}&status=Pending`);
    expect(listedTransactionIds(today.text)).toEqual([...ourIds].reverse());
  });

  it('walks older pages by the cursor of the "Older" link, keeping the filters, and the last page has none', async () => {
    const first = await page('/dashboard?limit=2');
    expect(listedTransactionIds(first.text)).toEqual([ourIds[2], ourIds[1]]);
    const older = hrefs(first.text).find((href) => href.includes('cursor='));
    expect(older).toMatch(/^\/dashboard\?limit=2&cursor=[A-Za-z0-9_-]+$/);

    const second = await page(older!);

    expect(second.status).toBe(200);
    expect(listedTransactionIds(second.text)).toEqual([ourIds[0]]);
    expect(hrefs(second.text).some((href) => href.includes('cursor='))).toBe(false);
    expect(hrefs(second.text)).toContain('/dashboard');
  });

  it('refuses a filter the list API refuses with 422, listing nothing and echoing the value escaped', async () => {
    const res = await page(`/dashboard?bank=${encodeURIComponent('<script>alert(1)</script>')}&status=Paid`);

    expect(res.status).toBe(422);
    expect(res.text).toContain('status must be Pending, Success or Failed');
    expect(res.text).toContain('value="&lt;script>alert(1)&lt;/script>"');
    expect(res.text).not.toContain('<script>');
    expect(listedTransactionIds(res.text)).toEqual([]);
  });

  it('sends a browser without a session to sign in', async () => {
    const res = await fetch(`${api.current.url}/dashboard`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/login');
  });
});

describe('GET /dashboard/payouts.csv', () => {
  /** The CSV line the list API's body of the payout gives, with its acceptance time in IST. */
  async function expectedLine(transactionId: string): Promise<string> {
    const lookup = losslessBody(
      await call(api.current, `/api/check_payout_status?TransactionID=${transactionId}`, { merchant: ours }),
    ) as Record<string, string>;
    const { rows } = await pool.query<{ accepted: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'Asia/Kolkata', 'YYYY-MM-DD"T"HH24:MI:SS.MS') || '+05:30' AS accepted
         FROM payouts WHERE merchant_id = $1 AND transaction_id = $2`,
      [ours.merchant.id, transactionId],
    );
    const l = lookup;
    return [
      rows[0]!.accepted,
      l.TransactionID,
      l.Ack_no,
      l.mode,
      l.status,
      l.Amount,
      l.Bankriff,
      l.bank ?? '',
      l.reason_code ?? '',
      l.account,
      l.ifsc,
      l.message,
    ].join(',');
  }

  it('is exactly every payout the filters list, newest first, for a finance user', async () => {
    const res = await page('/dashboard/payouts.csv?mode=IMPS&status=&from=&to=&BatchID=&bank=', finance);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${ours.mid}-payouts.csv"`);
    const header = 'AcceptedAt,TransactionID,Ack_no,mode,status,Amount,Bankriff,bank,reason_code,account,ifsc,message';
    const lines = [header, await expectedLine(ourIds[2]!), await expectedLine(ourIds[0]!)];
    expect(res.text).toBe(lines.map((line) => `${line}\r\n`).join(''));
  });

  it('refuses a viewer, whose role lacks statements, with 403', async () => {
    const res = await page('/dashboard/payouts.csv', viewer);
    expect(res.status).toBe(403);
    expect(res.text).not.toContain(ourIds[0]);
  });

  it('refuses a cursor or limit, since the file is whole', async () => {
    const res = await page('/dashboard/payouts.csv?limit=2', finance);
    expect(res.status).toBe(422);
    expect(res.text).toContain('limit pages the list');
  });
});
