import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api.js';
import { addConsoleUser, signInToConsole } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { bearer, freshSecondFactorCode, personWithKey } from '../support/people.js';
import { cli } from '../webhooks/webhook-fixtures.js';

// Console sign-in over plain HTTP (no browser needed): the session cookie's attributes, sessions stored
// only as digests, sign-in attempts limited, and disabling or resetting a person ending their sessions.

const api = useApi({ CONSOLE_SIGNIN_ATTEMPTS: '3' });
const behindProxy = useApi({ ADMIN_TRUST_PROXY: 'loopback' });
const db = testPrisma();
afterAll(() => db.$disconnect());

let people = 0;
async function person(role: 'support' | 'operator' = 'support'): Promise<{ name: string; password: string }> {
  people += 1;
  const name = `person-${process.pid}-${people}`;
  return { name, password: (await addConsoleUser(name, role)).password };
}

function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => /^(__Host-)?console_session=/.test(c));
  if (!cookie) throw new Error(`no session cookie (status ${response.status})`);
  return cookie;
}

async function consolePage(adminUrl: string, cookie: string): Promise<Response> {
  return fetch(`${adminUrl}/console`, { headers: { Cookie: cookie.split(';')[0]! }, redirect: 'manual' });
}

describe('console sessions', () => {
  it('when a person signs in, then the session cookie is HttpOnly and SameSite, Secure only over TLS, and only its digest is stored', async () => {
    const { name, password } = await person();
    const signedIn = await signInToConsole(api.current.adminUrl, name, password);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/console');
    const cookie = sessionCookie(signedIn);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).not.toMatch(/; Secure/);
    const id = /^console_session=([^;]+)/.exec(cookie)![1]!;
    const stored = await db.consoleSession.findMany({ where: { user: { username: name } } });
    expect(stored.map((s) => s.idHash)).toEqual([createHash('sha256').update(id).digest('hex')]);
    expect((await consolePage(api.current.adminUrl, cookie)).status).toBe(200);

    const overTls = await signInToConsole(behindProxy.current.adminUrl, name, password, {
      'X-Forwarded-Proto': 'https',
    });
    expect(sessionCookie(overTls)).toMatch(/^__Host-console_session=.*; Secure/);
  });

  it('when a password is guessed wrong too often, then even the right one is refused for a while', async () => {
    const { name, password } = await person();
    for (let i = 0; i < 3; i++) {
      expect((await signInToConsole(api.current.adminUrl, name, 'wrong-password')).status).toBe(401);
    }
    const blocked = await signInToConsole(api.current.adminUrl, name, password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.headers.getSetCookie().some((c) => c.startsWith('console_session='))).toBe(false);
    expect(await db.consoleSession.count({ where: { user: { username: name } } })).toBe(0);
  });

  it('when a person is disabled, then their session ends at once; a reset leaves them disabled, their old password gone', async () => {
    const { name, password } = await person('operator');
    const cookie = sessionCookie(await signInToConsole(api.current.adminUrl, name, password));
    expect((await consolePage(api.current.adminUrl, cookie)).status).toBe(200);

    const approver = await personWithKey('approver');
    const post = (path: string, body: unknown) =>
      fetch(`${api.current.adminUrl}${path}`, {
        method: 'POST',
        headers: { ...bearer(approver), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post(`/admin/users/${name}/disable`, { why: 'left' })).status).toBe(200);
    const afterDisable = await consolePage(api.current.adminUrl, cookie);
    expect(afterDisable.status).toBe(303);
    expect(afterDisable.headers.get('location')).toBe('/console/login');
    expect((await signInToConsole(api.current.adminUrl, name, password)).status).toBe(401);

    // A reset, asked and approved by two others through the enrollment the person opened, leaves them
    // disabled and awaiting their own new password (test/console/people.test.ts): the old one is gone.
    const asker = await personWithKey('operator');
    const opened = (await (
      await fetch(`${api.current.adminUrl}/admin/enrollments`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: name }),
      })
    ).json()) as { fingerprint: string };
    const asked = await fetch(`${api.current.adminUrl}/admin/users/${name}/password-reset`, {
      method: 'POST',
      headers: { ...bearer(asker), 'Content-Type': 'application/json' },
      body: JSON.stringify({ why: 'back from leave', fingerprint: opened.fingerprint }),
    });
    const { approval } = (await asked.json()) as { approval: { id: string } };
    const code = await freshSecondFactorCode(approver.username);
    const reset = (await (await post(`/admin/approvals/${approval.id}/approve`, { code })).json()) as Record<
      string,
      unknown
    >;
    expect(reset).toMatchObject({ approval: { state: 'EXECUTED' } });
    expect((await signInToConsole(api.current.adminUrl, name, password)).status).toBe(401);
    expect(await db.consoleUser.findUniqueOrThrow({ where: { username: name } })).toMatchObject({
      passwordHash: null,
      disabledAt: expect.any(Date) as Date,
    });
  });

  it('when the queue dashboard is opened with a console session, then operators get it in full, support read-only', async () => {
    const support = await person('support');
    const operator = await person('operator');
    const cookieOf = async (p: { name: string; password: string }) =>
      sessionCookie(await signInToConsole(api.current.adminUrl, p.name, p.password)).split(';')[0]!;
    const queues = async (cookie: string) => {
      const res = await fetch(`${api.current.adminUrl}/admin/queues/api/queues`, { headers: { Cookie: cookie } });
      return ((await res.json()) as { queues: { name: string; readOnlyMode: boolean }[] }).queues;
    };
    const supportCookie = await cookieOf(support);
    expect((await queues(supportCookie)).map((q) => [q.name, q.readOnlyMode])).toEqual([
      ['payouts', true],
      ['webhooks', true],
    ]);
    expect((await queues(await cookieOf(operator))).every((q) => !q.readOnlyMode)).toBe(true);
    const retry = await fetch(`${api.current.adminUrl}/admin/queues/api/queues/payouts/retry/failed`, {
      method: 'PUT',
      headers: { Cookie: supportCookie },
    });
    expect(retry.status).toBe(405);
    expect((await fetch(`${api.current.adminUrl}/admin/queues/api/queues`)).status).toBe(401);
  });

  it('when users are added wrongly, then the CLI says so and stores nothing', async () => {
    const { name } = await person();
    expect((await cli('console', 'user', 'add', '--name', 'Bad Name', '--role', 'support')).status).toBe(2);
    expect((await cli('console', 'user', 'add', '--name', 'ok-name', '--role', 'admin')).status).toBe(2);
    expect((await cli('console', 'user', 'disable', '--name', 'nobody-here')).status).toBe(2);
    expect(await db.consoleUser.count({ where: { username: { in: ['ok-name', 'Bad Name'] } } })).toBe(0);
    const stored = await db.consoleUser.findUniqueOrThrow({ where: { username: name } });
    expect(stored.passwordHash).toMatch(/^scrypt\$/);
  });
});
