import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet, listOperatorActions, transitionPayout, type PrismaClient } from '@payout/db';
import { createHttpRailAdapter } from '@payout/rails';
import { call, impsBody } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { addConsoleUser, type ConsoleRoleName } from '../support/console.js';
import { freshSecondFactorCode } from '../support/people.js';
import { useStack } from '../support/stack.js';
import { consoleScreenshot, launchChromium } from '../support/browser.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';

// The support console in a real browser: Debian's chromium driven by playwright-core, against the API's
// admin listener started in-process with a worker and the rail simulator. Support signs in and finds a
// settled payout by each of the three keys; support cannot act; forms without the CSRF token are
// refused; an operator asks to resolve a payout under manual review, a second person (an approver)
// approves it, and only then does it settle, with the audit log showing both (docs/operations.md,
// "Approvals"); the CSV statement downloads. With UPDATE_CONSOLE_SCREENSHOTS=1 it also refreshes docs/console/*.png.

const stack = useStack();
let db: PrismaClient;
let browser: Browser | undefined;
let merchant: TestMerchant;
/** A payout the worker settled through the rail simulator. */
let settled: { transactionId: string; ackNo: string; utr: string };
const people = {
  support: { name: 'sana', password: '' },
  operator: { name: 'omar', password: '' },
  approver: { name: 'aditi', password: '' },
};
let supportPage: Page;
let operatorPage: Page;
let approverPage: Page;

const admin = (path: string) => `${stack.current.api.adminUrl}${path}`;

beforeAll(async () => {
  db = testPrisma();
  for (const [role, person] of Object.entries(people)) {
    person.password = (await addConsoleUser(person.name, role as ConsoleRoleName)).password;
  }
  merchant = await makeMerchant(db, { balance: '5000.00' });
  const body = impsBody({ Amount: '1234.50' });
  await call(stack.current.api, '/api/impspayout', { merchant, body });
  const row = await eventually(
    () =>
      db.payout.findFirstOrThrow({ where: { merchantId: merchant.merchant.id, transactionId: body.TransactionID } }),
    (p) => p.state === 'SUCCESS',
    { what: 'the payout settles' },
  );
  settled = { transactionId: row.transactionId, ackNo: row.ackNo, utr: row.bankReference! };
  browser = await launchChromium();
  // Support reads with JavaScript off: every page is rendered on the server and every form is plain HTML.
  supportPage = await signIn(people.support, { javaScriptEnabled: false });
  // One after another: the sign-in limits how many password hashes compute at once.
  operatorPage = await signIn(people.operator);
  approverPage = await signIn(people.approver);
});
afterAll(async () => {
  await browser?.close();
  await db.$disconnect();
});

async function signIn(
  person: { name: string; password: string },
  options: { javaScriptEnabled?: boolean } = {},
): Promise<Page> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 860 }, ...options });
  const page = await context.newPage();
  await page.goto(admin('/console'));
  expect(page.url()).toBe(admin('/console/login'));
  await page.getByLabel('Username').fill(person.name);
  await page.getByLabel('Password').fill(person.password);
  await page.getByLabel('Code from your authenticator app').fill(await freshSecondFactorCode(person.name));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(admin('/console'));
  return page;
}

async function search(page: Page, query: string): Promise<void> {
  await page.goto(admin('/console'));
  await page.getByLabel(/MID and TransactionID/).fill(query);
  await page.keyboard.press('Enter');
  await page.waitForURL(admin(`/console/payouts/${settled.ackNo}`));
}

async function screenshot(page: Page, name: string): Promise<void> {
  await consoleScreenshot(page, name);
}

/** The CSRF token of the page's forms, as a script on the console's own origin could read it. */
async function csrfOf(page: Page): Promise<string> {
  return page.locator('input[name="_csrf"]').first().inputValue();
}

