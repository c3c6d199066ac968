import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downtimesBody } from '@payout/contract';
import { listOpenBankDowntimes, type PrismaClient } from '@payout/db';
import { call, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { getPage, signedIn, type SignedIn } from './pages-support.js';

// The dashboard's downtimes page, GET /dashboard/downtimes (docs/api.md, "Downtimes", which it mirrors): the
// downtimes open now as GET /api/downtimes gives them, then those ended in the last 30 days, not older ones.

const db: PrismaClient = testPrisma();
const api = useApi();
let merchant: TestMerchant;
let viewer: SignedIn;

beforeAll(async () => {
  merchant = await makeMerchant(db, { balance: '10.00' });
  viewer = await signedIn(db, merchant, 'VIEWER');
  const day = 24 * 60 * 60 * 1000;
  await db.bankDowntime.createMany({
    data: [
      { bank: 'dash-open', mode: 'UPI', status: 'DOWN', since: new Date(Date.now() - 60_000) },
      {
        bank: 'dash-ended',
        mode: 'IMPS',
        status: 'DEGRADED',
        since: new Date(Date.now() - 3 * day),
        resolvedAt: new Date(Date.now() - 2 * day),
      },
      {
        bank: 'dash-long-ago',
        mode: 'IMPS',
        status: 'DOWN',
        since: new Date(Date.now() - 60 * day),
        resolvedAt: new Date(Date.now() - 59 * day),
      },
    ],
  });
});
afterAll(async () => {
  await db.bankDowntime.deleteMany({ where: { bank: { startsWith: 'dash-' } } });
  await db.$disconnect();
});

describe('GET /dashboard/downtimes', () => {
  it('shows the open downtimes GET /api/downtimes lists, then the ones ended in the last 30 days', async () => {
    const fromApi = await call(api.current, '/api/downtimes', { merchant });
    expect(fromApi.json.downtimes).toEqual(downtimesBody(await listOpenBankDowntimes(db)).downtimes);

    const res = await getPage(api.current.url, '/dashboard/downtimes', viewer);

    expect(res.status).toBe(200);
    const [now, past] = res.text.split('<h2>Past 30 days</h2>');
    for (const d of fromApi.json.downtimes as { bank: string; mode: string; status: string }[]) {
      expect(now).toContain(`<td>${d.bank}</td><td>${d.mode}</td><td>${d.status}</td>`);
    }
    expect(now).toContain('<td>dash-open</td><td>UPI</td><td>DOWN</td>');
    expect(past).toContain('<td>dash-ended</td><td>IMPS</td><td>DEGRADED</td>');
    expect(res.text).not.toContain('dash-long-ago');
  });
});
