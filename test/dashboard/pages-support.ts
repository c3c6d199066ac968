import { expect } from 'vitest';
import type { MerchantUserRole } from '@payout/domain';
import type { PrismaClient } from '@payout/db';
import { call, impsBody, upiBody } from '../support/api.js';
import { addDashboardUser, dashboardSessionOf } from '../support/dashboard-people.js';
import type { TestMerchant } from '../support/factories.js';

// What the dashboard page tests share: a signed-in person's requests, and payouts made through the merchant API.

export interface SignedIn {
  cookie: string;
  csrfToken: string;
}

/** A merchant user of `role` for `merchant`, signed in. */
export async function signedIn(db: PrismaClient, merchant: TestMerchant, role: MerchantUserRole): Promise<SignedIn> {
  return dashboardSessionOf(db, await addDashboardUser(db, merchant.merchant.id, role));
}

export interface PageAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** A GET of a dashboard path as `person`'s browser sends it, redirects not followed. */
export async function getPage(url: string, path: string, person: SignedIn): Promise<PageAnswer> {
  const res = await fetch(url + path, { headers: { Cookie: person.cookie }, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** A form post to a dashboard path as `person`'s browser sends it, with the session's CSRF token. */
export async function postForm(
  url: string,
  path: string,
  person: SignedIn,
  fields: Record<string, string> = {},
): Promise<PageAnswer> {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { Cookie: person.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: person.csrfToken, ...fields }).toString(),
    redirect: 'manual',
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Accepts a payout through the merchant API and returns its TransactionID. */
export async function payOut(
  api: { url: string },
  merchant: TestMerchant,
  mode: 'IMPS' | 'UPI',
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const body = mode === 'IMPS' ? impsBody(overrides) : upiBody(overrides);
  const res = await call(api, mode === 'IMPS' ? '/api/impspayout' : '/api/payout', { merchant, body });
  expect([200, 202, 400], res.text).toContain(res.status);
  return body.TransactionID;
}

/** The links' targets of an HTML page, entities in them decoded. */
export function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
}

/** The TransactionIDs a payouts page links to, in page order. */
export function listedTransactionIds(html: string): string[] {
  return hrefs(html).flatMap((href) => /^\/dashboard\/payouts\/(\d+)$/.exec(href)?.[1] ?? []);
}
