import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { useApi } from '../support/api.js';
import { dashboardScreenshot, launchChromium } from '../support/browser.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { payOut, signedIn, type SignedIn } from './pages-support.js';

// The dashboard's read pages in a real browser (Debian's chromium driven by playwright-core): a finance user
// walks payouts → a payout → wallet → downtimes by the keyboard alone; each page fits a phone's width; and
// the payouts page lists and filters with JavaScript off, its form being plain HTML.

const db: PrismaClient = testPrisma();
const api = useApi();
let browser: Browser | undefined;
let merchant: TestMerchant;
let person: SignedIn;
let impsId: string;
let upiId: string;

beforeAll(async () => {
  merchant = await makeMerchant(db, { balance: '500.00' });
  impsId = await payOut(api.current, merchant, 'IMPS', { Amount: '12.34' });
  upiId = await payOut(api.current, merchant, 'UPI', { Amount: '5.00' });
  person = await signedIn(db, merchant, 'FINANCE');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await db.$disconnect();
});

const at = (path: string) => `${api.current.url}${path}`;

/** A browser signed in as the finance user: the session's cookie as the sign-in would have set it. */
async function signedInContext(options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 860 }, ...options });
  const [name, value] = person.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: api.current.url, httpOnly: true, sameSite: 'Strict' }]);
  return context;
}

/** Presses Tab until the link to `path` has focus (at most 80 times), then Enter, and waits for the page. */
async function followByKeyboard(page: Page, path: string): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('href') ?? null);
    if (focused === path) {
      await Promise.all([page.waitForURL(at(path)), page.keyboard.press('Enter')]);
      return;
    }
  }
  throw new Error(`no link to ${path} is reachable by Tab on ${page.url()}`);
}

/** How far the page is wider than a phone's screen; 0 or less when it fits. */
async function overflowOnPhone(page: Page): Promise<number> {
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.body.scrollWidth - window.innerWidth);
  await page.setViewportSize({ width: 1280, height: 860 });
  return overflow;
}

describe('the dashboard’s read pages in a browser', () => {
  it('walks payouts → a payout → wallet → downtimes by keyboard, each page fitting a phone', async () => {
    const context = await signedInContext();
    const page = await context.newPage();
    await page.goto(at('/dashboard'));
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payouts');
    await dashboardScreenshot(page, 'payouts', { fullPage: true });
    expect(await overflowOnPhone(page)).toBeLessThanOrEqual(0);

    await page.goto(at('/dashboard'));
    await followByKeyboard(page, `/dashboard/payouts/${impsId}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`Payout ${impsId}`);
    await expect(page.locator('.facts').textContent()).resolves.toContain('₹ 12.34 by IMPS');
    await expect(page.getByRole('button', { name: 'Cancel this payout' }).count()).resolves.toBe(1);
    await dashboardScreenshot(page, 'payout', { fullPage: true });
    expect(await overflowOnPhone(page)).toBeLessThanOrEqual(0);

    await followByKeyboard(page, '/dashboard/wallet');
    await expect(page.locator('.facts').textContent()).resolves.toContain('₹ 482.66');
    await dashboardScreenshot(page, 'wallet', { fullPage: true });
    expect(await overflowOnPhone(page)).toBeLessThanOrEqual(0);

    await followByKeyboard(page, '/dashboard/downtimes');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Downtimes');
    expect(await overflowOnPhone(page)).toBeLessThanOrEqual(0);
    await context.close();
  });

  it('lists and filters the payouts with JavaScript off', async () => {
    const context = await signedInContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(at('/dashboard'));
    const listed = () => page.locator('tbody a').allTextContents();
    expect(await listed()).toEqual([upiId, impsId]);

    await page.getByLabel('Mode').selectOption('UPI');
    await Promise.all([page.waitForURL(/mode=UPI/), page.getByRole('button', { name: 'List' }).click()]);

    expect(await listed()).toEqual([upiId]);
    await expect(page.getByLabel('Mode').inputValue()).resolves.toBe('UPI');
    await context.close();
  });
});
