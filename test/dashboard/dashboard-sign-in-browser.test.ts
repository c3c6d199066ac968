import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '@payout/domain';
import { useApi } from '../support/api.js';
import { dashboardScreenshot, launchChromium } from '../support/browser.js';
import { testPrisma } from '../support/database.js';
import { addDashboardUser, freshDashboardCode, type DashboardPerson } from '../support/dashboard-people.js';
import { makeMerchant } from '../support/factories.js';

// The dashboard's people in a real browser (Debian's chromium driven by playwright-core), against the merchant
// API started in-process (docs/dashboard.md, "Enrollment" and "The team"): a newcomer, on a phone-sized
// browser with JavaScript off, opens their own enrollment and reads its fingerprint to an admin; the admin
// adds them with it on the team page; the newcomer sets up their authenticator and password, signs out, and
// signs in again with their password and a TOTP code.

const api = useApi();
const db = testPrisma();
let browser: Browser | undefined;
let admin: DashboardPerson;
let adminPage: Page;
let newcomerPage: Page;

const at = (path: string) => `${api.current.url}${path}`;

beforeAll(async () => {
  const { merchant } = await makeMerchant(db);
  admin = await addDashboardUser(db, merchant.id, 'ADMIN');
  browser = await launchChromium();
  adminPage = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  // A phone, with JavaScript off: every page is rendered on the server and every form is plain HTML.
  newcomerPage = await (
    await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false })
  ).newPage();
});
afterAll(async () => {
  await browser?.close();
  await db.$disconnect();
});

async function signIn(page: Page, person: { email: string; password: string }, code: string): Promise<void> {
  await page.goto(at('/dashboard/team'));
  expect(page.url()).toBe(at('/dashboard/login'));
  await page.getByLabel('E-mail').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByLabel('Code from your authenticator app').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(at('/dashboard'));
}

describe('the dashboard in a browser', () => {
  it('when a newcomer enrolls, is added by an admin with their fingerprint, and finishes with TOTP, then they sign in with TOTP, see the team and sign out', async () => {
    const email = `newcomer-${admin.merchantId}@browser.example`;
    const password = 'my-own-long-password';

    await newcomerPage.goto(at('/dashboard/enroll'));
    await newcomerPage.getByLabel('Your e-mail').fill(email);
    await newcomerPage.getByRole('button', { name: 'Start my enrollment' }).click();
    const fingerprint = (await newcomerPage.locator('.fingerprint').textContent())!.trim();
    expect(fingerprint).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    await dashboardScreenshot(newcomerPage, 'enroll-fingerprint', { fullPage: true });

    await signIn(adminPage, admin, await freshDashboardCode(db, admin));
    await adminPage.goto(at('/dashboard/team'));
    await adminPage.getByLabel('E-mail').fill(email);
    await adminPage.getByLabel('Role', { exact: true }).selectOption('FINANCE');
    await adminPage.getByLabel('The fingerprint they read to you').fill(fingerprint);
    await adminPage.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => adminPage.getByRole('status').textContent()).toContain('Added');
    expect(await adminPage.locator('table').textContent()).toContain(email);
    await dashboardScreenshot(adminPage, 'team', { fullPage: true });

    // Only the newcomer's browser, holding the enrollment's secret, is shown the key for their authenticator.
    await newcomerPage.goto(at('/dashboard/enroll'));
    const seed = (await newcomerPage.locator('code.secret').textContent())!.replace(/ /g, '');
    expect(await adminPage.content()).not.toContain(seed);
    await newcomerPage.getByLabel('Your password (at least 12 characters)').fill(password);
    await newcomerPage.getByLabel('Your password again').fill(password);
    await newcomerPage.getByLabel('The code your authenticator app shows now').fill(totpCode(seed, new Date()));
    await newcomerPage.getByRole('button', { name: 'Finish' }).click();
    await expect.poll(() => newcomerPage.getByRole('heading', { level: 1 }).textContent()).toBe('You are enrolled');
    expect(await newcomerPage.locator('.codes li').count()).toBe(10);

    await newcomerPage.goto(at('/dashboard/team'));
    await newcomerPage.getByRole('button', { name: 'Sign out' }).click();
    await newcomerPage.waitForURL(at('/dashboard/login'));

    // The code of the next 30-second step: the one used to finish cannot be used again.
    await signIn(newcomerPage, { email, password }, totpCode(seed, new Date(Date.now() + 30_000)));
    await newcomerPage.goto(at('/dashboard/team'));
    // On a phone: nothing of the page runs off the screen's right edge (the table scrolls within its box),
    // and the keyboard's first stop is the skip link.
    const parts = await newcomerPage.locator('main h1, main form, main .table-wrap, header form').all();
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) {
      const box = (await part.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await newcomerPage.keyboard.press('Tab');
    expect(await newcomerPage.locator(':focus').textContent()).toBe('Skip to content');
    const team = await newcomerPage.locator('table').textContent();
    expect(team).toContain(admin.email);
    expect(team).toContain(email);
    // A finance person reads the team but may not change it.
    expect(await newcomerPage.getByRole('button', { name: 'Add', exact: true }).count()).toBe(0);
    await newcomerPage.getByRole('button', { name: 'Sign out' }).click();
    await newcomerPage.waitForURL(at('/dashboard/login'));
    await newcomerPage.goto(at('/dashboard/team'));
    expect(newcomerPage.url()).toBe(at('/dashboard/login'));
  });
});
