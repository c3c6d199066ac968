import { describe, expect, it } from 'vitest';
import { useApi } from '../support/api.js';
import { addConsoleUser, signInToConsole } from '../support/console.js';

// The console's cookies over TLS carry the __Host- prefix (Secure, Path=/, no Domain), so no other host or
// plain-http page can plant them (docs/operations.md, "Support console"); over plain http (development) they
// keep their bare names. The admin listener trusts the loopback proxy here, so X-Forwarded-Proto: https is
// a request that reached the proxy over TLS.

const api = useApi({ ADMIN_TRUST_PROXY: 'loopback' });
const OVER_TLS = { 'X-Forwarded-Proto': 'https' };

let people = 0;
async function person(): Promise<{ name: string; password: string }> {
  people += 1;
  const name = `cookie-${process.pid}-${people}`;
  return { name, password: (await addConsoleUser(name, 'support')).password };
}

function cookieNamed(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
}

const pair = (cookie: string) => cookie.split(';')[0]!;

function consolePage(cookie: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${api.current.adminUrl}/console`, { headers: { ...headers, Cookie: cookie }, redirect: 'manual' });
}

describe('console cookie names', () => {
  it('when the console is reached over TLS, then the sign-in and session cookies are __Host- prefixed, Secure, Path=/ and without Domain', async () => {
    const form = await fetch(`${api.current.adminUrl}/console/login`, { headers: OVER_TLS });
    const csrfCookie = cookieNamed(form, '__Host-console_signin');
    expect(csrfCookie).toMatch(/; Path=\/(;|$)/);
    expect(csrfCookie).toMatch(/; Secure/);
    expect(csrfCookie).not.toMatch(/Domain=/i);
    expect(cookieNamed(form, 'console_signin')).toBeUndefined();

    const { name, password } = await person();
    const signedIn = await signInToConsole(api.current.adminUrl, name, password, OVER_TLS);
    expect(signedIn.status).toBe(303);
    const session = cookieNamed(signedIn, '__Host-console_session')!;
    expect(session).toMatch(/; Path=\/(;|$)/);
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/; HttpOnly/);
    expect(session).not.toMatch(/Domain=/i);
    expect(cookieNamed(signedIn, 'console_session')).toBeUndefined();

    expect((await consolePage(pair(session), OVER_TLS)).status).toBe(200);
    // Over TLS only the prefixed name is read: the same id under the bare name signs no one in.
    const bare = pair(session).replace(/^__Host-/, '');
    const refused = await consolePage(bare, OVER_TLS);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/console/login');
  });

  it('when the console is reached over plain http, then the cookies keep their bare names and a __Host- one is not read', async () => {
    const { name, password } = await person();
    const signedIn = await signInToConsole(api.current.adminUrl, name, password);
    expect(signedIn.status).toBe(303);
    const session = cookieNamed(signedIn, 'console_session')!;
    expect(session).not.toMatch(/; Secure/);
    expect(cookieNamed(signedIn, '__Host-console_session')).toBeUndefined();

    expect((await consolePage(pair(session))).status).toBe(200);
    const prefixed = `__Host-${pair(session)}`;
    expect((await consolePage(prefixed)).headers.get('location')).toBe('/console/login');
  });
});
