import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findConsoleUser,
  issuePersonalCredential,
  PersonalCredentialRefusedError,
  type PrismaClient,
} from '@payout/db';
import { totpCode } from '@payout/domain';
import { adminOf, call, useApi, type ApiResponse } from '../support/api.js';
import { addConsoleUser, signedInPerson, signInToConsole } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { bearer, currentCode, freshSecondFactorCode, personWithKey, type PersonWithKey } from '../support/people.js';

// People make their own secrets (docs/operations.md, "People and roles"): a newcomer opens an enrollment on
// their own device and reads its fingerprint to the person asking for them; the request names it, another
// approver approves, and only the holder of the enrollment's secret sets the password and second factor.
// Nobody is shown anyone else's secret. A reset leaves the account awaiting its person again; disabling ends
// every credential at once, but never leaves fewer than two approvers.

// Each newcomer opens an enrollment from this one address, as failed sign-ins are counted there.
const api = useApi({ CONSOLE_SIGNIN_ADDRESS_ATTEMPTS: '100' });
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
const approve = async (id: unknown, by: PersonWithKey, code?: string) =>
  admin(`/admin/approvals/${String(id)}/approve`, bearer(by), {
    note: 'checked the fingerprint with them on a call',
    code: code ?? (await freshSecondFactorCode(by.username)),
  });
const signIn = (username: string, password: string, code?: string) =>
  admin('/admin/sign-in', {}, { username, password, ...(code !== undefined && { code }) });
let names = 0;
const newName = () => `new-${process.pid}-${++names}-${Date.now().toString(36)}`;

/** What a newcomer's own device holds after opening an enrollment: its secret, and the fingerprint they read out. */
interface OpenedEnrollment {
  username: string;
  secret: string;
  fingerprint: string;
}
async function openEnrollment(username: string): Promise<OpenedEnrollment> {
  const opened = await admin('/admin/enrollments', {}, { username });
  expect(opened.status).toBe(201);
  return { username, secret: String(opened.json.secret), fingerprint: String(opened.json.fingerprint) };
}

/** The newcomer finishes on their own device: the offered key into their app, their password, the app's code. */
async function finishEnrollment(enrollment: OpenedEnrollment, password: string) {
  const offered = await admin('/admin/enrollments/second-factor', {}, { secret: enrollment.secret });
  expect(offered.status).toBe(200);
  const seed = String(offered.json.seed);
  const finished = await admin(
    '/admin/enrollments/finish',
    {},
    { secret: enrollment.secret, password, code: totpCode(seed, new Date()) },
  );
  return { finished, seed };
}

