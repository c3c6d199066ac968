import { currentCode, enrollDirectly, freshSecondFactorCode, type EnrolledPerson } from './people.js';
import { testPrisma } from './database.js';

export type ConsoleRoleName = 'support' | 'operator' | 'approver';

/**
 * Adds an enrolled console user straight into this run's database — their own password and authenticator,
 * as enrollment leaves them (docs/operations.md, "People and roles") — for tests whose subject is not
 * enrollment itself.
 */
export async function addConsoleUser(name: string, role: ConsoleRoleName): Promise<EnrolledPerson> {
  const db = testPrisma();
  try {
    return await enrollDirectly(db, name, role);
  } finally {
    await db.$disconnect();
  }
}

/**
 * Signs in as a browser would: loads the form (its CSRF cookie and field), then posts it with the password
 * and a code of the person's second factor — `code` when given (`''` for none), else a fresh one of theirs, as
 * they would type it (none when there is no such person).
 */
export async function signInToConsole(
  adminUrl: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
  code?: string,
): Promise<Response> {
  code ??= await freshSecondFactorCodeIfAny(username);
  const form = await fetch(`${adminUrl}/console/login`, { headers });
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  return fetch(`${adminUrl}/console/login`, {
    method: 'POST',
    headers: { ...headers, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, username, password, ...(code && { code }) }).toString(),
    redirect: 'manual',
  });
}

async function freshSecondFactorCodeIfAny(username: string): Promise<string | undefined> {
  const db = testPrisma();
  try {
    const found = await db.consoleUser.findUnique({ where: { username }, select: { totpSealed: true } });
    if (!found?.totpSealed) return undefined;
  } finally {
    await db.$disconnect();
  }
  return freshSecondFactorCode(username);
}

/** A new console user of `role`, signed in with their password and authenticator code: the session cookie pair. */
export async function consoleSession(adminUrl: string, name: string, role: ConsoleRoleName): Promise<string> {
  const person = await addConsoleUser(name, role);
  const signedIn = await signInToConsole(adminUrl, name, person.password, {}, currentCode(person));
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
  /**
   * Posts a form with the session's CSRF token (unless `fields` sets `_csrf` itself). An approval's form is
   * posted with a fresh code of the person's second factor in its `code` field, as they would type it, unless
   * `fields` sets `code` itself.
   */
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
      const typed: Record<string, string> =
        /\/approvals\/[^/]+\/approve$/.test(path) && !('code' in fields)
          ? { code: await freshSecondFactorCode(username) }
          : {};
      const res = await fetch(`${adminUrl}${path}`, {
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, ...typed, ...fields }).toString(),
        redirect: 'manual',
      });
      return { status: res.status, html: await res.text(), location: res.headers.get('location') };
    },
  };
}
