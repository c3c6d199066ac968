import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWebhookEndpoint, recordWebhookReplay, type PrismaClient } from '@payout/db';
import { useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { payoutAtTheRail, registerEndpoint, settle } from '../webhooks/webhook-fixtures.js';
import { dashboardBrowser, textOf, type DashboardBrowser } from './access-support.js';

// A merchant's webhook on its dashboard (docs/dashboard.md, "Webhook"; docs/webhooks.md): everyone reads the
// URL, its state and the deliveries, never the signing secret; an admin moves the URL (judged by the rule
// every registration is, audited) and sends a payout's result again as the console's replay does; a finance
// user and another merchant's people change nothing.

// As production runs it in this respect: a webhook may point only at a public address.
const api = useApi({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' });
let db: PrismaClient;
let merchant: TestMerchant;
let secret: string;
let transactionId: string;
let deliveryId: bigint;
let admin: DashboardBrowser;

beforeAll(async () => {
  db = testPrisma();
  merchant = await makeMerchant(db, { balance: '1000.00' });
  secret = await registerEndpoint(db, merchant, 'https://hooks.merchant.example/payouts');
  const payout = await payoutAtTheRail(db, merchant);
  await settle(db, payout, 'SUCCESS');
  transactionId = payout.transactionId;
  deliveryId = (await db.webhookDelivery.findFirstOrThrow({ where: { payoutId: payout.id } })).id;
  admin = await dashboardBrowser(db, api.current.url, merchant.merchant.id, 'ADMIN');
});
afterAll(async () => {
  await db.$disconnect();
});

const auditOf = (m: TestMerchant) =>
  db.merchantAuditEvent.findMany({ where: { merchantId: m.merchant.id }, orderBy: { id: 'asc' } });
const deliveriesOf = (m: TestMerchant) =>
  db.webhookDelivery.findMany({ where: { merchantId: m.merchant.id }, orderBy: { id: 'asc' } });

describe('the webhook page', () => {
  it('shows a viewer the URL, its state and the deliveries, with no secret and no buttons', async () => {
    const viewer = await dashboardBrowser(db, api.current.url, merchant.merchant.id, 'VIEWER');
    const page = await viewer.get('/dashboard/webhook');
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('https://hooks.merchant.example/payouts');
    expect(text).toContain('State Enabled');
    expect(text).toContain(`settlement ${transactionId} pending 0`);
    expect(page.html).not.toContain(secret);
    expect(page.html).not.toContain('Send again');
    expect(page.html).not.toContain('name="url"');
  });
});

describe('the deliveries', () => {
  it('come 25 to a page, newest first, with a link to the older ones', async () => {
    const m = await makeMerchant(db, { balance: '500.00' });
    await registerEndpoint(db, m, 'https://hooks.paged.example/');
    const payout = await payoutAtTheRail(db, m);
    await settle(db, payout, 'FAILED');
    for (let i = 0; i < 26; i += 1) await recordWebhookReplay(db, m.merchant.id, payout.transactionId, 'test');
    const viewer = await dashboardBrowser(db, api.current.url, m.merchant.id, 'VIEWER');
    const rowsOf = (html: string) => html.split('<tr>').length - 2;
    const first = await viewer.get('/dashboard/webhook');
    expect(rowsOf(first.html)).toBe(25);
    expect(textOf(first.html)).toMatch(/^.*Deliveries, newest first Event .*? replay /);
    const older = /href="(\/dashboard\/webhook\?before=[0-9]+)"/.exec(first.html)?.[1];
    expect(older).toBeDefined();
    const second = await viewer.get(older!);
    expect(rowsOf(second.html)).toBe(2);
    expect(textOf(second.html)).toContain('settlement');
    expect(second.html).not.toContain('Older deliveries');
  });
});

describe('an admin', () => {
  it("sends a payout's result again, as a fresh delivery the merchant's person asked for", async () => {
    const before = await deliveriesOf(merchant);
    const sent = await admin.post('/dashboard/webhook/deliveries/send-again', { delivery: String(deliveryId) });
    expect(sent.status, sent.html).toBe(303);
    const added = (await deliveriesOf(merchant)).slice(before.length);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ cause: 'REPLAY', requestedBy: `merchant-user:${admin.person.id}` });
    const logged = await db.operatorAction.findMany({
      where: { merchantId: merchant.merchant.id, action: 'webhook.replay' },
    });
    expect(logged.map((a) => a.actor)).toEqual([`merchant-user:${admin.person.id}`]);
  });

  it('moves the URL, audited once without the secret, and is refused a URL into a private network', async () => {
    const refused = await admin.post('/dashboard/webhook/url', { url: 'https://10.1.2.3/hooks' });
    expect(refused.status).toBe(422);
    expect(textOf(refused.html)).toContain('non-public address');
    // Plain http is refused outside development and tests, by the same rule (its own tests cover that part).
    const unsupported = await admin.post('/dashboard/webhook/url', { url: 'ftp://hooks.merchant.example/payouts' });
    expect(unsupported.status).toBe(422);
    expect(await auditOf(merchant)).toHaveLength(0);

    const moved = await admin.post('/dashboard/webhook/url', { url: 'https://hooks.merchant.invalid/v2' });
    expect(moved.status, moved.html).toBe(303);
    const endpoint = await findWebhookEndpoint(db, merchant.merchant.id);
    expect(endpoint).toMatchObject({ url: 'https://hooks.merchant.invalid/v2', disabledAt: null });
    const audit = await auditOf(merchant);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'webhook.url',
      actor: `merchant-user:${admin.person.id} ${admin.person.email}`,
      detail: { url: 'https://hooks.merchant.invalid/v2', secretPrefix: endpoint!.secretPrefix, created: false },
    });
    expect(JSON.stringify(audit[0]!.detail)).not.toContain(secret);
  });
});

describe('who may change the webhook', () => {
  it('refuses a finance user both changes, with nothing changed', async () => {
    const finance = await dashboardBrowser(db, api.current.url, merchant.merchant.id, 'FINANCE');
    const before = { deliveries: (await deliveriesOf(merchant)).length, audit: (await auditOf(merchant)).length };
    expect((await finance.post('/dashboard/webhook/url', { url: 'https://elsewhere.invalid/' })).status).toBe(403);
    expect(
      (await finance.post('/dashboard/webhook/deliveries/send-again', { delivery: String(deliveryId) })).status,
    ).toBe(403);
    expect({ deliveries: (await deliveriesOf(merchant)).length, audit: (await auditOf(merchant)).length }).toEqual(
      before,
    );
  });

  it("never shows or sends another merchant's deliveries", async () => {
    const other = await makeMerchant(db);
    const stranger = await dashboardBrowser(db, api.current.url, other.merchant.id, 'OWNER');
    const page = await stranger.get('/dashboard/webhook');
    expect(page.status).toBe(200);
    expect(page.html).not.toContain(transactionId);
    expect(page.html).not.toContain('hooks.merchant');
    const before = (await deliveriesOf(merchant)).length;
    const refused = await stranger.post('/dashboard/webhook/deliveries/send-again', { delivery: String(deliveryId) });
    expect(refused.status).toBe(404);
    expect(await deliveriesOf(merchant)).toHaveLength(before);
  });
});