/** Every secret-bearing trace a request leaves for other people: its row, and the audit log. */
async function whatOthersSee(): Promise<string> {
  const requests = await db.approvalRequest.findMany();
  const audit = await db.operatorAction.findMany();
  return JSON.stringify([requests, audit], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
}

describe('people on the admin API', () => {
  it('when a person signs in with their password and a code, then they get a short-lived credential of their own, which whoami names and sign-out ends; without the code, or with a used one, nothing is issued', async () => {
    const name = newName();
    const person = await addConsoleUser(name, 'operator');
    expect((await signIn(name, person.password)).status).toBe(401);
    const code = currentCode(person);
    const signedIn = await signIn(name, person.password, code);
    expect(signedIn.status).toBe(200);
    expect(signedIn.json).toMatchObject({ error: false, status_code: 200, username: name, role: 'operator' });
    expect((await signIn(name, person.password, code)).status).toBe(401);
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
    // The missing code was no attempt; the used one is in the log.
    expect(audit.map((a) => a.action)).toEqual(['credential.sign-in', 'second-factor.refused', 'credential.sign-out']);
  });

  it('when the password is wrong, the body is bad, or guesses come too fast, then no credential is issued', async () => {
    const name = newName();
    const { password } = await addConsoleUser(name, 'support');
    expect((await signIn(name, 'not-the-password')).status).toBe(401);
    expect((await signIn('nobody-here', password)).status).toBe(401);
    expect((await admin('/admin/sign-in', {}, { username: name })).status).toBe(422);
    expect((await admin('/admin/sign-in', {}, { username: name, password, extra: 1 })).status).toBe(422);
    for (let i = 0; i < 5; i++) await signIn(name, `wrong-${i}`);
    const blocked = await signIn(name, password, await freshSecondFactorCode(name));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await db.personalCredential.count({ where: { user: { username: name } } })).toBe(0);
  });

  it('when an operator asks to add a person with the fingerprint they read out, then nobody exists until another approver approves, the approver is shown no secret, and only the newcomer’s own device finishes the enrollment', async () => {
    const name = newName();
    const newcomer = await openEnrollment(name);
    expect(newcomer.fingerprint).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const asked = await admin('/admin/users', bearer(operator), {
      username: name,
      role: 'approver',
      fingerprint: newcomer.fingerprint.toLowerCase().replace('-', ''),
      why: 'new hire',
    });
    expect(asked.status).toBe(202);
    expect(asked.json).toMatchObject({
      status_code: 202,
      approval: {
        action: 'user.add',
        state: 'REQUESTED',
        maker: operator.username,
        preview: { username: name, fingerprint: newcomer.fingerprint },
      },
    });
    expect(await findConsoleUser(db, name)).toBeNull();
    const id = (asked.json.approval as { id: string }).id;
    expect((await approve(id, operator)).status).toBe(403);
    expect(await findConsoleUser(db, name)).toBeNull();

    // The approver, as the one who could have turned themselves into two people: what they are shown.
    const approved = await approve(id, approver);
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({ approval: { state: 'EXECUTED', outcome: { awaitingEnrollment: true } } });
    expect(approved.text).not.toContain(newcomer.secret);
    expect(Object.keys(approved.json).sort()).toEqual(['approval', 'error', 'status', 'status_code']);
    expect(await findConsoleUser(db, name)).toMatchObject({ role: 'APPROVER', enrolled: false, secondFactor: false });

    // Nothing signs in as an account awaiting its person, and no key is made for it.
    expect((await signIn(name, '')).status).toBe(422);
    expect((await signIn(name, 'any password at all')).status).toBe(401);
    await expect(issuePersonalCredential(db, { username: name, kind: 'API_KEY', label: 'x' })).rejects.toBeInstanceOf(
      PersonalCredentialRefusedError,
    );
    // The approver's own enrollment for that name, opened now, is not the one approved.
    const approversOwn = await openEnrollment(name);
    expect(approversOwn.fingerprint).not.toBe(newcomer.fingerprint);
    const grab = await admin('/admin/enrollments/second-factor', {}, { secret: approversOwn.secret });
    expect(grab.status).toBe(409);

    const chosen = 'a long passphrase of my own';
    const { finished, seed } = await finishEnrollment(newcomer, chosen);
    expect(finished.status).toBe(200);
    const recoveryCodes = finished.json.recoveryCodes as string[];
    expect(recoveryCodes).toHaveLength(10);
    expect(await findConsoleUser(db, name)).toMatchObject({ enrolled: true, secondFactor: true });
    // The enrollment is spent: its secret opens nothing any more.
    expect((await admin('/admin/enrollments/standing', {}, { secret: newcomer.secret })).status).toBe(404);
    const signedIn = await signIn(name, chosen, recoveryCodes[0]);
    expect(signedIn.status).toBe(200);
    expect((await signIn(name, chosen, recoveryCodes[0])).status).toBe(401);

    const seen = await whatOthersSee();
    for (const secret of [newcomer.secret, chosen, seed, ...recoveryCodes]) expect(seen).not.toContain(secret);
    const stored = await db.consoleUser.findUniqueOrThrow({ where: { username: name } });
    expect(JSON.stringify(stored, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(seed);
  });

  it('when an approver approves a people request on the console, then the page asks them to check the fingerprint and shows no secret', async () => {
    const name = newName();
    const newcomer = await openEnrollment(name);
    const asked = await admin('/admin/users', bearer(operator), {
      username: name,
      role: 'operator',
      fingerprint: newcomer.fingerprint,
      why: 'new hire',
    });
    const id = (asked.json.approval as { id: string }).id;
    const kiran = await signedInPerson(api.current.adminUrl, 'approver');
    const pending = await kiran.page(`/console/approvals/${id}`);
    expect(pending.html).toContain(`Add ${name} as operator`);
    expect(pending.html).toContain(newcomer.fingerprint);
    const withoutCode = await kiran.post(`/console/approvals/${id}/approve`, { note: 'manager agreed', code: '' });
    expect(withoutCode.status).toBe(403);
    expect(await findConsoleUser(db, name)).toBeNull();
    const approved = await kiran.post(`/console/approvals/${id}/approve`, { note: 'manager agreed' });
    expect(approved.status).toBe(303);
    const after = await kiran.page(`/console/approvals/${id}`);
    expect(after.html).not.toContain(newcomer.secret);
    expect(after.html).not.toContain('class="secret"');
    expect(await findConsoleUser(db, name)).toMatchObject({ role: 'OPERATOR', enrolled: false });
  });

  it('when an enrollment is finished badly, then nothing changes', async () => {
    const name = newName();
    const newcomer = await openEnrollment(name);
    const asked = await admin('/admin/users', bearer(operator), {
      username: name,
      role: 'support',
      fingerprint: newcomer.fingerprint,
      why: 'new hire',
    });
    expect((await approve((asked.json.approval as { id: string }).id, approver)).status).toBe(200);
    const offered = await admin('/admin/enrollments/second-factor', {}, { secret: newcomer.secret });
    const seed = String(offered.json.seed);
    const finish = (password: string, code: string) =>
      admin('/admin/enrollments/finish', {}, { secret: newcomer.secret, password, code });
    expect((await finish('short', totpCode(seed, new Date()))).status).toBe(422);
    expect((await finish('a long enough password', '000000')).status).toBe(422);
    expect((await finish('a long enough password', 'not a code')).status).toBe(422);
    expect(
      (await admin('/admin/enrollments/finish', {}, { secret: 'pge_not-a-secret', password: 'x', code: '1' })).status,
    ).toBe(422);
    expect(await findConsoleUser(db, name)).toMatchObject({ enrolled: false, secondFactor: false });
  });

  it('when a role change or a reset is asked for, then it runs only on another approver’s approval; a reset ends every credential and leaves the account awaiting its person, and a disabled person stays disabled', async () => {
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

    // The person lost their authenticator: they open a new enrollment and read its fingerprint out.
    const again = await openEnrollment(person.username);
    const reset = await admin(`/admin/users/${person.username}/password-reset`, bearer(operator), {
      why: 'lost their phone',
      fingerprint: again.fingerprint,
    });
    expect(reset.status).toBe(202);
    expect((await admin('/admin/whoami', bearer(person))).status).toBe(200);
    // Disabled after the reset was asked for: approving the reset does not enable them again.
    expect((await admin(`/admin/users/${person.username}/disable`, bearer(approver), { why: 'on leave' })).status).toBe(
      200,
    );
    const approved = await approve((reset.json.approval as { id: string }).id, approver);
    expect(approved.status).toBe(200);
    expect(approved.text).not.toContain(again.secret);
    expect((await admin('/admin/whoami', bearer(person))).status).toBe(401);
    const after = await findConsoleUser(db, person.username);
    expect(after).toMatchObject({ enrolled: false, secondFactor: false });
    expect(after?.disabledAt).not.toBeNull();
    expect((await signIn(person.username, person.password)).status).toBe(401);
  });

  it('when a people change is asked wrongly or by someone who may not, then it is refused and nothing is requested', async () => {
    const before = await db.approvalRequest.count();
    const someone = await openEnrollment(newName());
    const asks = (body: Record<string, unknown>, by = bearer(operator)) => admin('/admin/users', by, body);
    const bySupport = await asks(
      { username: someone.username, role: 'approver', fingerprint: someone.fingerprint, why: 'me' },
      bearer(support),
    );
    expect(bySupport.status).toBe(403);
    expect(
      (await asks({ username: someone.username, role: 'approver', fingerprint: someone.fingerprint, why: 'x' }, {}))
        .status,
    ).toBe(401);
    expect(
      (await asks({ username: 'Bad Name', role: 'support', fingerprint: someone.fingerprint, why: 'x' })).status,
    ).toBe(422);
    expect(
      (await asks({ username: someone.username, role: 'admin', fingerprint: someone.fingerprint, why: 'x' })).status,
    ).toBe(422);
    expect((await asks({ username: someone.username, role: 'support', why: 'x' })).status).toBe(422);
    expect(
      (await asks({ username: someone.username, role: 'support', fingerprint: 'nonsense!', why: 'x' })).status,
    ).toBe(422);
    // A fingerprint of no enrollment of theirs (a typo, or somebody else's) is refused.
    const other = await openEnrollment(newName());
    expect(
      (await asks({ username: someone.username, role: 'support', fingerprint: other.fingerprint, why: 'x' })).status,
    ).toBe(409);
    expect(
      (await asks({ username: support.username, role: 'support', fingerprint: someone.fingerprint, why: 'x' })).status,
    ).toBe(409);
    expect((await admin('/admin/users/nobody-here/role', bearer(operator), { role: 'support', why: 'x' })).status).toBe(
      404,
    );
    expect(
      (await admin(`/admin/users/${support.username}/role`, bearer(operator), { role: 'support', why: 'x' })).status,
    ).toBe(409);
    expect(
      (
        await admin('/admin/users/nobody-here/password-reset', bearer(operator), {
          why: 'x',
          fingerprint: someone.fingerprint,
        })
      ).status,
    ).toBe(404);
    expect(await db.approvalRequest.count()).toBe(before);
    expect(
      await db.operatorAction.count({ where: { actor: `cli:${support.username}`, action: 'access.refused' } }),
    ).toBe(1);
  });

  it('when an approver disables a person, then at once every credential of theirs stops working, and it is audited; an approver whose going would leave fewer than two is not disabled', async () => {
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
        orderBy: { id: 'desc' },
        select: { reason: true, detail: true },
      }),
    ).toEqual({ reason: 'left the company', detail: { username: person.username, role: 'OPERATOR' } });
    expect((await admin('/admin/users/nobody-here/disable', bearer(approver), { why: 'x' })).status).toBe(404);

    // Down to two enabled approvers, neither disables the other: one would be left to approve alone.
    const others = await db.consoleUser.findMany({
      where: { role: 'APPROVER', disabledAt: null, username: { not: approver.username } },
      select: { username: true },
    });
    const second = others[0] ?? (await personWithKey('approver'));
    for (const extra of others.slice(1)) {
      expect((await admin(`/admin/users/${extra.username}/disable`, bearer(approver), { why: 'tidy' })).status).toBe(
        200,
      );
    }
    const refused = await admin(`/admin/users/${second.username}/disable`, bearer(approver), { why: 'going it alone' });
    expect(refused.status).toBe(409);
    expect(String(refused.json.message)).toContain('four eyes need at least 2');
    expect(await findConsoleUser(db, second.username)).toMatchObject({ disabledAt: null });
  });
});

describe('my keys on the console', () => {
  it('when a support user creates a key, then it is shown once, works as them on the admin API, is listed without its secret, and only they revoke it', async () => {
    const name = newName();
    const { password } = await addConsoleUser(name, 'support');
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
