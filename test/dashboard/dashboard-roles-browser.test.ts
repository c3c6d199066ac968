import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { useApi } from '../support/api.js';
import { launchChromium } from '../support/browser.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { payOut, signedIn, type SignedIn } from './pages-support.js';

// Who may do what, as a person meets it in a real browser (docs/dashboard.md, "Roles"): a viewer walks every
// page of the navigation and is offered no change on any of them; a change forged from their own page (their
// own session and CSRF token) is refused and changes nothing; a page for those who pay is closed to them; and a
// person of another merchant finds none of this merchant's payouts. The route walk
// (dashboard-route-walk.test.ts) checks every route for every role over HTTP; this is what the browser shows.

const db: PrismaClient = testPrisma();
const api = useApi();
let browser: Browser | undefined;
let merchant: TestMerchant;
let transactionId: string;
let viewer: SignedIn;
let outsider: SignedIn;

const at = (path: string) => `${api.current.url}${path}`;

beforeAll(async () => {
  merchant = await makeMerchant(db, { balance: '500.00' });
  transactionId = await payOut(api.current, merchant, 'IMPS', { Amount: '25.00' });
  viewer = await signedIn(db, merchant, 'VIEWER');
  outsider = await signedIn(db, await makeMerchant(db, { balance: '500.00' }), 'OWNER');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await db.$disconnect();
});

async function browserOf(person: SignedIn): Promise<BrowserContext> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 860 } });
  const [name, value] = person.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: api.current.url, httpOnly: true, sameSite: 'Strict' }]);
  return context;
}

/** The paths of the navigation's links on `page`. */
async function navigation(page: Page): Promise<string[]> {
  return page.locator('nav a').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
}

describe('the dashboard’s roles in a browser', () => {
  it('when a viewer walks every page, then none offers a change, and a change forged from their page is refused', async () => {
    const context = await browserOf(viewer);
    const page = await context.newPage();
    await page.goto(at('/dashboard'));
    const pages = await navigation(page);
    // A viewer's navigation leaves out what they may not open; every other page is theirs to read.
    expect(pages).not.toContain('/dashboard/bulk');
    expect(pages).not.toContain('/dashboard/audit');
    expect(pages.length).toBeGreaterThanOrEqual(7);

    for (const path of [...pages, `/dashboard/payouts/${transactionId}`]) {
      const answer = await page.goto(at(path));
      expect(answer?.status(), path).toBe(200);
      // The only form that posts is the header's "Sign out".
      expect(await page.locator('main form[method="post" i]').count(), path).toBe(0);
      expect(await page.locator('main').innerText(), path).not.toContain('CSV');
    }

    // Their own session's CSRF token on a cancel they were not offered: refused, and the payout is still theirs
    // to see as it was.
    await page.goto(at(`/dashboard/payouts/${transactionId}`));
    const refused = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/cancel')),
      page.evaluate((action) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.action = action;
        const token = document.querySelector<HTMLInputElement>('header input[name="_csrf"]')!;
        form.append(token.cloneNode());
        document.body.append(form);
        form.submit();
      }, `/dashboard/payouts/${transactionId}/cancel`),
    ]).then(([response]) => response);
    expect(refused.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Not allowed');
    const payout = await db.payout.findFirstOrThrow({ where: { merchantId: merchant.merchant.id, transactionId } });
    expect(payout.status).not.toBe('FAILED');

    const bulk = await page.goto(at('/dashboard/bulk'));
    expect(bulk?.status()).toBe(403);
    await context.close();
  });

  it('when a person of another merchant looks for this merchant’s payout, then it is not found and not listed', async () => {
    const context = await browserOf(outsider);
    const page = await context.newPage();
    const answer = await page.goto(at(`/dashboard/payouts/${transactionId}`));
    expect(answer?.status()).toBe(404);
    await expect(page.locator('main').innerText()).resolves.not.toContain(transactionId);
    await page.goto(at('/dashboard'));
    await expect(page.locator('main').innerText()).resolves.not.toContain(transactionId);
    await expect(page.locator('header').innerText()).resolves.not.toContain(merchant.merchant.name);
    await context.close();
  });
});
