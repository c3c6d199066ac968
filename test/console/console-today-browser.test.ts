import type { Browser } from 'playwright-core';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrismaClient } from '@payout/db';
import { addConsoleUser } from '../support/console.js';
import { freshSecondFactorCode } from '../support/people.js';
import { testPool, testPrisma } from '../support/database.js';
import { useStack } from '../support/stack.js';
import { consoleScreenshot, launchChromium } from '../support/browser.js';
import { aDayOfPayouts } from './day-fixtures.js';

// The day page in a real browser with JavaScript off (docs/operations.md, "The day at a glance"): Debian's
// chromium driven by playwright-core against the API's admin listener. The charts are SVG images with
// their titles, drawn by the server, so the page needs no script. With UPDATE_CONSOLE_SCREENSHOTS=1 it
// also refreshes docs/console/today.png.

// The deliveries are moved by hand (day-fixtures.ts): this file's worker does not sweep.
const stack = useStack({ worker: { SWEEP_INTERVAL_MS: '600000' } });
let db: PrismaClient;
let pool: pg.Pool;
let browser: Browser | undefined;
let password: string;

const admin = (path: string) => `${stack.current.api.adminUrl}${path}`;

beforeAll(async () => {
  db = testPrisma();
  pool = testPool();
  await aDayOfPayouts(db, pool);
  password = (await addConsoleUser('sahil', 'support')).password;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await pool.end();
  await db.$disconnect();
});

describe('the day page in a browser', () => {
  it('when JavaScript is off, then support signs in and sees the charts with their titles and tables', async () => {
    const context = await browser!.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10_000);
    try {
      const page = await context.newPage();
      await page.goto(admin('/console/login'));
      await page.getByLabel('Username').fill('sahil');
      await page.getByLabel('Password').fill(password);
      await page.getByLabel('Code from your authenticator app').fill(await freshSecondFactorCode('sahil'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(admin('/console'));

      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Today' }).click();
      await page.waitForURL(admin('/console/today'));
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Today');
      const charts = page.locator('svg[role="img"]');
      expect(await charts.count()).toBe(3);
      expect(await charts.locator('title').allTextContents()).toEqual([
        'IMPS: accepted and settled per 10 min',
        'UPI: accepted and settled per 10 min',
        'Pending payouts by time since acceptance',
      ]);
      // The SVG is laid out in the page, and found by its accessible name (its title).
      const upi = page.getByRole('img', { name: 'UPI: accepted and settled per 10 min' });
      expect((await upi.boundingBox())?.width).toBeGreaterThan(400);
      expect(await page.getByRole('table', { name: 'Settled payouts by mode' }).textContent()).toContain('85.7 %');

      await consoleScreenshot(page, 'today', { fullPage: true });
    } finally {
      await context.close();
    }
  });
});