describe('support console in a browser', () => {
  it('when support searches by MID and TransactionID, by Ack_no and by UTR, then each lands on the payout whose timeline shows its SUCCESS and UTR', async () => {
    await supportPage.goto(admin('/console'));
    await supportPage.getByLabel(/MID and TransactionID/).fill(`${merchant.mid} ${settled.transactionId}`);
    await screenshot(supportPage, 'search');
    for (const query of [`${merchant.mid} ${settled.transactionId}`, settled.ackNo, settled.utr]) {
      await search(supportPage, query);
      await expect(supportPage.title()).resolves.toBe(`Payout ${settled.ackNo} · Payout console`);
      const timeline = supportPage.getByRole('list').filter({ hasText: 'after accept' });
      await expect(timeline.textContent()).resolves.toMatch(/→ SUCCESS/);
      await expect(timeline.textContent()).resolves.toContain(settled.utr);
    }
    const summary = await supportPage.locator('.facts').textContent();
    expect(summary).toContain('₹ 1234.50');
    expect(summary).toContain('MP00 - Transaction successful');
    expect(summary).toMatch(/IST/);
    await expect(supportPage.getByRole('main').textContent()).resolves.toContain('PAYOUT_SETTLE PAID_OUT +1234.50');
    await screenshot(supportPage, 'payout');
    for (const landmark of ['banner', 'navigation', 'main', 'contentinfo'] as const) {
      await expect(supportPage.getByRole(landmark).count(), landmark).resolves.toBe(1);
    }
    // Keyboard: the first Tab reaches the skip link, which moves focus to the page's content.
    await supportPage.keyboard.press('Tab');
    await expect(supportPage.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');

    // Readable on a phone: nothing but the wide tables (which scroll inside their own region) is wider than the screen.
    await supportPage.setViewportSize({ width: 390, height: 844 });
    const overflow = await supportPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await supportPage.setViewportSize({ width: 1280, height: 860 });

    await supportPage.goto(admin('/console'));
    await supportPage.getByLabel(/MID and TransactionID/).fill('NOSUCHPAYOUT000');
    await supportPage.keyboard.press('Enter');
    await supportPage.waitForURL(admin('/console?q=NOSUCHPAYOUT000'));
    await expect(supportPage.getByText('No payout matches.').isVisible()).resolves.toBe(true);
  });

  it('when support opens a payout, then the actions are disabled with the reason, and going around the buttons is refused', async () => {
    await supportPage.goto(admin(`/console/payouts/${settled.ackNo}`));
    const replay = supportPage.getByRole('button', { name: 'Replay webhook…' });
    await expect(replay.isDisabled()).resolves.toBe(true);
    await expect(supportPage.getByText('Your role (support) may not do this.').count()).resolves.toBe(3);

    const direct = await supportPage.goto(admin(`/console/payouts/${settled.ackNo}/replay-webhook`));
    expect(direct?.status()).toBe(403);
    await supportPage.goto(admin(`/console/merchants/${merchant.mid}`));
    const posted = await supportPage.request.post(admin(`/console/merchants/${merchant.mid}/credit`), {
      form: { _csrf: await csrfOf(supportPage), amount: '10.00', reference: 'support-try', why: 'test' },
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(403);
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({ availablePaise: 376550n });
  });

  it('when a form is posted without the session CSRF token, then it is refused and nothing changes', async () => {
    await operatorPage.goto(admin(`/console/merchants/${merchant.mid}`));
    const form = { amount: '10.00', reference: 'csrf-try', why: 'test' };
    for (const csrf of [undefined, 'wrong-token', await csrfOf(supportPage)]) {
      const posted = await operatorPage.request.post(admin(`/console/merchants/${merchant.mid}/credit`), {
        form: csrf === undefined ? form : { ...form, _csrf: csrf },
        maxRedirects: 0,
      });
      expect(posted.status()).toBe(403);
      expect(await posted.text()).toContain('CSRF token is missing or wrong');
    }
    const signOut = await operatorPage.request.post(admin('/console/logout'), { form: {}, maxRedirects: 0 });
    expect(signOut.status()).toBe(403);
    const signIn = await operatorPage.request.post(admin('/console/login'), {
      form: { username: people.operator.name, password: people.operator.password },
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(403);
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({ availablePaise: 376550n });
    await operatorPage.goto(admin('/console'));
    expect(operatorPage.url()).toBe(admin('/console'));
  });

  it('when an operator asks to resolve a payout under manual review that the rail paid, then nothing moves until an approver approves it, and then it settles and the audit log shows who, when, what and why', async () => {
    const payout = await payoutAtTheRail(db, merchant, { mode: 'IMPS', amountPaise: 25000n });
    const rail = createHttpRailAdapter({
      baseUrl: stack.current.rail.url,
      connectTimeoutMs: 1_000,
      responseTimeoutMs: 2_000,
    });
    const paid = await rail.submit({
      reference: payout.ackNo,
      mode: 'IMPS',
      amountPaise: payout.amountPaise,
      account: '123456789012',
      ifsc: 'HDFC0001234',
      beneficiaryName: 'Asha Kumar',
    });
    await rail.close();
    expect(paid.outcome).toBe('SUCCESS');
    const utr = paid.outcome === 'SUCCESS' ? paid.bankReference : 'the rail did not pay';
    for (const state of ['AWAITING_RAIL', 'MANUAL_REVIEW'] as const) {
      await transitionPayout(db, payout.id, state, { nextCheckAt: null }, { reason: 'test', actor: 'test' });
    }
    const walletBefore = await findWallet(db, merchant.merchant.id);

    await operatorPage.goto(admin('/console/lists/manual-review'));
    await operatorPage.getByRole('link', { name: payout.ackNo }).click();
    await operatorPage.getByRole('button', { name: 'Resolve manual review…' }).click();
    await operatorPage.getByLabel('Success (paid)').check();
    await operatorPage.getByLabel('Why (written to the audit log)').fill('Bank ops confirmed the credit, ticket 9031');
    await operatorPage.getByRole('button', { name: 'Ask the rail, then request the resolution' }).click();
    await operatorPage.waitForURL(/\/console\/approvals\/\d+$/);
    const requestPath = new URL(operatorPage.url()).pathname;
    await expect(operatorPage.getByRole('main').textContent()).resolves.toContain('another approver decides it');
    await expect(operatorPage.getByRole('button', { name: 'Approve and run it' }).count()).resolves.toBe(0);

    // Asked, not done: the payout is still under manual review and the wallet has not moved.
    await expect(db.payout.findUniqueOrThrow({ where: { id: payout.id } })).resolves.toMatchObject({
      state: 'MANUAL_REVIEW',
      bankReference: null,
    });
    expect(await findWallet(db, merchant.merchant.id)).toEqual(walletBefore);
    await operatorPage.goto(admin(`/console/payouts/${payout.ackNo}`));
    const timelineBefore = await operatorPage.locator('ol.timeline').textContent();
    expect(timelineBefore).toContain('AWAITING_RAIL → MANUAL_REVIEW');
    expect(timelineBefore).not.toContain('→ SUCCESS');
    expect(timelineBefore).toContain('approval.request by console:omar');

    await approverPage.goto(admin(requestPath));
    await expect(approverPage.locator('.explain').textContent()).resolves.toContain(
      `Resolve payout ${payout.ackNo} (250.00 to Asha Kumar) as success (UTR ${utr})`,
    );
    await approverPage.locator('#note-approve').fill('Checked the bank statement');
    await approverPage.locator('#approve-code').fill(await freshSecondFactorCode(people.approver.name));
    await approverPage.getByRole('button', { name: 'Approve and run it' }).click();
    await approverPage.waitForURL(admin(requestPath));
    const decided = await approverPage.locator('.facts').first().textContent();
    expect(decided).toContain('aditi');
    expect(decided).toContain('Checked the bank statement');
    await expect(approverPage.locator('.explain').textContent()).resolves.toContain('EXECUTED');

    await operatorPage.goto(admin(`/console/payouts/${payout.ackNo}`));
    const summary = await operatorPage.locator('.facts').textContent();
    expect(summary).toContain('MP00 - Transaction successful');
    expect(summary).toContain(utr);
    const timeline = await operatorPage.locator('ol.timeline').textContent();
    expect(timeline).toContain('MANUAL_REVIEW → SUCCESS');
    expect(timeline).toContain('requested by omar, approved by aditi');
    expect(timeline).toContain('payout.resolve by console:aditi');
    await expect(db.payout.findUniqueOrThrow({ where: { id: payout.id } })).resolves.toMatchObject({
      state: 'SUCCESS',
      bankReference: utr,
    });
    // A success takes nothing more from the wallet: the amount left the available balance when it was reserved.
    expect((await findWallet(db, merchant.merchant.id))?.availablePaise).toBe(walletBefore?.availablePaise);

    await operatorPage.goto(admin('/console/audit'));
    const rows = operatorPage.getByRole('row').filter({ hasText: payout.ackNo });
    const entry = (action: string) =>
      rows.filter({ has: operatorPage.getByRole('cell', { name: action, exact: true }) }).textContent();
    const resolved = await entry('payout.resolve');
    expect(resolved).toContain('console:aditi');
    expect(resolved).toContain('Bank ops confirmed the credit, ticket 9031');
    expect(resolved).toMatch(/IST/);
    await expect(entry('approval.request')).resolves.toContain('console:omar');
    await expect(entry('approval.approve')).resolves.toContain('console:aditi');
    const actions = await listOperatorActions(db, { payoutId: payout.id, limit: 10 });
    expect(actions.map((a) => [a.action, a.actor])).toEqual([
      ['approval.approve', 'console:aditi'],
      ['payout.resolve', 'console:aditi'],
      ['approval.request', 'console:omar'],
    ]);
    expect(actions[1]?.detail).toMatchObject({ requestedBy: 'omar', approvedBy: 'aditi', resolvedAs: 'SUCCESS' });

    await operatorPage.goto(admin(`/console/merchants/${merchant.mid}`));
    await screenshot(operatorPage, 'merchant');
  });

  it('when the merchant page is opened, then its token shows when it was last used, and the CSV statement downloads with the payouts of the range', async () => {
    await eventually(
      () => db.merchantToken.findFirstOrThrow({ where: { merchantId: merchant.merchant.id } }),
      (t) => t.lastUsedAt !== null,
      { what: 'the token use is recorded' },
    );
    await supportPage.goto(admin(`/console/merchants/${merchant.mid}`));
    const tokenRow = supportPage.getByRole('region', { name: 'API tokens' }).getByRole('row').nth(1);
    await expect(tokenRow.textContent()).resolves.toMatch(/pgt_\S*….*IST.*IST/);
    await expect(tokenRow.textContent()).resolves.not.toContain('never');
    const [download] = await Promise.all([
      supportPage.waitForEvent('download'),
      supportPage.getByRole('button', { name: 'Download CSV statement' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${merchant.mid}-payouts-\\d{4}-\\d{2}-\\d{2}-to-`));
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Ack_no,TransactionID,Mode,Amount,Status,Bankriff,FailureReason,BeneficiaryName,Account,Ifsc,AcceptedAt,SettledAt',
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${settled.ackNo},${settled.transactionId},IMPS,1234.50,SUCCESS,${settled.utr},`),
      ),
    );
  });
});
