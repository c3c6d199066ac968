import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { call, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { getPage, hrefs, payOut, signedIn, type SignedIn } from './pages-support.js';

// The dashboard's wallet page, GET /dashboard/wallet, and its statement file (docs/api.md, "Lookups" and
// "Statement", which they mirror): this merchant's balances and entries with their running balance, never
// another merchant's; pages by the statement's cursor; the CSV byte for byte the endpoint's format=csv.

const db: PrismaClient = testPrisma();
const api = useApi();

let ours: TestMerchant;
let theirs: TestMerchant;
let ourIds: string[];
let theirId: string;
let finance: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  ours = await makeMerchant(db, { balance: '1000.00' });
  theirs = await makeMerchant(db, { balance: '500.00' });
  ourIds = [
    await payOut(api.current, ours, 'IMPS', { Amount: '101.00' }),
    await payOut(api.current, ours, 'UPI', { Amount: '20.50' }),
  ];
  theirId = await payOut(api.current, theirs, 'IMPS', { Amount: '77.00' });
  finance = await signedIn(db, ours, 'FINANCE');
  viewer = await signedIn(db, ours, 'VIEWER');
});
afterAll(async () => {
  await db.$disconnect();
});

const page = (path: string, person: SignedIn = viewer) => getPage(api.current.url, path, person);

/** The rows of the page's statement table: each cell's text, tags dropped. */
function statementRows(html: string): string[][] {
  const body = /<caption>Entries, oldest first<\/caption>.*?<tbody>(.*?)<\/tbody>/s.exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr>(.*?)<\/tr>/gs)].map((row) =>
    [...row[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((cell) => cell[1]!.replace(/<[^>]+>/g, ' ').trim()),
  );
}

describe('GET /dashboard/wallet', () => {
  it('shows the balances and today’s entries with their running balance, linking payouts, and no other merchant’s', async () => {
    const res = await page('/dashboard/wallet');

    expect(res.status).toBe(200);
    expect(res.text).toContain('<dt>Available balance</dt><dd>₹ 878.50</dd>');
    expect(res.text).toContain('<dt>Reserved for payouts in progress</dt><dd>₹ 121.50</dd>');
    expect(statementRows(res.text).map((cells) => cells.slice(1))).toEqual([
      ['WALLET_CREDIT  Main wallet funded', '1000.00', '1000.00', `opening-${ours.mid}`],
      ['PAYOUT  Payout accepted: its amount taken from the main wallet', '-101.00', '899.00', ourIds[0]],
      ['PAYOUT  Payout accepted: its amount taken from the main wallet', '-20.50', '878.50', ourIds[1]],
    ]);
    expect(hrefs(res.text)).toContain(`/dashboard/payouts/${ourIds[0]}`);
    expect(res.text).not.toContain(theirId);
    expect(res.text).not.toContain(theirs.mid);
  });

  it('pages by the statement’s cursor: the "Later entries" link holds the rest', async () => {
    const first = await page('/dashboard/wallet?limit=2');
    expect(statementRows(first.text)).toHaveLength(2);
    const later = hrefs(first.text).find((href) => href.includes('cursor='));
    expect(later).toMatch(/^\/dashboard\/wallet\?limit=2&cursor=[A-Za-z0-9_-]+$/);

    const second = await page(later!);

    expect(second.status).toBe(200);
    expect(statementRows(second.text).map((cells) => cells[4])).toEqual([ourIds[1]]);
    expect(hrefs(second.text).some((href) => href.includes('cursor='))).toBe(false);
  });

  it('refuses a period the statement endpoint refuses, with its reason', async () => {
    const res = await page('/dashboard/wallet?from=2026-12-05&to=2026-12-01');
    expect(res.status).toBe(422);
    expect(res.text).toContain('to must be later than from');
  });
});

describe('GET /dashboard/wallet/statement.csv', () => {
  it('is byte for byte GET /api/statement?format=csv for the same period, for a finance user', async () => {
    const istDay = (offsetDays: number) =>
      new Date(Date.now() + offsetDays * 86_400_000 + 5.5 * 3_600_000).toISOString().slice(0, 10);
    const period = `from=${istDay(-1)}&to=${istDay(1)}`;
    const fromApi = await call(api.current, `/api/statement?${period}&format=csv`, { merchant: ours });
    expect(fromApi.status).toBe(200);

    const res = await page(`/dashboard/wallet/statement.csv?${period}`, finance);

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(fromApi.headers.get('content-type'));
    expect(res.headers.get('content-disposition')).toBe(fromApi.headers.get('content-disposition'));
    expect(res.text).toBe(fromApi.text);
    expect(res.text).toContain(ourIds[1]);
    expect(res.text).not.toContain(theirId);
  });

  it('refuses a viewer, whose role lacks statements, with 403', async () => {
    const res = await page('/dashboard/wallet/statement.csv', viewer);
    expect(res.status).toBe(403);
    expect(res.text).not.toContain(ourIds[0]);
  });
});
