import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { call, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { dashboardBrowser, textOf, type DashboardBrowser } from './access-support.js';

// A merchant's API tokens on its dashboard (docs/dashboard.md, "API tokens"; docs/api.md, "Token rotation"):
// an admin rotates (the token shown once, working at once, audited by its prefix only) and revokes (refused
// by the API at once on this process), never the last token; a finance user changes nothing; another
// merchant's people neither see nor touch these tokens.

const api = useApi();
let db: PrismaClient;
let merchant: TestMerchant;
let admin: DashboardBrowser;

const WALLET = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';

beforeAll(async () => {
  db = testPrisma();
  merchant = await makeMerchant(db, { balance: '100.00' });
  admin = await dashboardBrowser(db, api.current.url, merchant.merchant.id, 'ADMIN');
});
afterAll(async () => {
  await db.$disconnect();
});

const auditOf = (m: TestMerchant) =>
  db.merchantAuditEvent.findMany({ where: { merchantId: m.merchant.id }, orderBy: { id: 'asc' } });

describe('an admin', () => {
  it('rotates: the token is shown once, works on the merchant API, and is audited by its prefix only', async () => {
    const rotated = await admin.post('/dashboard/tokens/rotate', {});
    expect(rotated.status, rotated.html).toBe(200);
    const token = /<div class="secret" role="status">.*?<code>([^<]+)<\/code>/s.exec(rotated.html)?.[1];
    expect(token).toBeDefined();
    const wallet = await call(api.current, WALLET, { merchant: { mid: merchant.mid, token: token! } });
    expect(wallet.status).toBe(200);

    const audit = await auditOf(merchant);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'token.rotate',
      actor: `merchant-user:${admin.person.id} ${admin.person.email}`,
    });
    const stored = await db.merchantToken.findFirstOrThrow({
      where: { merchantId: merchant.merchant.id, revokedAt: null },
      orderBy: { id: 'desc' },
    });
    expect(audit[0]!.detail).toEqual({ tokenId: stored.id, prefix: stored.tokenPrefix });
    expect(token!.startsWith(stored.tokenPrefix)).toBe(true);
    const operatorLog = await db.operatorAction.findMany({ where: { merchantId: merchant.merchant.id } });
    expect(
      JSON.stringify([audit, operatorLog, stored], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
    ).not.toContain(token!);

    // After a reload, only prefixes.
    const page = await admin.get('/dashboard/tokens');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain(token!);
    expect(page.html).toContain(stored.tokenPrefix);
  });

  it('revokes a token, which the merchant API then refuses, but never the last one', async () => {
    expect((await call(api.current, WALLET, { merchant })).status).toBe(200);
    const original = await db.merchantToken.findFirstOrThrow({
      where: { merchantId: merchant.merchant.id, revokedAt: null },
      orderBy: { id: 'asc' },
    });
    const before = (await auditOf(merchant)).length;
    const revoked = await admin.post('/dashboard/tokens/revoke', { token: String(original.id) });
    expect(revoked.status, revoked.html).toBe(303);
    expect((await call(api.current, WALLET, { merchant })).status).toBe(401);
    const audit = (await auditOf(merchant)).slice(before);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'token.revoke',
      actor: `merchant-user:${admin.person.id} ${admin.person.email}`,
      detail: { tokenId: original.id, prefix: original.tokenPrefix },
    });

    const last = await db.merchantToken.findFirstOrThrow({
      where: { merchantId: merchant.merchant.id, revokedAt: null },
    });
    const refused = await admin.post('/dashboard/tokens/revoke', { token: String(last.id) });
    expect(refused.status).toBe(409);
    expect(textOf(refused.html)).toContain('only active token');
    expect(await db.merchantToken.count({ where: { merchantId: merchant.merchant.id, revokedAt: null } })).toBe(1);
    expect(await auditOf(merchant)).toHaveLength(before + 1);
  });
});

describe('who may change tokens', () => {
  it('lets a finance user read the tokens and change nothing', async () => {
    const m = await makeMerchant(db);
    const finance = await dashboardBrowser(db, api.current.url, m.merchant.id, 'FINANCE');
    const page = await finance.get('/dashboard/tokens');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('/dashboard/tokens/rotate');
    expect((await finance.post('/dashboard/tokens/rotate', {})).status).toBe(403);
    const token = await db.merchantToken.findFirstOrThrow({ where: { merchantId: m.merchant.id } });
    expect((await finance.post('/dashboard/tokens/revoke', { token: String(token.id) })).status).toBe(403);
    expect(await db.merchantToken.count({ where: { merchantId: m.merchant.id } })).toBe(1);
    expect(await auditOf(m)).toHaveLength(0);
  });

  it("never shows or changes another merchant's tokens", async () => {
    const m = await makeMerchant(db, { balance: '1.00' });
    const mine = await db.merchantToken.findFirstOrThrow({ where: { merchantId: m.merchant.id } });
    const other = await makeMerchant(db);
    const stranger = await dashboardBrowser(db, api.current.url, other.merchant.id, 'OWNER');
    // Give the stranger's merchant a second token, so a revoke is refused only for being another's.
    await stranger.post('/dashboard/tokens/rotate', {});
    const page = await stranger.get('/dashboard/tokens');
    expect(page.html).not.toContain(mine.tokenPrefix);
    const refused = await stranger.post('/dashboard/tokens/revoke', { token: String(mine.id) });
    expect(refused.status).toBe(404);
    expect((await db.merchantToken.findUniqueOrThrow({ where: { id: mine.id } })).revokedAt).toBeNull();
    expect(await auditOf(m)).toHaveLength(0);
    expect((await call(api.current, WALLET, { merchant: m })).status).toBe(200);
  });
});
