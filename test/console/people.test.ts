import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findConsoleUser,
  issuePersonalCredential,
  PersonalCredentialRefusedError,
  type PrismaClient,
} from '@payout/db';
import { adminOf, call, useApi, type ApiResponse } from '../support/api.js';
import { addConsoleUser, signedInPerson, signInToConsole } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { bearer, personWithKey, type PersonWithKey } from '../support/people.js';

// Changes to people go through a second person (docs/operations.md, "Security model"): adding a person,
// another role and a password reset are requests another approver approves; the approver receives the
// one-time password once, and the person must choose their own before they can do anything else. A CLI
// sign-in is a short-lived credential of one's own; disabling a person ends every credential at once.

const api = useApi();
let db: PrismaClient;
let operator: PersonWithKey;
let approver: PersonWithKey;
let support: PersonWithKey;

beforeAll(async () => {
  db = testPrisma();
  operator = await personWithKey('operator');
  approver = await personWithKey('approver');
  support = await personWithKey('support');
});
afterAll(() => db.$disconnect());

const admin = (path: string, headers: Record<string, string>, body?: unknown): Promise<ApiResponse> =>
  call(adminOf(api.current), path, { headers, ...(body !== undefined && { method: 'POST', body }) });
const approve = (id: unknown, by: PersonWithKey) =>
  admin(`/admin/approvals/${String(id)}/approve`, bearer(by), { note: 'checked with their manager' });
const signIn = (username: string, password: string) => admin('/admin/sign-in', {}, { username, password });
let names = 0;
const newName = () => `new-${process.pid}-${++names}-${Date.now().toString(36)}`;

/** Chooses a first password the way a browser does: sign in with the one-time password, post the form shown. */
async function chooseFirstPassword(
  username: string,
  oneTime: string,
  chosen: string,
  typedAgain = oneTime,
): Promise<Response> {
  const form = await fetch(`${api.current.adminUrl}/console/login`);
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const signedIn = await fetch(`${api.current.adminUrl}/console/login`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, username, password: oneTime }).toString(),
    redirect: 'manual',
  });
  expect(signedIn.status).toBe(200);
  expect(signedIn.headers.getSetCookie().some((c) => c.startsWith('console_session='))).toBe(false);
  const page = await signedIn.text();
  expect(page).toContain('Choose your password');
  expect(page).not.toContain('/console/lists');
  return fetch(`${api.current.adminUrl}/console/login/password`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _csrf: csrf,
      username,
      password: typedAgain,
      newPassword: chosen,
      repeat: chosen,
    }).toString(),
    redirect: 'manual',
  });
}

