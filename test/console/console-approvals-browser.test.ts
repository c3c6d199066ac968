import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet, transitionPayout, type PrismaClient } from '@payout/db';
import { addConsoleUser } from '../support/console.js';
import { freshSecondFactorCode } from '../support/people.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { useStack } from '../support/stack.js';
import { consoleScreenshot, launchChromium } from '../support/browser.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';

// Roles and four eyes in a real browser (docs/operations.md, "Roles" and "Approvals"): Debian's chromium
// driven by playwright-core against the API's admin listener. Support, who may only read, rewrites the
// disabled buttons' forms by hand to reach the operator actions under every spelling of their paths, and
// is refused each time, with nothing changed and the attempt in the audit log. An operator asks for a
// credit; only a second person, an approver in another browser, makes it happen, once. With
// UPDATE_CONSOLE_SCREENSHOTS=1 it also refreshes docs/console/approval.png.

const stack = useStack();
let db: PrismaClient;
let browser: Browser | undefined;
const people = {
  support: { name: 'sunita', role: 'support' },
  operator: { name: 'otto', role: 'operator' },
  approver: { name: 'asha', role: 'approver' },
} as const;
/** Each person's password, as `console user add` printed it once. */
const passwords: Record<string, string> = {};

const admin = (path: string) => `${stack.current.api.adminUrl}${path}`;

beforeAll(async () => {
  db = testPrisma();
  for (const person of Object.values(people))
    passwords[person.name] = (await addConsoleUser(person.name, person.role)).password;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await db.$disconnect();
});

/** A browser of its own for `person`, signed in through the sign-in form. One at a time: see test/support/console.ts. */
async function signIn(person: { name: string }): Promise<Page> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 860 } });
  // A step that never happens fails at that step, well inside the test's own timeout.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(admin('/console'));
  expect(page.url()).toBe(admin('/console/login'));
  await page.getByLabel('Username').fill(person.name);
  await page.getByLabel('Password').fill(passwords[person.name]!);
  await page.getByLabel('Code from your authenticator app').fill(await freshSecondFactorCode(person.name));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(admin('/console'));
  return page;
}

/** An operator action reached by hand from a page where support sees its button disabled. */
interface ByHand {
  /** The page whose disabled button's form is rewritten. */
  from: string;
  method: 'get' | 'post';
  /** The form's new action: the operator action's path, or a spelling of it. */
  path: string;
  fields?: Record<string, string>;
  /** 403 for the action's own path (the role is refused), 404 for any other spelling (no such action). */
  expected: 403 | 404;
}

/**
 * Does what someone with the browser's developer tools does: takes the page's first disabled action
 * button, enables it, points its form at `path` with `method` and the fields (and the real CSRF token
 * of the person signed in, read from the page's hidden field), clicks it, and waits for the page it
 * lands on.
 */
async function submitByHand(page: Page, attempt: ByHand): Promise<{ status: number; path: string; body: string }> {
  await page.goto(admin(attempt.from));
  const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
  expect(csrf).not.toBe('');
  await page.evaluate(
    ({ path, method, fields }: { path: string; method: string; fields: Record<string, string> }) => {
      const button = document.querySelector<HTMLButtonElement>('form button[disabled]');
      if (!button?.form) throw new Error('the page has no disabled action button');
      const form = button.form;
      form.setAttribute('action', path);
      form.setAttribute('method', method);
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      button.disabled = false;
      button.setAttribute('data-by-hand', '');
    },
    {
      path: attempt.path,
      method: attempt.method,
      fields: attempt.method === 'post' ? { _csrf: csrf, ...attempt.fields } : {},
    },
  );
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().isNavigationRequest() && r.request().method() === attempt.method.toUpperCase(),
    ),
    page.locator('button[data-by-hand]').click(),
  ]);
  await page.waitForURL(response.url());
  const landed = new URL(response.url());
  return { status: response.status(), path: landed.pathname, body: (await page.locator('body').textContent()) ?? '' };
}

