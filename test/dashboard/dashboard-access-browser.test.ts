import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet, type PrismaClient } from '@payout/db';
import { newTransactionId, useApi } from '../support/api.js';
import { dashboardScreenshot, launchChromium } from '../support/browser.js';
import { addDashboardUser, dashboardSessionOf } from '../support/dashboard-people.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';

// A finance user's bulk upload on the merchant dashboard (docs/dashboard.md, "Bulk upload"), driven in
// Debian's chromium on a phone-sized screen: a CSV file chosen in the file input, the preview, then Submit
// from the keyboard, which sends the batch once and shows it.

const api = useApi();
let db: PrismaClient;
let browser: Browser | undefined;

beforeAll(async () => {
  db = testPrisma();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await db.$disconnect();
});

describe('a finance user in a browser', () => {
  it('uploads a file, reads the preview and submits the batch from the keyboard', async () => {
    const merchant = await makeMerchant(db, { balance: '5000.00' });
    const finance = await addDashboardUser(db, merchant.merchant.id, 'FINANCE');
    const { cookie } = await dashboardSessionOf(db, finance);
    const context = await browser!.newContext({ viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(10_000);
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: api.current.url }]);
    const page = await context.newPage();

    await page.goto(`${api.current.url}/dashboard/bulk`);
    await page.getByRole('heading', { name: 'Bulk upload', exact: true }).waitFor();
    const ids = [newTransactionId(), newTransactionId(), newTransactionId()];
    const csv = [
      'Mode,TransactionID,Amount,Account,Ifsc,Upi,Name',
      `IMPS,${ids[0]},120.00,555566667777,HDFC0001234,,Meera Das`,
      `UPI,${ids[1]},80.25,,,meera.das@okicici,Meera Das`,
      `IMPS,${ids[2]},12.5.0,555566667777,HDFC0001234,,Broken Amount`,
    ].join('\n');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'payouts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Preview' }).click();

    await page.getByRole('heading', { name: 'Bulk upload: preview' }).waitFor();
    const facts = await page.locator('dl.facts').innerText();
    expect(facts).toMatch(/Payouts to send\s+2/);
    expect(facts).toMatch(/Total\s+₹ 200\.25/);
    expect(facts).toMatch(/Beneficiaries you have never paid\s+2/);
    expect(facts).toMatch(/Lines refused\s+1/);
    expect(await page.getByRole('table', { name: 'Lines that will not be sent' }).innerText()).toContain('4');
    // Fits the phone: only the tables' own boxes scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await db.bulkBatch.count({ where: { merchantId: merchant.merchant.id } })).toBe(0);
    await dashboardScreenshot(page, 'bulk-preview-phone', { fullPage: true });

    await page.getByRole('button', { name: /^Submit 2 payouts/ }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/bulk\/batches\/[0-9]+$/);
    expect(await page.getByRole('status').innerText()).toContain('The batch is sent: 2 payouts, ₹ 200.25');
    const batchId = page.url().split('/').pop()!;
    expect(await page.getByRole('link', { name: "The batch's payouts" }).getAttribute('href')).toBe(
      `/dashboard?BatchID=${batchId}`,
    );

    // The same file chosen and previewed again: the batch it became, nothing more. (The preview itself is
    // never cached, so the back button asks before posting again; a re-posted Submit is access-bulk.test.ts's.)
    await page.goto(`${api.current.url}/dashboard/bulk`);
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'payouts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL(`${api.current.url}/dashboard/bulk/batches/${batchId}`);
    const batches = await db.bulkBatch.findMany({ where: { merchantId: merchant.merchant.id } });
    expect(batches.map((b) => [b.batchId, b.total])).toEqual([[batchId, 2]]);
    const payouts = await db.payout.findMany({ where: { merchantId: merchant.merchant.id }, orderBy: { id: 'asc' } });
    expect(payouts.map((p) => [p.transactionId, p.amountPaise])).toEqual([
      [ids[0], 12_000n],
      [ids[1], 8_025n],
    ]);
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({
      availablePaise: 500_000n - 20_025n,
      reservedPaise: 20_025n,
    });
    await context.close();
  });
});
