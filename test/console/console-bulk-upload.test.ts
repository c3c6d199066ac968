import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet, listOperatorActions, type PrismaClient } from '@payout/db';
import { call, impsBody } from '../support/api.js';
import { consoleScreenshot, launchChromium } from '../support/browser.js';
import { addConsoleUser, signedInPerson, type ConsolePerson } from '../support/console.js';
import { freshSecondFactorCode } from '../support/people.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { useStack } from '../support/stack.js';

// An operator's bulk CSV upload on the console is money leaving a merchant's wallet on a person's word
// (docs/console/bulk-upload.md; docs/operations.md, "Bulk payouts from a file"): it becomes a request whose
// page shows the approver every beneficiary, and nothing is reserved or queued until a second person
// approves it. The approval re-checks the TransactionIDs and the balance, and refuses with nothing changed
// when either moved. Driven in Debian's chromium (the operator and the approver each in a browser of their
// own), and, for the refusals, as a browser without JavaScript posts the forms.

const stack = useStack();
let db: PrismaClient;
let browser: Browser | undefined;
const people = {
  operator: { name: `bulk-operator-${process.pid}`, role: 'operator' },
  approver: { name: `bulk-approver-${process.pid}`, role: 'approver' },
} as const;
const passwords: Record<string, string> = {};
let operator: ConsolePerson;
let approver: ConsolePerson;
let support: ConsolePerson;

const admin = (path: string) => `${stack.current.api.adminUrl}${path}`;

beforeAll(async () => {
  db = testPrisma();
  for (const person of Object.values(people))
    passwords[person.name] = (await addConsoleUser(person.name, person.role)).password;
  operator = await signedInPerson(stack.current.api.adminUrl, 'operator');
  approver = await signedInPerson(stack.current.api.adminUrl, 'approver');
  support = await signedInPerson(stack.current.api.adminUrl, 'support');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await db.$disconnect();
});

async function signIn(person: { name: string }): Promise<Page> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(admin('/console/login'));
  await page.getByLabel('Username').fill(person.name);
  await page.getByLabel('Password').fill(passwords[person.name]!);
  await page.getByLabel('Code from your authenticator app').fill(await freshSecondFactorCode(person.name));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(admin('/console'));
  return page;
}

const HEADER = 'Mode,TransactionID,Amount,Account,Ifsc,Upi,Name';
let sequence = 0;
const uniqueId = () => `${Date.now()}${process.pid % 1000}${++sequence}`.slice(0, 30);

/**
 * What a bulk request must not have touched before its approval, and must have touched exactly after it: the
 * merchant's payouts and batches, and its available balance (which a payout's settlement leaves as it is).
 */
async function worldOf(merchant: TestMerchant) {
  return {
    payouts: await db.payout.count({ where: { merchantId: merchant.merchant.id } }),
    batches: await db.bulkBatch.count({ where: { merchantId: merchant.merchant.id } }),
    available: (await findWallet(db, merchant.merchant.id))?.availablePaise,
  };
}

/** Asks for a batch as the operator's browser without JavaScript posts the form: the request's id. */
async function asked(merchant: TestMerchant, csv: string, by = operator): Promise<string> {
  const res = await by.post(`/console/merchants/${merchant.mid}/bulk`, { csv, why: 'salaries file from the merchant' });
  expect(res.status, res.html).toBe(303);
  return /\/console\/approvals\/(\d+)$/.exec(res.location!)![1]!;
}

