import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { useApi } from '../support/api.js';

// The per-address failure allowance (docs/operations.md, "Floods before authentication") must not lock a
// merchant out because someone else at its address (a NAT, a shared egress) sent bad tokens: a MID and token
// this API process has already seen succeed are not held to the address's allowance. Every address of
// 127.0.0.0/8 reaches the loopback interface, so a client bound to 127.0.0.6 is one client address.

const FAILURE_LIMIT = 5;
const SHARED_ADDRESS = '127.0.0.6';
const prisma = testPrisma();
const api = useApi({ AUTH_FAILURE_LIMIT: String(FAILURE_LIMIT), AUTH_FAILURE_WINDOW_MS: '60000' });
afterAll(() => prisma.$disconnect());

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
afterAll(() => agent.destroy());

/** GET the wallet lookup from `from` with these credentials: the HTTP status. */
function walletLookup(from: string, mid: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: api.current.port,
        localAddress: from,
        path: '/api/checkMainWallet?PayoutType=Main_Wallet_Balance',
        agent,
        headers: { MID: mid, Token: token },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const randomMid = () => `X${randomBytes(8).toString('hex')}`;
const randomToken = () => `pgt_${randomBytes(32).toString('base64url')}`;

async function addressLimitedCount(): Promise<number> {
  const metrics = await api.current.deps.metrics.registry.metrics();
  return Number(/auth_throttled_total\{reason="address_limited",app="api"\} (\d+)/.exec(metrics)?.[1] ?? 0);
}

describe('a known credential at an address that used up its failures', () => {
  it('when someone else at the merchant’s address exhausts its allowance with bad tokens, then the merchant keeps getting 200 and only unproven credentials get 429', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    expect(await walletLookup(SHARED_ADDRESS, merchant.mid, merchant.token)).toBe(200);

    // Bad tokens from the same address: made-up MIDs, and the real MID with a guessed token.
    const failures: number[] = [];
    for (let i = 0; i < FAILURE_LIMIT; i++) {
      const mid = i % 2 === 0 ? randomMid() : merchant.mid;
      failures.push(await walletLookup(SHARED_ADDRESS, mid, randomToken()));
    }
    expect(failures).toEqual(Array(FAILURE_LIMIT).fill(401));
    const limitedBefore = await addressLimitedCount();
    expect(await walletLookup(SHARED_ADDRESS, randomMid(), randomToken())).toBe(429);
    expect(await walletLookup(SHARED_ADDRESS, merchant.mid, randomToken())).toBe(429);

    const merchantAnswers: number[] = [];
    for (let i = 0; i < 10; i++) merchantAnswers.push(await walletLookup(SHARED_ADDRESS, merchant.mid, merchant.token));
    expect(merchantAnswers).toEqual(Array(10).fill(200));

    // The merchant's own requests neither counted against the address nor lifted its refusal.
    expect(await walletLookup(SHARED_ADDRESS, merchant.mid, randomToken())).toBe(429);
    expect(await addressLimitedCount()).toBe(limitedBefore + 3);
  });

  it('when a merchant this process has never served sends from an address that used up its failures, then it is refused like any unproven credential', async () => {
    const address = '127.0.0.7';
    for (let i = 0; i < FAILURE_LIMIT; i++) expect(await walletLookup(address, randomMid(), randomToken())).toBe(401);
    const unseen = await makeMerchant(prisma, { balance: '100.00' });
    expect(await walletLookup(address, unseen.mid, unseen.token)).toBe(429);
    // From its own address it is served, and from then on its credential is known good everywhere.
    expect(await walletLookup('127.0.0.1', unseen.mid, unseen.token)).toBe(200);
    expect(await walletLookup(address, unseen.mid, unseen.token)).toBe(200);
  });
});