describe('console roles and approvals in a browser', () => {
  it('when support rewrites the disabled buttons to post to the operator actions under any spelling of their paths, then each lands on a 403 or 404 page, nothing changes, and each attempt is in the audit log', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const payout = await payoutAtTheRail(db, merchant, { mode: 'IMPS', amountPaise: 10000n });
    for (const state of ['AWAITING_RAIL', 'MANUAL_REVIEW'] as const) {
      await transitionPayout(db, payout.id, state, { nextCheckAt: null }, { reason: 'test', actor: 'test' });
    }
    const m = `/console/merchants/${merchant.mid}`;
    const p = `/console/payouts/${payout.ackNo}`;
    const why = { why: 'trying it by hand' };
    const credit = { amount: '500000.00', reference: 'NEFT-BY-HAND', ...why };
    const bulk = { csv: 'TransactionID,Mode,Amount\n', batch_id: '', ...why };
    const resolve = { outcome: 'success', utr: '', ...why };
    const attempts: ByHand[] = [
      // The disabled buttons themselves, enabled: each opens its action's confirmation page.
      { from: m, method: 'get', path: `${m}/credit`, expected: 403 },
      { from: m, method: 'get', path: `${m}/tokens/rotate`, expected: 403 },
      { from: m, method: 'get', path: `${m}/bulk`, expected: 403 },
      { from: p, method: 'get', path: `${p}/resolve`, expected: 403 },
      { from: p, method: 'get', path: `${p}/replay-webhook`, expected: 403 },
      // The actions' own forms, posted with the signed-in person's CSRF token.
      { from: m, method: 'post', path: `${m}/credit`, fields: credit, expected: 403 },
      { from: m, method: 'post', path: `${m}/tokens/rotate`, fields: why, expected: 403 },
      { from: m, method: 'post', path: `${m}/bulk`, fields: bulk, expected: 403 },
      { from: p, method: 'post', path: `${p}/resolve`, fields: resolve, expected: 403 },
      { from: p, method: 'post', path: `${p}/replay-webhook`, fields: why, expected: 403 },
      // Other spellings of the same paths: none is another way in (docs/operations.md, "Roles").
      ...[
        `${m}/credit/`,
        `${m}/Credit`,
        `/Console/merchants/${merchant.mid}/credit`,
        `/console//merchants/${merchant.mid}/credit`,
        `${m}%2Fcredit`,
        `${m}/tokens/rotate/`,
        `${m}/tokens/Rotate`,
        `${m}/tokens%2Frotate`,
        `${m}/bulk/`,
        `${m}/Bulk`,
      ].map((path): ByHand => ({ from: m, method: 'post', path, fields: { ...credit, ...bulk }, expected: 404 })),
      ...[
        `${p}/resolve/`,
        `${p}/Resolve`,
        `/Console/payouts/${payout.ackNo}/resolve`,
        `/console/payouts//${payout.ackNo}/resolve`,
        `${p}%2Fresolve`,
        `${p}/replay-webhook/`,
        `${p}/Replay-Webhook`,
      ].map((path): ByHand => ({ from: p, method: 'post', path, fields: resolve, expected: 404 })),
    ];

    const world = async () => ({
      available: (await findWallet(db, merchant.merchant.id))?.availablePaise,
      tokens: await db.merchantToken.count({ where: { merchantId: merchant.merchant.id } }),
      requests: await db.approvalRequest.count(),
      payouts: await db.payout.count({ where: { merchantId: merchant.merchant.id } }),
      payout: (await db.payout.findUniqueOrThrow({ where: { id: payout.id } })).state,
      webhooks: await db.webhookDelivery.count({ where: { payoutId: payout.id } }),
    });
    const refusals = () =>
      db.operatorAction.findMany({
        where: { action: 'access.refused', actor: `console:${people.support.name}` },
        orderBy: { id: 'asc' },
        select: { detail: true },
      });
    const before = await world();
    expect(before).toMatchObject({ available: 90000n, tokens: 1, payouts: 1, payout: 'MANUAL_REVIEW' });

    const support = await signIn(people.support);
    for (const attempt of attempts) {
      const what = `${attempt.method.toUpperCase()} ${attempt.path}`;
      const earlier = (await refusals()).length;
      const landed = await submitByHand(support, attempt);
      expect(landed.status, what).toBe(attempt.expected);
      expect(landed.path, what).toBe(attempt.path);
      if (attempt.expected === 403) {
        await expect(support.title(), what).resolves.toBe('Not allowed · Payout console');
        expect(landed.body, what).toMatch(/support.*may not do this/);
        expect(landed.body, what).toContain('Nothing changed');
      } else {
        expect(landed.body, what).toMatch(/not found|no such console page/i);
      }
      const after = await refusals();
      expect(after.length, what).toBe(earlier + 1);
      expect(after.at(-1)?.detail, what).toMatchObject({
        method: attempt.method.toUpperCase(),
        path: expect.stringMatching(new RegExp(`^${attempt.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\??$`)),
        role: 'SUPPORT',
      });
      expect(await world(), what).toEqual(before);
    }
  });

  it('when an operator asks for a credit in the browser, then nothing moves until an approver in another browser approves it, and then the wallet is credited once', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const reference = `NEFT-${merchant.mid}`;
    const operator = await signIn(people.operator);
    await operator.goto(admin(`/console/merchants/${merchant.mid}`));
    await operator.getByRole('button', { name: 'Request a credit…' }).click();
    // The button is a GET form with no fields: the browser adds an empty query.
    await operator.waitForURL((url) => url.pathname === `/console/merchants/${merchant.mid}/credit`);
    await operator.getByLabel('Amount in rupees').fill('2500.00');
    await operator.getByLabel("Reference (the bank transfer's id)").fill(reference);
    await operator.getByLabel('Why (written to the audit log)').fill('NEFT received, bank statement line 42');
    await operator.getByRole('button', { name: 'Request the credit' }).click();
    await operator.waitForURL(/\/console\/approvals\/\d+$/);
    const path = new URL(operator.url()).pathname;
    const id = BigInt(path.split('/').pop()!);

    const asked = (await operator.getByRole('main').textContent()) ?? '';
    expect(asked).toContain(`Credit 2500.00 to the main wallet of ${merchant.mid} (reference ${reference})`);
    expect(asked).toMatch(/availableBefore\s*1000\.00/);
    expect(asked).toMatch(/availableAfter\s*3500\.00/);
    expect(asked).toContain('another approver decides it');
    await expect(operator.getByRole('button', { name: 'Approve and run it' }).count()).resolves.toBe(0);
    await expect(operator.getByRole('button', { name: 'Cancel the request' }).count()).resolves.toBe(1);
    // Asked, not done.
    expect((await findWallet(db, merchant.merchant.id))?.availablePaise).toBe(100000n);
    await expect(db.approvalRequest.findUniqueOrThrow({ where: { id } })).resolves.toMatchObject({
      action: 'wallet.credit',
      state: 'REQUESTED',
      maker: people.operator.name,
    });

    const approver = await signIn(people.approver);
    await approver.goto(admin('/console/approvals'));
    await approver
      .getByRole('table', { name: 'Open requests' })
      .getByRole('link', { name: `#${id}` })
      .click();
    await approver.waitForURL(admin(path));
    await expect(approver.locator('.explain').textContent()).resolves.toContain(
      `Credit 2500.00 to the main wallet of ${merchant.mid}`,
    );
    await expect(approver.getByRole('main').textContent()).resolves.toContain(people.operator.name);
    await expect(approver.getByRole('button', { name: 'Cancel the request' }).count()).resolves.toBe(0);
    await consoleScreenshot(approver, 'approval', { fullPage: true });
    await approver.locator('#note-approve').fill('Matched the bank statement');
    await approver.locator('#approve-code').fill(await freshSecondFactorCode(people.approver.name));
    await approver.getByRole('button', { name: 'Approve and run it' }).click();
    await approver.waitForURL(admin(path));

    await expect(approver.locator('.explain').textContent()).resolves.toContain('EXECUTED');
    const decided = (await approver.locator('.facts').first().textContent()) ?? '';
    expect(decided).toContain(`${people.approver.name},`);
    expect(decided).toContain('Matched the bank statement');
    await expect(approver.getByRole('button', { name: 'Approve and run it' }).count()).resolves.toBe(0);
    expect((await findWallet(db, merchant.merchant.id))?.availablePaise).toBe(350000n);

    // Approving it again, as a resubmitted form would, runs nothing.
    const again = await approver.request.post(admin(`${path}/approve`), {
      form: { _csrf: await approver.locator('input[name="_csrf"]').first().inputValue(), note: 'again' },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(403);
    expect((await findWallet(db, merchant.merchant.id))?.availablePaise).toBe(350000n);
    // Once: one pair of legs for the reference, funding to the main wallet.
    await expect(
      db.ledgerEntry.findMany({
        where: { merchantId: merchant.merchant.id, kind: 'WALLET_CREDIT', reference },
        select: { account: true, amountPaise: true },
        orderBy: { account: 'asc' },
      }),
    ).resolves.toEqual([
      { account: 'FUNDING', amountPaise: -250000n },
      { account: 'MAIN_WALLET', amountPaise: 250000n },
    ]);
    await expect(db.approvalRequest.findUniqueOrThrow({ where: { id } })).resolves.toMatchObject({
      state: 'EXECUTED',
      decidedBy: people.approver.name,
      decisionNote: 'Matched the bank statement',
    });

    await operator.reload();
    await expect(operator.locator('.explain').textContent()).resolves.toContain('EXECUTED');
    await expect(operator.getByRole('button', { name: 'Cancel the request' }).count()).resolves.toBe(0);
    await operator.goto(admin('/console/approvals'));
    await expect(
      operator
        .getByRole('table', { name: 'Recent requests' })
        .getByRole('link', { name: `#${id}` })
        .count(),
    ).resolves.toBe(1);
  });
});
