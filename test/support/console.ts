import { createConsoleUser } from '@payout/db';
import { hashPassword, newPassword, type ConsoleRole } from '@payout/domain';
import { testPrisma } from './database.js';

export type ConsoleRoleName = 'support' | 'operator' | 'approver';

/**
 * Adds a console user straight into this run's database (as the first approver of an empty installation is
 * made) and returns their random password. Adding a person through the CLI is a request another approver
 * decides (docs/operations.md, "Security model"), which a test's people would otherwise wait for.
 */
export async function addConsoleUser(name: string, role: ConsoleRoleName): Promise<string> {
  const password = newPassword();
  const db = testPrisma();
  try {
    await createConsoleUser(db, {
      username: name,
      role: role.toUpperCase() as ConsoleRole,
      passwordHash: await hashPassword(password),
    });
  } finally {
    await db.$disconnect();
  }
  return password;
}

/** Signs in as a browser would: loads the form (its CSRF cookie and field), then posts it. */
export async function signInToConsole(
  adminUrl: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const form = await fetch(`${adminUrl}/console/login`, { headers });
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  return fetch(`${adminUrl}/console/login`, {
    method: 'POST',
    headers: { ...headers, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, username, password }).toString(),
    redirect: 'manual',
  });
}

/** A new console user of `role`, signed in: the `console_session=…` pair to send as a Cookie header. */
export async function consoleSession(adminUrl: string, name: string, role: ConsoleRoleName): Promise<string> {
  const signedIn = await signInToConsole(adminUrl, name, await addConsoleUser(name, role));
  const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('console_session='));
  if (!cookie) throw new Error(`signing in as ${name} set no session cookie (status ${signedIn.status})`);
  return cookie.split(';')[0]!;
}

/** A person signed in to the console, who reads pages and posts forms as a browser without JavaScript does. */
export interface ConsolePerson {
  username: string;
  /** The session cookie pair to send as a Cookie header. */
  cookie: string;
  /** The session's CSRF token, as every form of the console carries it. */
  csrf: string;
  page(path: string): Promise<{ status: number; html: string; location: string | null }>;
  /** Posts a form with the session's CSRF token (unless `fields` sets `_csrf` itself). */
  post(
    path: string,
    fields?: Record<string, string>,
  ): Promise<{ status: number; html: string; location: string | null }>;
}

let people = 0;

/** A new console user of `role` with a name unique to this run, signed in. */
export async function signedInPerson(adminUrl: string, role: ConsoleRoleName, name?: string): Promise<ConsolePerson> {
  const username = name ?? `${role}-${process.pid}-${++people}-${Date.now().toString(36)}`;
  const cookie = await consoleSession(adminUrl, username, role);
  const page = async (path: string) => {
    const res = await fetch(`${adminUrl}${path}`, { headers: { Cookie: cookie }, redirect: 'manual' });
    return { status: res.status, html: await res.text(), location: res.headers.get('location') };
  };
  // Every signed-in page carries the session's CSRF token in its sign-out form.
  const csrf = /name="_csrf" value="([^"]+)"/.exec((await page('/console')).html)![1]!;
  return {
    username,
    cookie,
    csrf,
    page,
    async post(path, fields = {}) {
      const res = await fetch(`${adminUrl}${path}`, {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
        redirect: 'manual',
      });
      return { status: res.status, html: await res.text(), location: res.headers.get('location') };
    },
  };
}
