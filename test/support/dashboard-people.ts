import { randomBytes, randomUUID } from 'node:crypto';
import { createMerchantUserSession, type PrismaClientOrTransaction } from '@payout/db';
import {
  hashPassword,
  newPassword,
  newRecoveryCodes,
  newTotpSeed,
  recoveryCodeDigest,
  sealSeed,
  totpCode,
  type MerchantUserRole,
} from '@payout/domain';
import { TEST_SEALING_KEYS } from './people.js';

/** One password for every merchant user a test process makes directly (hashing costs half a second). */
const TEST_PASSWORD = newPassword();
let testPasswordHash: Promise<string> | undefined;

/** A merchant user as enrollment would leave them, made straight in the database. */
export interface DashboardPerson {
  id: number;
  merchantId: number;
  email: string;
  role: MerchantUserRole;
  password: string;
  /** The seed their authenticator app holds. */
  seed: string;
}

/** Makes an enrolled merchant user of `role` for `merchantId` (an e-mail address unique to this call). */
export async function addDashboardUser(
  db: PrismaClientOrTransaction,
  merchantId: number,
  role: MerchantUserRole,
  email = `${role.toLowerCase()}-${randomUUID().slice(0, 8)}@merchant${merchantId}.example`,
): Promise<DashboardPerson> {
  testPasswordHash ??= hashPassword(TEST_PASSWORD);
  const seed = newTotpSeed();
  const user = await db.merchantUser.create({
    data: {
      merchantId,
      email,
      role,
      passwordHash: await testPasswordHash,
      totpSealed: sealSeed(seed, TEST_SEALING_KEYS),
      addedBy: 'test',
    },
    select: { id: true },
  });
  return { id: user.id, merchantId, email, role, password: TEST_PASSWORD, seed };
}

/** A signed-in dashboard session of `person`, as the sign-in would start it: the Cookie header and CSRF token. */
export async function dashboardSessionOf(
  db: PrismaClientOrTransaction,
  person: { id: number },
): Promise<{ cookie: string; csrfToken: string }> {
  const sessionId = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  await createMerchantUserSession(db, {
    sessionId,
    userId: person.id,
    csrfToken,
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  });
  return { cookie: `merchant_session=${sessionId}`, csrfToken };
}

/** The cookies a response sets, as one Cookie header (name=value pairs only). */
export function cookiesOf(response: Response, previous = ''): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  for (const set of response.headers.getSetCookie()) {
    const [pair] = set.split(';');
    const eq = pair!.indexOf('=');
    const value = pair!.slice(eq + 1);
    if (value === '' || /Expires=Thu, 01 Jan 1970/i.test(set)) jar.delete(pair!.slice(0, eq));
    else jar.set(pair!.slice(0, eq), value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** The CSRF token of the first form on a dashboard page. */
export function csrfOf(html: string): string {
  const found = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!found) throw new Error('the page has no CSRF field');
  return found[1]!;
}

/** Posts a dashboard form, as a browser would (no redirects followed). */
export function postDashboardForm(
  url: string,
  cookie: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...headers, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

/**
 * Signs in on the dashboard's own form, as a person does: its CSRF cookie and field, then e-mail, password and
 * `code` (a TOTP code or a recovery code). The answer to the post, and the cookies after it.
 */
export async function signInToDashboard(
  apiUrl: string,
  input: { email: string; password: string; code?: string },
  headers: Record<string, string> = {},
): Promise<{ response: Response; cookie: string }> {
  const form = await fetch(`${apiUrl}/dashboard/login`, { headers });
  const cookie = cookiesOf(form);
  const response = await postDashboardForm(
    `${apiUrl}/dashboard/login`,
    cookie,
    {
      _csrf: csrfOf(await form.text()),
      email: input.email,
      password: input.password,
      ...(input.code !== undefined && { code: input.code }),
    },
    headers,
  );
  return { response, cookie: cookiesOf(response, cookie) };
}

/**
 * A fresh single-use code of `person`'s second factor: one of their recovery codes, added for this one use (a
 * TOTP code works once per 30 seconds; test/dashboard/people-sign-in.test.ts walks the TOTP codes themselves).
 */
export async function freshDashboardCode(db: PrismaClientOrTransaction, person: { id: number }): Promise<string> {
  const [code] = newRecoveryCodes(1);
  await db.merchantUserRecoveryCode.create({ data: { userId: person.id, digest: recoveryCodeDigest(code!) } });
  return code!;
}

/**
 * Opens an enrollment for `email` as its person does on /dashboard/enroll, in a browser of their own: that
 * browser's cookies (the enrollment's secret among them) and the fingerprint the page shows them.
 */
export async function openDashboardEnrollment(
  apiUrl: string,
  email: string,
): Promise<{ cookie: string; fingerprint: string }> {
  const start = await fetch(`${apiUrl}/dashboard/enroll`);
  let cookie = cookiesOf(start);
  const opened = await postDashboardForm(`${apiUrl}/dashboard/enroll`, cookie, {
    _csrf: csrfOf(await start.text()),
    email,
  });
  if (opened.status !== 303) throw new Error(`opening an enrollment answered ${opened.status}`);
  cookie = cookiesOf(opened, cookie);
  const waiting = await (await fetch(`${apiUrl}/dashboard/enroll`, { headers: { Cookie: cookie } })).text();
  const fingerprint = /<p class="fingerprint">([^<]+)<\/p>/.exec(waiting)?.[1];
  if (!fingerprint) throw new Error('the enrollment page shows no fingerprint');
  return { cookie, fingerprint };
}

/**
 * Finishes the enrollment this browser holds, once someone bound an account to it: the seed the page shows
 * only to this browser, a chosen password, the current code. The answer, the seed and the cookies after it.
 */
export async function finishDashboardEnrollment(
  apiUrl: string,
  cookie: string,
  password: string,
): Promise<{ response: Response; seed: string; cookie: string }> {
  const form = await (await fetch(`${apiUrl}/dashboard/enroll`, { headers: { Cookie: cookie } })).text();
  const seed = /<code class="secret">([^<]+)<\/code>/.exec(form)?.[1]?.replace(/ /g, '');
  if (!seed) throw new Error('the enrollment page offers no key: nobody bound an account to it');
  const response = await postDashboardForm(`${apiUrl}/dashboard/enroll/finish`, cookie, {
    _csrf: csrfOf(form),
    password,
    repeat: password,
    code: totpCode(seed, new Date()),
  });
  return { response, seed, cookie: cookiesOf(response, cookie) };
}
