import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { totpCode } from '@payout/domain';
import { useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import {
  addDashboardUser,
  cookiesOf,
  csrfOf,
  freshDashboardCode,
  openDashboardEnrollment,
  postDashboardForm,
  signInToDashboard,
} from '../support/dashboard-people.js';
import { makeMerchant } from '../support/factories.js';

// Signing in to the merchant dashboard over plain HTTP (docs/dashboard.md, "Sessions"): e-mail, password and
// a code of the second factor for everyone, the session only as a digest in PostgreSQL, the console's limits,
// and the same answer whatever was wrong.

const api = useApi({ CONSOLE_SIGNIN_ATTEMPTS: '3' });
const db = testPrisma();
afterAll(() => db.$disconnect());

async function person(role: 'OWNER' | 'ADMIN' | 'VIEWER' = 'VIEWER') {
  const { merchant } = await makeMerchant(db);
  return addDashboardUser(db, merchant.id, role);
}

function sessionCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => /^(__Host-)?merchant_session=/.test(c));
  if (!cookie) throw new Error(`no session cookie (status ${response.status})`);
  return cookie;
}

/** Whether `cookie` opens a signed-in page: a signed-in person's sign-in page sends them on to the dashboard. */
async function signedIn(cookie: string): Promise<boolean> {
  const page = await fetch(`${api.current.url}/dashboard/login`, { headers: { Cookie: cookie }, redirect: 'manual' });
  return page.status === 303 && page.headers.get('location') === '/dashboard';
}

