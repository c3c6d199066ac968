import { expect } from 'vitest';
import type { PrismaClient } from '@payout/db';
import type { MerchantUserRole } from '@payout/domain';
import { addDashboardUser, dashboardSessionOf, type DashboardPerson } from '../support/dashboard-people.js';

/** A merchant user signed in to the dashboard, reading pages and posting forms as a browser without JavaScript. */
export interface DashboardBrowser {
  person: DashboardPerson;
  /** The Cookie header of the session. */
  cookie: string;
  csrfToken: string;
  get(path: string): Promise<DashboardAnswer>;
  /** Posts a form with the session's CSRF token (unless `csrf: false`), not following a redirect. */
  post(path: string, fields: Record<string, string>, options?: { csrf?: boolean }): Promise<DashboardAnswer>;
  /** Posts a multipart form (a file input's form) with the session's CSRF token. */
  postMultipart(
    path: string,
    fields: Record<string, string>,
    file?: { name: string; text: string },
  ): Promise<DashboardAnswer>;
}

export interface DashboardAnswer {
  status: number;
  location: string | null;
  html: string;
}

/** Adds a user of `role` to the merchant and signs them in. */
export async function dashboardBrowser(
  db: PrismaClient,
  url: string,
  merchantId: number,
  role: MerchantUserRole,
): Promise<DashboardBrowser> {
  const person = await addDashboardUser(db, merchantId, role);
  const { cookie, csrfToken } = await dashboardSessionOf(db, person);
  const send = async (path: string, init: RequestInit = {}): Promise<DashboardAnswer> => {
    const res = await fetch(url + path, {
      ...init,
      redirect: 'manual',
      headers: { Cookie: cookie, ...(init.headers as Record<string, string> | undefined) },
    });
    return { status: res.status, location: res.headers.get('location'), html: await res.text() };
  };
  return {
    person,
    cookie,
    csrfToken,
    get: (path) => send(path),
    post: (path, fields, options = {}) =>
      send(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...(options.csrf !== false && { _csrf: csrfToken }), ...fields }).toString(),
      }),
    postMultipart: (path, fields, file) => {
      const form = new FormData();
      form.set('_csrf', csrfToken);
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      if (file) form.set('file', new Blob([file.text], { type: 'text/csv' }), file.name);
      return send(path, { method: 'POST', body: form });
    },
  };
}

/** The value of a hidden input in a page, as a browser would post it back. */
export function hiddenField(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  expect(match, `no hidden field ${name}`).not.toBeNull();
  return unescapeHtml(match![1]!);
}

export function unescapeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** The page's text without its tags, for asserting what a person reads. */
export function textOf(html: string): string {
  return unescapeHtml(html.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
}