describe('console bulk upload', () => {
  it('when an operator uploads a file in the browser, then nothing is reserved or queued until an approver in another browser approves it, and then exactly its lines are paid', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    // Paid before through the merchant API: the approver sees this beneficiary as known.
    const earlier = await call(stack.current.api, '/api/impspayout', {
      merchant,
      body: impsBody({ Account: '123456789012', Ifsc: 'HDFC0001234', Amount: '10.00' }),
    });
    expect(earlier.status).toBe(202);
    const [a, b, c] = [uniqueId(), uniqueId(), uniqueId()];
    const csv = [
      HEADER,
      `IMPS,${a},100.00,123456789012,HDFC0001234,,Asha Kumar`,
      `UPI,${b},50.00,,,ravi.rao@okaxis,Ravi Rao`,
      `IMPS,${c},20.00,555566667777,ICIC0000001,,Meena Iyer`,
    ].join('\r\n');
    const before = await worldOf(merchant);

    const page = await signIn(people.operator);
    await page.goto(admin(`/console/merchants/${merchant.mid}`));
    await page.getByRole('button', { name: 'Request bulk payouts from CSV…' }).click();
    await page.waitForURL((url) => url.pathname === `/console/merchants/${merchant.mid}/bulk`);
    await page.getByLabel('CSV').fill(csv);
    await page.getByLabel('Why (written to the audit log)').fill('merchant mailed the March salaries file');
    await page.getByRole('button', { name: 'Request the batch' }).click();
    await page.waitForURL(/\/console\/approvals\/\d+$/);
    const id = /(\d+)$/.exec(page.url())![1]!;

    // The maker's page: what will happen, with each beneficiary marked, and no way to approve it.
    const shown = (await page.getByRole('main').textContent()) ?? '';
    expect(shown).toContain(`Bulk batch`);
    expect(shown).toContain('3 payouts, 170.00 from the main wallet; 2 beneficiaries new to');
    expect(shown).toContain('₹990.00 now, ₹820.00 after the batch');
    const lines = page.getByRole('table', { name: "The batch's lines, new beneficiaries first" });
    const rows = await lines.locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(3);
    // New beneficiaries first, then the one paid before.
    expect(rows[0]).toContain('ravi.rao@okaxis');
    expect(rows[0]).toContain('new');
    expect(rows[1]).toContain('555566667777 · ICIC0000001');
    expect(rows[2]).toContain('123456789012 · HDFC0001234');
    expect(rows[2]).toContain('paid before');
    await expect(page.getByRole('button', { name: 'Approve and run it' }).count()).resolves.toBe(0);
    await consoleScreenshot(page, 'bulk-request', { fullPage: true });
    expect(await worldOf(merchant)).toEqual(before);

    // The approver, in a browser of their own, approves it: it runs once.
    const second = await signIn(people.approver);
    await second.goto(admin(`/console/approvals/${id}`));
    await second.locator('#approve-code').fill(await freshSecondFactorCode(people.approver.name));
    await second.getByRole('button', { name: 'Approve and run it' }).click();
    await second.waitForURL(admin(`/console/approvals/${id}`));
    await expect(second.locator('.explain').textContent()).resolves.toContain('EXECUTED');

    const payouts = await db.payout.findMany({
      where: { merchantId: merchant.merchant.id, transactionId: { in: [a, b, c] } },
      orderBy: { id: 'asc' },
    });
    expect(payouts.map((p) => [p.transactionId, p.amountPaise])).toEqual([
      [a, 10_000n],
      [b, 5_000n],
      [c, 2_000n],
    ]);
    expect(await worldOf(merchant)).toMatchObject({ payouts: before.payouts + 3, batches: 1 });
    expect((await findWallet(db, merchant.merchant.id))!.availablePaise).toBe(before.available! - 17_000n);
    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 10 });
    const bulk = audit.find((entry) => entry.action === 'payout.bulk');
    expect(bulk).toMatchObject({ actor: `console:${people.approver.name}` });
    expect(bulk!.detail).toMatchObject({ requestedBy: people.operator.name, approvedBy: people.approver.name });
    // Queued once committed: the worker sends each to the rail, which pays them.
    await eventually(
      () => db.payout.findMany({ where: { id: { in: payouts.map((p) => p.id) } }, select: { status: true } }),
      (now) => now.every((p) => p.status === 'SUCCESS'),
      { what: 'the batch paid' },
    );
  });

  it('when an approver asks for a batch, then they cannot approve it themselves, and nothing is reserved', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const id = await asked(
      merchant,
      `${HEADER}\nIMPS,${uniqueId()},100.00,123456789012,HDFC0001234,,Asha Kumar`,
      approver,
    );
    const before = await worldOf(merchant);

    const own = await approver.post(`/console/approvals/${id}/approve`, { note: 'my own' });

    expect(own.status).toBe(403);
    expect(own.html).toContain('a second person must approve it');
    expect(await worldOf(merchant)).toEqual(before);
    expect(await db.approvalRequest.findUniqueOrThrow({ where: { id: BigInt(id) } })).toMatchObject({
      state: 'REQUESTED',
    });
  });

  it('when one of its TransactionIDs is used meanwhile, then the approval is refused and nothing changes', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const [a, b] = [uniqueId(), uniqueId()];
    const id = await asked(
      merchant,
      [HEADER, `IMPS,${a},100.00,123456789012,HDFC0001234,,Asha Kumar`, `UPI,${b},5.00,,,ravi@okaxis,Ravi`].join('\n'),
    );
    // The merchant itself pays under one of the batch's TransactionIDs before anyone approves.
    const own = await call(stack.current.api, '/api/impspayout', { merchant, body: impsBody({ TransactionID: b }) });
    expect(own.status).toBe(202);
    const before = await worldOf(merchant);

    const refused = await approver.post(`/console/approvals/${id}/approve`, { note: 'looks right' });

    expect(refused.status).toBe(409);
    expect(refused.html).toContain(`line 3: TransactionID ${b} was used meanwhile`);
    expect(await worldOf(merchant)).toEqual(before);
    expect(await db.payout.count({ where: { merchantId: merchant.merchant.id, transactionId: a } })).toBe(0);
    expect(await db.approvalRequest.findUniqueOrThrow({ where: { id: BigInt(id) } })).toMatchObject({
      state: 'FAILED',
    });
  });

  it('when the balance falls short meanwhile, then the approval is refused and nothing changes', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const id = await asked(
      merchant,
      [
        HEADER,
        `IMPS,${uniqueId()},500.00,123456789012,HDFC0001234,,Asha Kumar`,
        `IMPS,${uniqueId()},400.00,123456789013,HDFC0001234,,Ravi Rao`,
      ].join('\n'),
    );
    const drained = await call(stack.current.api, '/api/impspayout', {
      merchant,
      body: impsBody({ Amount: '200.00' }),
    });
    expect(drained.status).toBe(202);
    const before = await worldOf(merchant);

    const refused = await approver.post(`/console/approvals/${id}/approve`, { note: 'looks right' });

    expect(refused.status).toBe(409);
    expect(refused.html).toContain('the batch needs 900.00 and the main wallet of');
    expect(refused.html).toContain('has 800.00 available');
    expect(await worldOf(merchant)).toEqual(before);
  });

  it('when a line is malformed, then the whole file is refused with its line numbers and nothing is asked for', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const base = uniqueId();
    const csv = [
      HEADER,
      `IMPS,${base}1,100.00,123456789012,HDFC0001234,,Asha Kumar`,
      `IMPS,${base}2,1.234,123456789012,HDFC0001234,,Asha Kumar`,
      `UPI,${base}1,5.00,,,asha.kumar@okhdfc,Asha Kumar`,
    ].join('\n');
    const requests = await db.approvalRequest.count();

    const refused = await operator.post(`/console/merchants/${merchant.mid}/bulk`, { csv, why: 'salaries' });

    expect(refused.status).toBe(422);
    expect(refused.html).toContain('file refused, nothing was reserved');
    expect(refused.html).toMatch(/line 3: [^\n<]*Amount/);
    expect(refused.html).toContain(`line 4: TransactionID ${base}1 is already on line 2`);
    expect(await db.approvalRequest.count()).toBe(requests);
    expect(await worldOf(merchant)).toEqual({ payouts: 0, batches: 0, available: 100_000n });

    const badHeader = await operator.post(`/console/merchants/${merchant.mid}/bulk`, {
      csv: 'Mode,TransactionID,Amount,Colour\nIMPS,1,1.00,red',
      why: 'x',
    });
    expect(badHeader.status).toBe(422);
    expect(badHeader.html).toContain('line 1: unknown column Colour');
  });

  it('when a support user or a post without the CSRF token tries it, then nothing is asked for', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const csv = `${HEADER}\nIMPS,${uniqueId()},1.00,123456789012,HDFC0001234,,Asha Kumar`;
    const requests = await db.approvalRequest.count();
    expect((await support.page(`/console/merchants/${merchant.mid}/bulk`)).status).toBe(403);
    expect((await support.post(`/console/merchants/${merchant.mid}/bulk`, { csv, why: 'x' })).status).toBe(403);
    const forged = await fetch(admin(`/console/merchants/${merchant.mid}/bulk`), {
      method: 'POST',
      headers: { Cookie: operator.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csv, why: 'forged' }).toString(),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect(await db.approvalRequest.count()).toBe(requests);
    expect(await worldOf(merchant)).toMatchObject({ payouts: 0, batches: 0 });
  });
});
