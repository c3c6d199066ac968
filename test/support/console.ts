import { cliJson } from '../webhooks/webhook-fixtures.js';

/** Adds a console user through the CLI (`console user add`) and returns the password it printed once. */
export async function addConsoleUser(name: string, role: 'support' | 'operator'): Promise<string> {
  const added = await cliJson('console', 'user', 'add', '--name', name, '--role', role);
  return String(added.password);
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
export async function consoleSession(adminUrl: string, name: string, role: 'support' | 'operator'): Promise<string> {
  const signedIn = await signInToConsole(adminUrl, name, await addConsoleUser(name, role));
  const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('console_session='));
  if (!cookie) throw new Error(`signing in as ${name} set no session cookie (status ${signedIn.status})`);
  return cookie.split(';')[0]!;
}