describe('dashboard sign-in', () => {
  it('when a person signs in with e-mail, password and their TOTP code, then the session cookie is HttpOnly and SameSite and only its digest is stored', async () => {
    const viewer = await person();
    const { response, cookie } = await signInToDashboard(api.current.url, {
      email: viewer.email.toUpperCase(),
      password: viewer.password,
      code: totpCode(viewer.seed, new Date()),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard');
    const set = sessionCookieOf(response);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Strict/);
    const id = /^merchant_session=([^;]+)/.exec(set)![1]!;
    const stored = await db.merchantUserSession.findMany({ where: { userId: viewer.id } });
    expect(stored.map((s) => s.idHash)).toEqual([createHash('sha256').update(id).digest('hex')]);
    expect(await signedIn(cookie)).toBe(true);
  });

  it('when the TOTP code is missing, wrong, or used already, then no session starts', async () => {
    const viewer = await person();
    const code = totpCode(viewer.seed, new Date());
    const missing = await signInToDashboard(api.current.url, { email: viewer.email, password: viewer.password });
    expect(missing.response.status).toBe(401);
    const wrong = await signInToDashboard(api.current.url, {
      email: viewer.email,
      password: viewer.password,
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.response.status).toBe(401);
    expect(await wrong.response.text()).toContain('That code is wrong or was used already');
    const first = await signInToDashboard(api.current.url, { email: viewer.email, password: viewer.password, code });
    expect(first.response.status).toBe(303);
    const again = await signInToDashboard(api.current.url, { email: viewer.email, password: viewer.password, code });
    expect(again.response.status).toBe(401);
    expect(await db.merchantUserSession.count({ where: { userId: viewer.id } })).toBe(1);
    const refused = await db.merchantAuditEvent.findMany({
      where: { merchantId: viewer.merchantId, action: 'sign-in.code-refused' },
    });
    expect(refused).toHaveLength(2);
  });

  it('when the e-mail is unknown, the password wrong, or the person disabled, then the answer is the same', async () => {
    const known = await person();
    const disabled = await person();
    await db.merchantUser.update({ where: { id: disabled.id }, data: { disabledAt: new Date(), disabledBy: 'test' } });
    const tries = [
      { email: 'nobody-here@unknown.example', password: known.password, code: '123456' },
      { email: known.email, password: 'not-the-password', code: '123456' },
      { email: disabled.email, password: disabled.password, code: await freshDashboardCode(db, disabled) },
    ];
    const errorOf = (html: string) => /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];
    const seen = [];
    // One after another: the password checks computing at once are capped (CONSOLE_SIGNIN_MAX_HASHING).
    for (const input of tries) {
      const { response } = await signInToDashboard(api.current.url, input);
      seen.push({ status: response.status, error: errorOf(await response.text()) });
    }
    expect(seen).toEqual(
      Array(3).fill({
        status: 401,
        error: 'Wrong e-mail or password, or the account is disabled or has not enrolled.',
      }),
    );
  });

  it('when an enrollment is opened for a person’s e-mail and for an unknown one, then both pages say the same', async () => {
    const known = await person();
    const pages = [];
    for (const email of [known.email, `unknown-${known.id}@nobody.example`]) {
      const opened = await openDashboardEnrollment(api.current.url, email);
      const page = await fetch(`${api.current.url}/dashboard/enroll`, { headers: { Cookie: opened.cookie } });
      pages.push({
        status: page.status,
        text: (await page.text()).replaceAll(email, 'E').replaceAll(opened.fingerprint, 'F'),
      });
    }
    expect(pages[0]!.status).toBe(200);
    // Only the expiry time, to the minute, may differ.
    const withoutTime = (text: string) => text.replace(/lasts until [^<]*\./, 'lasts until T.');
    expect(withoutTime(pages[1]!.text)).toBe(withoutTime(pages[0]!.text));
    expect(pages[1]!.status).toBe(pages[0]!.status);
  });

  it('when a password is guessed wrong too often, then even the right one is refused for a while with Retry-After', async () => {
    const viewer = await person();
    for (let i = 0; i < 3; i++) {
      const wrong = await signInToDashboard(api.current.url, { email: viewer.email, password: 'wrong-password-1' });
      expect(wrong.response.status).toBe(401);
    }
    const blocked = await signInToDashboard(api.current.url, {
      email: viewer.email,
      password: viewer.password,
      code: await freshDashboardCode(db, viewer),
    });
    expect(blocked.response.status).toBe(429);
    expect(Number(blocked.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await db.merchantUserSession.count({ where: { userId: viewer.id } })).toBe(0);
  });

  it('when a sign-in form is posted without its CSRF cookie and field, then it is refused', async () => {
    const viewer = await person();
    const response = await postDashboardForm(`${api.current.url}/dashboard/login`, '', {
      email: viewer.email,
      password: viewer.password,
      code: await freshDashboardCode(db, viewer),
    });
    expect(response.status).toBe(403);
    expect(await db.merchantUserSession.count({ where: { userId: viewer.id } })).toBe(0);
  });

  it('when a person signs out, then their session ends; without the CSRF token nothing happens', async () => {
    const viewer = await person();
    const { cookie } = await signInToDashboard(api.current.url, {
      email: viewer.email,
      password: viewer.password,
      code: await freshDashboardCode(db, viewer),
    });
    const forged = await postDashboardForm(`${api.current.url}/dashboard/logout`, cookie, {});
    expect(forged.status).toBe(403);
    expect(await signedIn(cookie)).toBe(true);

    const page = await fetch(`${api.current.url}/dashboard/missing-page`, { headers: { Cookie: cookie } });
    const out = await postDashboardForm(`${api.current.url}/dashboard/logout`, cookie, {
      _csrf: csrfOf(await page.text()),
    });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/dashboard/login');
    expect(cookiesOf(out, cookie)).not.toMatch(/merchant_session=/);
    expect(await db.merchantUserSession.count({ where: { userId: viewer.id } })).toBe(0);
    expect(await signedIn(cookie)).toBe(false);
  });

  it('when a signed-in person is disabled, then their session opens nothing more', async () => {
    const viewer = await person();
    const { cookie } = await signInToDashboard(api.current.url, {
      email: viewer.email,
      password: viewer.password,
      code: await freshDashboardCode(db, viewer),
    });
    expect(await signedIn(cookie)).toBe(true);
    await db.merchantUser.update({ where: { id: viewer.id }, data: { disabledAt: new Date(), disabledBy: 'test' } });
    expect(await signedIn(cookie)).toBe(false);
  });
});
