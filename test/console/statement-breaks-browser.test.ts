import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleSuccess, type PrismaClient } from '@payout/db';
import { reconcileStatement } from '@payout/use-cases';
import { useApi } from '../support/api.js';
import { consoleScreenshot, launchChromium } from '../support/browser.js';
import { addConsoleUser } from '../support/console.js';
import { freshSecondFactorCode } from '../support/people.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';

// The breaks page in a real browser with JavaScript off (docs/reconciliation.md, "The breaks page"): each
// bank line beside the payouts it may be, and an operator's "not ours" sent by the plain form. With
// UPDATE_CONSOLE_SCREENSHOTS=1 it also refreshes docs/console/statement-breaks.png.

const api = useApi();
let db: PrismaClient;
let browser: Browser | undefined;
const operator = { name: 'otto-breaks', password: '' };

const admin = (path: string) => `${api.current.adminUrl}${path}`;
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());

beforeAll(async () => {
  db = testPrisma();
  operator.password = (await addConsoleUser(operator.name, 'operator')).password;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await db.$disconnect();
});

describe('the statement breaks page in a browser', () => {
  it('when an operator without JavaScript reads the breaks and says one is not ours, then it leaves the open list', async () => {
    const merchant = await makeMerchant(db, { balance: '10000.00' });
    const inFlight = await payoutAtTheRail(db, merchant, { amountPaise: 250000n });
    const paid = await payoutAtTheRail(db, merchant, { amountPaise: 99900n });
    await settleSuccess(db, paid.id, 'UTRPAID77001', { reason: 'test: paid', actor: 'test' });
    await reconcileStatement(db, {
      lines: [
        {
          lineNumber: 2,
          reference: 'NEFT HDFC 4471',
          utr: 'UTRBANK00012',
          amountPaise: 250000n,
          type: 'DEBIT' as const,
        },
        { lineNumber: 3, reference: 'CHG OCT', utr: 'UTRBANK00013', amountPaise: 1180n, type: 'DEBIT' as const },
      ].map((l) => ({ ...l, valueDate: today })),
      valueDates: [today],
      fileDigest: 'e'.repeat(64),
      fileName: 'hdfc-statement.csv',
      actor: 'operator:otto-breaks',
      recordDiscrepancies: false,
      today,
    });

    const context = await browser!.newContext({ viewport: { width: 1440, height: 900 }, javaScriptEnabled: false });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(admin('/console/login'));
    await page.getByLabel('Username').fill(operator.name);
    await page.getByLabel('Password').fill(operator.password);
    await page.getByLabel('Code from your authenticator app').fill(await freshSecondFactorCode(operator.name));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(admin('/console'));

    await page.goto(admin('/console/lists/statement-breaks'));
    const suggested = page.locator('tr', { hasText: 'NEFT HDFC 4471' });
    await expect(suggested.getByRole('link', { name: inFlight.ackNo }).count()).resolves.toBe(1);
    await expect(suggested.getByRole('button', { name: `Match ${inFlight.ackNo}` }).count()).resolves.toBe(1);
    await expect(page.locator('tr', { hasText: paid.ackNo }).first().textContent()).resolves.toContain(
      'success_here_missing_at_bank',
    );
    await consoleScreenshot(page, 'statement-breaks', { fullPage: true });

    const charge = page.locator('tr', { hasText: 'CHG OCT' });
    await charge.getByLabel('Note (written to the audit log)').fill('A bank charge, not a payout');
    await charge.getByRole('button', { name: 'Not ours' }).click();
    await page.waitForURL(admin('/console/lists/statement-breaks'));
    await expect(page.locator('tr', { hasText: 'CHG OCT' }).count()).resolves.toBe(0);
    await expect(page.locator('tr', { hasText: 'NEFT HDFC 4471' }).count()).resolves.toBe(1);
    await context.close();
  });
});
