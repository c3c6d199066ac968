import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { findWallet, type PrismaClient } from '@payout/db';
import { call, impsBody, newTransactionId, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { dashboardBrowser, hiddenField, textOf, type DashboardBrowser } from './access-support.js';

// A merchant's bulk file on its dashboard (docs/dashboard.md, "Bulk upload"): previewed with nothing stored,
// then sent once through the merchant API's bulk use case (docs/api.md, "Bulk payouts") under a BatchID
// made from the preview, so posting the same Submit form again answers the same batch.

const api = useApi();
let db: PrismaClient;
let merchant: TestMerchant;
let finance: DashboardBrowser;

const HEADER = 'Mode,TransactionID,Amount,Account,Ifsc,Upi,Name';

beforeAll(async () => {
  db = testPrisma();
  merchant = await makeMerchant(db, { balance: '10000.00' });
  finance = await dashboardBrowser(db, api.current.url, merchant.merchant.id, 'FINANCE');
});
afterAll(async () => {
  await db.$disconnect();
});

async function worldOf(m: TestMerchant) {
  const wallet = await findWallet(db, m.merchant.id);
  return {
    payouts: await db.payout.count({ where: { merchantId: m.merchant.id } }),
    batches: await db.bulkBatch.count({ where: { merchantId: m.merchant.id } }),
    available: wallet?.availablePaise,
    reserved: wallet?.reservedPaise,
  };
}

describe('a finance user bulk upload', () => {
  it('previews with nothing stored, then sends exactly one batch however often the Submit form is posted', async () => {
    // A beneficiary paid before, through the API, and one never paid.
    const paidBefore = impsBody({ Account: '111122223333', Ifsc: 'HDFC0001234', Amount: '10.00' });
    expect((await call(api.current, '/api/impspayout', { merchant, body: paidBefore })).status).toBe(202);
    const [first, second, third] = [newTransactionId(), newTransactionId(), newTransactionId()];
    const csv = [
      HEADER,
      `IMPS,${first},101.50,111122223333,HDFC0001234,,Asha Kumar`,
      `UPI,${second},250.00,,,ravi.s@okaxis,Ravi S`,
      `IMPS,${third},not-money,222233334444,HDFC0001234,,Bad Amount`,
      `IMPS,${paidBefore.TransactionID},5.00,111122223333,HDFC0001234,,Used Already`,
    ].join('\n');
    const before = await worldOf(merchant);

    const preview = await finance.postMultipart('/dashboard/bulk', {}, { name: 'salaries.csv', text: csv });
    expect(preview.status, preview.html).toBe(200);
    const text = textOf(preview.html);
    expect(text).toContain('Payouts to send 2');
    expect(text).toContain('Total ₹ 351.50');
    expect(text).toContain('Beneficiaries you have never paid 1');
    expect(text).toContain('Lines refused 2');
    expect(text).toMatch(/4 Amount/);
    expect(text).toContain(`5 TransactionID ${paidBefore.TransactionID} is used already`);
    expect(await worldOf(merchant)).toEqual(before);

    const items = hiddenField(preview.html, 'items');
    const digest = hiddenField(preview.html, 'digest');
    const sent = await finance.post('/dashboard/bulk/submit', { items, digest });
    expect(sent.status, sent.html).toBe(303);
    const batchId = /\/dashboard\/bulk\/batches\/([0-9]+)$/.exec(sent.location ?? '')?.[1];
    expect(batchId).toBeDefined();
    const after = await worldOf(merchant);
    expect(after.batches).toBe(before.batches + 1);
    expect(after.payouts).toBe(before.payouts + 2);
    expect(after.reserved! - before.reserved!).toBe(35_150n);
    expect(before.available! - after.available!).toBe(35_150n);
    const batch = await db.bulkBatch.findUniqueOrThrow({
      where: { merchantId_batchId: { merchantId: merchant.merchant.id, batchId: batchId! } },
      include: { items: { include: { payout: true }, orderBy: { itemIndex: 'asc' } } },
    });
    expect(batch.items.map((i) => [i.payout?.transactionId, i.payout?.amountPaise, i.payout?.mode])).toEqual([
      [first, 10_150n, 'IMPS'],
      [second, 25_000n, 'UPI'],
    ]);

    // A double click, or the back button and Submit again: the same batch, nothing more reserved.
    const again = await finance.post('/dashboard/bulk/submit', { items, digest });
    expect(again.status).toBe(303);
    expect(again.location).toBe(sent.location);
    // The same file uploaded again: its batch, not a second preview.
    const reuploaded = await finance.postMultipart('/dashboard/bulk', {
      csv: [HEADER, csv.split('\n')[1], csv.split('\n')[2]].join('\n'),
    });
    expect(reuploaded.status).toBe(303);
    expect(reuploaded.location).toBe(sent.location);
    expect(await worldOf(merchant)).toEqual(after);

    const page = await finance.get(sent.location!);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`href="/dashboard?BatchID=${batchId}"`);
    expect(textOf(page.html)).toContain('2 payouts, ₹ 351.50');
  });

  it('takes a file larger than the dashboard forms, 16 kB, through preview and Submit', async () => {
    const m = await makeMerchant(db, { balance: '100000.00' });
    const person = await dashboardBrowser(db, api.current.url, m.merchant.id, 'OWNER');
    const lines = Array.from(
      { length: 400 },
      (_, i) => `IMPS,${newTransactionId()},1.00,${String(700000000000 + i)},HDFC0001234,,Beneficiary Number ${i}`,
    );
    const csv = [HEADER, ...lines].join('\n');
    expect(csv.length).toBeGreaterThan(16 * 1024);
    const preview = await person.postMultipart('/dashboard/bulk', {}, { name: 'large.csv', text: csv });
    expect(preview.status, preview.html.slice(0, 500)).toBe(200);
    expect(textOf(preview.html)).toContain('Payouts to send 400');
    const sent = await person.post('/dashboard/bulk/submit', {
      items: hiddenField(preview.html, 'items'),
      digest: hiddenField(preview.html, 'digest'),
    });
    expect(sent.status, sent.html.slice(0, 500)).toBe(303);
    expect(await worldOf(m)).toMatchObject({ payouts: 400, batches: 1, reserved: 40_000n });
  });

  it('refuses a Submit form whose items are not what was previewed', async () => {
    const csv = `${HEADER}\nIMPS,${newTransactionId()},20.00,333344445555,HDFC0001234,,Asha Kumar`;
    const preview = await finance.postMultipart('/dashboard/bulk', { csv });
    const items = hiddenField(preview.html, 'items').replace('20.00', '2000.00');
    const before = await worldOf(merchant);
    const sent = await finance.post('/dashboard/bulk/submit', { items, digest: hiddenField(preview.html, 'digest') });
    expect(sent.status).toBe(422);
    expect(await worldOf(merchant)).toEqual(before);
  });

  it('refuses a file that cannot be read as a whole, naming why', async () => {
    const res = await finance.postMultipart('/dashboard/bulk', { csv: 'Mode,Nonsense\nIMPS,1' });
    expect(res.status).toBe(422);
    expect(textOf(res.html)).toContain('unknown column Nonsense');
  });
});

