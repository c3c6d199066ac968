import { describe, expect, it } from 'vitest';
import { useApi } from '../support/api.js';
import { addConsoleUser, signInToConsole } from '../support/console.js';

// Console sign-in floods (docs/operations.md, "Support console"): one address spraying guesses over many
// usernames is stopped by its own allowance, and password checks beyond the hashing cap are refused at
// once instead of queuing CPU work. The admin listener trusts the loopback proxy here, so X-Forwarded-For
// says which client address a sign-in comes from.

const ADDRESS_ATTEMPTS = 4;
const api = useApi({
  ADMIN_TRUST_PROXY: 'loopback',
  CONSOLE_SIGNIN_ATTEMPTS: '3',
  CONSOLE_SIGNIN_ADDRESS_ATTEMPTS: String(ADDRESS_ATTEMPTS),
  CONSOLE_SIGNIN_MAX_HASHING: '1',
});

let people = 0;
async function person(): Promise<{ name: string; password: string }> {
  people += 1;
  const name = `flood-${process.pid}-${people}`;
  return { name, password: (await addConsoleUser(name, 'support')).password };
}

// Client addresses (TEST-NET-3), one per role; the file's own queue prefix keeps other files' counts apart.
const SPRAYER = '203.0.113.10';
const ELSEWHERE = '203.0.113.11';
const PATIENT = '203.0.113.12';
const from = (address: string) => ({ 'X-Forwarded-For': address });

describe('console sign-in floods', () => {
  it('when one address sprays wrong passwords over many usernames, then it gets 429 while another address still signs in', async () => {
    const { name, password } = await person();

    // One guess per username: every pair stays far under its own allowance of 3.
    const guesses: number[] = [];
    for (let i = 0; i < ADDRESS_ATTEMPTS; i++) {
      const response = await signInToConsole(api.current.adminUrl, `nobody-${i}-${people}`, 'guess', from(SPRAYER));
      guesses.push(response.status);
    }
    expect(guesses).toEqual(Array(ADDRESS_ATTEMPTS).fill(401));

    const nextGuess = await signInToConsole(api.current.adminUrl, `nobody-next-${people}`, 'guess', from(SPRAYER));
    expect(nextGuess.status).toBe(429);
    expect(Number(nextGuess.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await nextGuess.text()).toContain('Too many failed sign-ins');
    // Past the address's allowance even a right password from it waits.
    expect((await signInToConsole(api.current.adminUrl, name, password, from(SPRAYER))).status).toBe(429);

    const signedIn = await signInToConsole(api.current.adminUrl, name, password, from(ELSEWHERE));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/console');
  });

  it('when as many password checks are computing as allowed, then a further sign-in is answered 503 at once, and signs in once a check ends', async () => {
    const { name, password } = await person();
    // The one hashing slot, held by a check that ends only when this test says so.
    let endCheck!: () => void;
    const ended = new Promise<void>((resolve) => (endCheck = resolve));
    const held = api.current.adminDeps.signIn.withHashingSlot(() => ended);
    expect(held).toBeDefined();

    let heldSettled = false;
    void held!.then(() => (heldSettled = true));
    const refused = await signInToConsole(api.current.adminUrl, name, password, from(PATIENT));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.text()).toContain('busy checking other sign-ins');
    // Answered while the slot was still held: it was refused, not queued behind the check.
    expect(heldSettled).toBe(false);
    expect(refused.headers.getSetCookie().some((c) => c.startsWith('console_session='))).toBe(false);

    endCheck();
    await held;
    // With the slot free again, the same sign-in goes through.
    const signedIn = await signInToConsole(api.current.adminUrl, name, password, from(PATIENT));
    expect(signedIn.status).toBe(303);
  });
});
