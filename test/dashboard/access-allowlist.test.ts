import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { call, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { dashboardBrowser, textOf } from './access-support.js';

// A merchant's IP allow-list on its dashboard (docs/dashboard.md, "IP allow-list"; docs/api.md, "IP
// allow-list"): its admin changes it directly, audited; the merchant API goes by it at once on this process;
// a finance user and another merchant's people change nothing.

const api = useApi();
let db: PrismaClient;

const WALLET = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';

beforeAll(() => {
  db = testPrisma();
});
afterAll(async () => {
  await db.$disconnect();
});

const listOf = async (m: TestMerchant) =>
  (await db.merchant.findUniqueOrThrow({ where: { id: m.merchant.id } })).ipAllowlist;
const auditOf = (m: TestMerchant) =>
  db.merchantAuditEvent.findMany({ where: { merchantId: m.merchant.id }, orderBy: { id: 'asc' } });

describe('an admin', () => {
  it('sets the list, which the merchant API then goes by, with one audit entry naming them', async () => {
    const merchant = await makeMerchant(db, { balance: '1.00' });
    const admin = await dashboardBrowser(db, api.current.url, merchant.merchant.id, 'ADMIN');
    const set = await admin.post('/dashboard/allowlist', { cidrs: '203.0.113.0/24\n2001:db8::1' });
    expect(set.status, set.html).toBe(303);
    expect(await listOf(merchant)).toEqual(['203.0.113.0/24', '2001:db8::1/128']);
    // The test's requests come from 127.0.0.1, which the list leaves out.
    expect((await call(api.current, WALLET, { merchant })).status).toBe(401);
    const audit = await auditOf(merchant);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'allowlist.set',
      actor: `merchant-user:${admin.person.id} ${admin.person.email}`,
      detail: { before: [], after: ['203.0.113.0/24', '2001:db8::1/128'] },
    });
    expect(textOf((await admin.get('/dashboard/allowlist')).html)).toContain('203.0.113.0/24');

    // Mended from the dashboard, which does not go by the list.
    expect((await admin.post('/dashboard/allowlist', { cidrs: '127.0.0.1' })).status).toBe(303);
    expect((await call(api.current, WALLET, { merchant })).status).toBe(200);
    // The same list again changes nothing and audits nothing.
    expect((await admin.post('/dashboard/allowlist', { cidrs: '127.0.0.1/32' })).status).toBe(303);
    expect(await auditOf(merchant)).toHaveLength(2);
  });

  it('refuses a list that is not one, saying why, with nothing changed', async () => {
    const merchant = await makeMerchant(db);
    const admin = await dashboardBrowser(db, api.current.url, merchant.merchant.id, 'OWNER');
    const res = await admin.post('/dashboard/allowlist', { cidrs: '10.0.0.0/33\nnot-an-address' });
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain('the prefix length must be 0 to 32');
    expect(await listOf(merchant)).toEqual([]);
    expect(await auditOf(merchant)).toHaveLength(0);
  });
});

describe('who may change the list', () => {
  it('lets a finance user read it and change nothing', async () => {
    const merchant = await makeMerchant(db);
    const finance = await dashboardBrowser(db, api.current.url, merchant.merchant.id, 'FINANCE');
    const page = await finance.get('/dashboard/allowlist');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('name="cidrs"');
    expect((await finance.post('/dashboard/allowlist', { cidrs: '198.51.100.0/24' })).status).toBe(403);
    expect(await listOf(merchant)).toEqual([]);
    expect(await auditOf(merchant)).toHaveLength(0);
  });

  it("changes only the signed-in user's own merchant and shows only its list", async () => {
    const merchant = await makeMerchant(db);
    const admin = await dashboardBrowser(db, api.current.url, merchant.merchant.id, 'ADMIN');
    await admin.post('/dashboard/allowlist', { cidrs: '198.51.100.7' });
    const other = await makeMerchant(db);
    const stranger = await dashboardBrowser(db, api.current.url, other.merchant.id, 'ADMIN');
    expect((await stranger.get('/dashboard/allowlist')).html).not.toContain('198.51.100.7');
    await stranger.post('/dashboard/allowlist', { cidrs: '192.0.2.0/24' });
    expect(await listOf(merchant)).toEqual(['198.51.100.7/32']);
    expect(await auditOf(merchant)).toHaveLength(1);
  });
});