describe('who may send a batch', () => {
  it('refuses a viewer and an admin, and a post without the CSRF token, with nothing stored', async () => {
    const csv = `${HEADER}\nIMPS,${newTransactionId()},30.00,444455556666,HDFC0001234,,Asha Kumar`;
    const preview = await finance.postMultipart('/dashboard/bulk', { csv });
    const form = { items: hiddenField(preview.html, 'items'), digest: hiddenField(preview.html, 'digest') };
    const before = await worldOf(merchant);
    for (const role of ['VIEWER', 'ADMIN'] as const) {
      const person = await dashboardBrowser(db, api.current.url, merchant.merchant.id, role);
      expect((await person.get('/dashboard/bulk')).status).toBe(403);
      expect((await person.postMultipart('/dashboard/bulk', { csv })).status).toBe(403);
      expect((await person.post('/dashboard/bulk/submit', form)).status).toBe(403);
    }
    expect((await finance.post('/dashboard/bulk/submit', form, { csrf: false })).status).toBe(403);
    const withoutToken = new FormData();
    withoutToken.set('csv', csv);
    const multipart = await fetch(`${api.current.url}/dashboard/bulk`, {
      method: 'POST',
      body: withoutToken,
      headers: { Cookie: finance.cookie },
    });
    expect(multipart.status).toBe(403);
    expect(await worldOf(merchant)).toEqual(before);
  });

  it("never shows one merchant's batch to another merchant's user", async () => {
    const csv = `${HEADER}\nUPI,${newTransactionId()},40.00,,,asha.kumar@okhdfc,Asha Kumar`;
    const preview = await finance.postMultipart('/dashboard/bulk', { csv });
    const sent = await finance.post('/dashboard/bulk/submit', {
      items: hiddenField(preview.html, 'items'),
      digest: hiddenField(preview.html, 'digest'),
    });
    expect(sent.status).toBe(303);
    const other = await makeMerchant(db, { balance: '100.00' });
    const stranger = await dashboardBrowser(db, api.current.url, other.merchant.id, 'OWNER');
    expect((await stranger.get(sent.location!)).status).toBe(404);
  });
});