describe('people on the admin API', () => {
  it('when a person signs in with their password, then they get a short-lived credential of their own, which whoami names and sign-out ends', async () => {
    const name = newName();
    const password = await addConsoleUser(name, 'operator');
    const signedIn = await signIn(name, password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.json).toMatchObject({ error: false, status_code: 200, username: name, role: 'operator' });
    const token = String(signedIn.json.token);
    expect(token).toMatch(/^pgs_/);
    const lasts = Date.parse(String(signedIn.json.expiresAt)) - Date.now();
    expect(lasts).toBeGreaterThan(7.9 * 3600_000);
    expect(lasts).toBeLessThanOrEqual(8 * 3600_000);

    const who = await admin('/admin/whoami', { Authorization: `Bearer ${token}` });
    expect(who.status).toBe(200);
    expect(who.json).toMatchObject({
      username: name,
      role: 'operator',
      via: 'cli',
      credential: { kind: 'SIGN_IN', prefix: signedIn.json.prefix },
    });
    expect((await admin('/admin/whoami', {})).status).toBe(401);

    const out = await admin('/admin/sign-out', { Authorization: `Bearer ${token}` }, {});
    expect(out.status).toBe(200);
    expect((await admin('/admin/whoami', { Authorization: `Bearer ${token}` })).status).toBe(401);
    const audit = await db.operatorAction.findMany({ where: { actor: `cli:${name}` }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['credential.sign-in', 'credential.sign-out']);
  });

  it('when the password is wrong, the body is bad, or guesses come too fast, then no credential is issued', async () => {
    const name = newName();
    const password = await addConsoleUser(name, 'support');
    expect((await signIn(name, 'not-the-password')).status).toBe(401);
    expect((await signIn('nobody-here', password)).status).toBe(401);
    expect((await admin('/admin/sign-in', {}, { username: name })).status).toBe(422);
    expect((await admin('/admin/sign-in', {}, { username: name, password, extra: 1 })).status).toBe(422);
    for (let i = 0; i < 5; i++) await signIn(name, `wrong-${i}`);
    const blocked = await signIn(name, password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await db.personalCredential.count({ where: { user: { username: name } } })).toBe(0);
  });

  it('when an operator asks to add a person, then nobody exists until another approver approves; the approver gets a one-time password that must be changed before anything else', async () => {
    const name = newName();
    const asked = await admin('/admin/users', bearer(operator), { username: name, role: 'approver', why: 'new hire' });
    expect(asked.status).toBe(202);
    expect(asked.json).toMatchObject({
      status_code: 202,
      approval: { action: 'user.add', state: 'REQUESTED', maker: operator.username, preview: { username: name } },
    });
    expect(await findConsoleUser(db, name)).toBeNull();
    const id = (asked.json.approval as { id: string }).id;
    expect((await approve(id, operator)).status).toBe(403);
    expect(await findConsoleUser(db, name)).toBeNull();

    const approved = await approve(id, approver);
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({ approval: { state: 'EXECUTED' }, username: name });
    const oneTime = String(approved.json.oneTimePassword);
    expect(oneTime.length).toBeGreaterThanOrEqual(20);
    const stored = await db.approvalRequest.findUniqueOrThrow({ where: { id: BigInt(id) } });
    expect(JSON.stringify(stored, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(oneTime);
    expect(await findConsoleUser(db, name)).toMatchObject({ role: 'APPROVER', mustChangePassword: true });
    expect(
      await db.operatorAction.findFirst({
        where: { action: 'user.add' },
        orderBy: { id: 'desc' },
        select: { actor: true },
      }),
    ).toEqual({ actor: `cli:${approver.username}` });

    // Whoever saw the one-time password cannot act with it: no CLI sign-in, no key, no console session.
    const early = await signIn(name, oneTime);
    expect(early.status).toBe(403);
    expect(String(early.json.message)).toContain('/console/login');
    await expect(issuePersonalCredential(db, { username: name, kind: 'API_KEY', label: 'x' })).rejects.toBeInstanceOf(
      PersonalCredentialRefusedError,
    );
    const chosen = 'a long passphrase of my own';
    const changed = await chooseFirstPassword(name, oneTime, chosen);
    expect(changed.status).toBe(303);
    expect(changed.headers.getSetCookie().some((c) => c.startsWith('console_session='))).toBe(true);
    expect((await signIn(name, oneTime)).status).toBe(401);
    expect((await signIn(name, chosen)).status).toBe(200);
    expect(await findConsoleUser(db, name)).toMatchObject({ mustChangePassword: false });
  });

  it('when an approver approves a people request on the console, then the page shows the one-time password once', async () => {
    const name = newName();
    const asked = await admin('/admin/users', bearer(operator), { username: name, role: 'operator', why: 'new hire' });
    const id = (asked.json.approval as { id: string }).id;
    const kiran = await signedInPerson(api.current.adminUrl, 'approver');
    const pending = await kiran.page(`/console/approvals/${id}`);
    expect(pending.html).toContain(`Add ${name} as operator`);
    const approved = await kiran.post(`/console/approvals/${id}/approve`, { note: 'manager agreed' });
    expect(approved.status).toBe(201);
    const oneTime = /<code class="secret">([^<]+)<\/code>/.exec(approved.html)![1]!;
    expect(approved.html).toContain('must choose');
    expect((await kiran.page(`/console/approvals/${id}`)).html).not.toContain(oneTime);
    expect((await signIn(name, oneTime)).status).toBe(403);
    expect(await findConsoleUser(db, name)).toMatchObject({ role: 'OPERATOR', mustChangePassword: true });
  });

  it('when a first password is chosen badly, then nothing changes', async () => {
    const name = newName();
    const asked = await admin('/admin/users', bearer(operator), { username: name, role: 'support', why: 'new hire' });
    const approved = await approve((asked.json.approval as { id: string }).id, approver);
    const oneTime = String(approved.json.oneTimePassword);
    expect((await chooseFirstPassword(name, oneTime, 'short')).status).toBe(400);
    expect((await chooseFirstPassword(name, oneTime, oneTime)).status).toBe(400);
    expect((await chooseFirstPassword(name, oneTime, 'x'.repeat(12), 'not-the-one-time-password')).status).toBe(401);
    expect(await findConsoleUser(db, name)).toMatchObject({ mustChangePassword: true });
    expect((await signIn(name, oneTime)).status).toBe(403);
  });

  it('when a role change or password reset is asked for, then it runs only on another approver’s approval; a reset ends every credential of the person', async () => {
    const person = await personWithKey('support');
    const role = await admin(`/admin/users/${person.username}/role`, bearer(operator), {
      role: 'operator',
      why: 'joins the payouts desk',
    });
    expect(role.status).toBe(202);
    expect(role.json).toMatchObject({ approval: { preview: { roleBefore: 'support', roleAfter: 'operator' } } });
    expect(await findConsoleUser(db, person.username)).toMatchObject({ role: 'SUPPORT' });
    expect((await approve((role.json.approval as { id: string }).id, approver)).status).toBe(200);
    expect(await findConsoleUser(db, person.username)).toMatchObject({ role: 'OPERATOR' });
    expect((await admin('/admin/whoami', bearer(person))).json).toMatchObject({ role: 'operator' });

    const reset = await admin(`/admin/users/${person.username}/password-reset`, bearer(operator), { why: 'forgot it' });
    expect(reset.status).toBe(202);
    expect((await admin('/admin/whoami', bearer(person))).status).toBe(200);
    const approved = await approve((reset.json.approval as { id: string }).id, approver);
    expect(approved.status).toBe(200);
    expect(approved.json.oneTimePassword).toEqual(expect.any(String));
    expect((await admin('/admin/whoami', bearer(person))).status).toBe(401);
    expect(await findConsoleUser(db, person.username)).toMatchObject({ mustChangePassword: true });
  });

  it('when a people change is asked wrongly or by someone who may not, then it is refused and nothing is requested', async () => {
    const before = await db.approvalRequest.count();
    const bySupport = await admin('/admin/users', bearer(support), {
      username: newName(),
      role: 'approver',
      why: 'me',
    });
    expect(bySupport.status).toBe(403);
    expect((await admin('/admin/users', {}, { username: newName(), role: 'approver', why: 'x' })).status).toBe(401);
    expect(
      (await admin('/admin/users', bearer(operator), { username: 'Bad Name', role: 'support', why: 'x' })).status,
    ).toBe(422);
    expect(
      (await admin('/admin/users', bearer(operator), { username: newName(), role: 'admin', why: 'x' })).status,
    ).toBe(422);
    expect((await admin('/admin/users', bearer(operator), { username: newName(), role: 'support' })).status).toBe(422);
    expect(
      (await admin('/admin/users', bearer(operator), { username: support.username, role: 'support', why: 'x' })).status,
    ).toBe(409);
    expect((await admin('/admin/users/nobody-here/role', bearer(operator), { role: 'support', why: 'x' })).status).toBe(
      404,
    );
    expect(
      (await admin(`/admin/users/${support.username}/role`, bearer(operator), { role: 'support', why: 'x' })).status,
    ).toBe(409);
    expect((await admin('/admin/users/nobody-here/password-reset', bearer(operator), { why: 'x' })).status).toBe(404);
    expect(await db.approvalRequest.count()).toBe(before);
    expect(
      await db.operatorAction.count({ where: { actor: `cli:${support.username}`, action: 'access.refused' } }),
    ).toBe(1);
  });

  it('when an approver disables a person, then at once every credential of theirs stops working, and it is audited', async () => {
    const person = await personWithKey('operator');
    const signIns = await issuePersonalCredential(db, { username: person.username, kind: 'SIGN_IN', label: 'cli' });
    expect((await admin(`/admin/users/${person.username}/disable`, bearer(operator), { why: 'left' })).status).toBe(
      403,
    );
    expect((await admin('/admin/whoami', bearer(person))).status).toBe(200);
    expect((await admin(`/admin/users/${person.username}/disable`, bearer(approver), {})).status).toBe(422);

    const disabled = await admin(`/admin/users/${person.username}/disable`, bearer(approver), {
      why: 'left the company',
    });
    expect(disabled.status).toBe(200);
    expect(disabled.json).toMatchObject({ user: { username: person.username, disabled: true } });
    expect((await admin('/admin/whoami', bearer(person))).status).toBe(401);
    expect((await admin('/admin/whoami', { Authorization: `Bearer ${signIns.token}` })).status).toBe(401);
    expect(await db.personalCredential.count({ where: { user: { username: person.username }, revokedAt: null } })).toBe(
      0,
    );
    expect(
      await db.operatorAction.findFirst({
        where: { action: 'user.disable', actor: `cli:${approver.username}` },
        select: { reason: true, detail: true },
      }),
    ).toEqual({ reason: 'left the company', detail: { username: person.username, role: 'OPERATOR' } });
    expect((await admin('/admin/users/nobody-here/disable', bearer(approver), { why: 'x' })).status).toBe(404);
  });
});

describe('my keys on the console', () => {
  it('when a support user creates a key, then it is shown once, works as them on the admin API, is listed without its secret, and only they revoke it', async () => {
    const name = newName();
    const password = await addConsoleUser(name, 'support');
    const signedIn = await signInToConsole(api.current.adminUrl, name, password);
    const cookie = signedIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('console_session='))!
      .split(';')[0]!;
    const page = async (path: string) => {
      const res = await fetch(`${api.current.adminUrl}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' });
      return { status: res.status, html: await res.text(), location: res.headers.get('location') };
    };
    const listed = await page('/console/keys');
    expect(listed.status).toBe(200);
    expect(listed.html).toContain('No key yet.');
    expect(listed.html).toContain('href="/console/keys"');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(listed.html)![1]!;
    const post = async (path: string, fields: Record<string, string>) => {
      const res = await fetch(`${api.current.adminUrl}${path}`, {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
        redirect: 'manual',
      });
      return { status: res.status, html: await res.text(), location: res.headers.get('location') };
    };

    expect((await post('/console/keys', { label: 'laptop', days: '91' })).status).toBe(422);
    expect((await post('/console/keys', { label: '', days: '30' })).status).toBe(422);
    expect((await post('/console/keys', { label: 'laptop', days: 'soon' })).status).toBe(422);
    const withoutCsrf = await fetch(`${api.current.adminUrl}/console/keys`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ label: 'forged', days: '30' }).toString(),
    });
    expect(withoutCsrf.status).toBe(403);
    expect(await db.personalCredential.count({ where: { user: { username: name } } })).toBe(0);

    const created = await post('/console/keys', { label: 'laptop', days: '7' });
    expect(created.status).toBe(201);
    const key = /<code class="secret">(pgk_[A-Za-z0-9_-]{43})<\/code>/.exec(created.html)![1]!;
    const prefix = key.slice(0, 12);
    const who = await admin('/admin/whoami', { Authorization: `Bearer ${key}` });
    expect(who.json).toMatchObject({ username: name, role: 'support', credential: { kind: 'API_KEY', prefix } });
    const stored = await db.personalCredential.findFirstOrThrow({ where: { prefix } });
    expect(Math.round((stored.expiresAt.getTime() - stored.createdAt.getTime()) / 86_400_000)).toBe(7);

    const again = await page('/console/keys');
    expect(again.html).toContain(prefix);
    expect(again.html).toContain('laptop');
    expect(again.html).not.toContain(key);

    // Another person's key is not theirs to revoke.
    const other = await personWithKey('approver');
    const otherPrefix = other.key.slice(0, 12);
    expect((await post(`/console/keys/${otherPrefix}/revoke`, {})).status).toBe(404);
    expect((await admin('/admin/whoami', bearer(other))).status).toBe(200);

    const revoked = await post(`/console/keys/${prefix}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe('/console/keys');
    expect((await admin('/admin/whoami', { Authorization: `Bearer ${key}` })).status).toBe(401);
    expect((await post(`/console/keys/${prefix}/revoke`, {})).status).toBe(404);
    const audit = await db.operatorAction.findMany({ where: { actor: `console:${name}` }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['credential.create', 'credential.revoke']);
  });
});
