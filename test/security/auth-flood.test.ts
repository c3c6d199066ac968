import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { apiConfigSchema, loadConfig } from '@payout/config';
import { startApi } from '@payout/api';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { impsBody, useApi } from '../support/api.js';

// Floods before authentication (docs/operations.md): made-up MIDs sent as fast as the attacker can. Every
// address of 127.0.0.0/8 reaches the loopback interface, so a client bound to 127.0.0.2 is another client
// address to the API, with no header to trust.
const FAILURE_LIMIT = 20;
const prisma = testPrisma();
// A short credential cache, so the real merchant's credentials are read again during the floods.
const api = useApi({
  AUTH_FAILURE_LIMIT: String(FAILURE_LIMIT),
  AUTH_FAILURE_WINDOW_MS: '60000',
  AUTH_CACHE_TTL_MS: '200',
});
afterAll(() => prisma.$disconnect());

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
afterAll(() => agent.destroy());

interface Answer {
  status: number;
  retryAfter: string | undefined;
}

function postPayout(
  from: string,
  mid: string,
  token: string,
  extraHeaders: Record<string, string> = {},
  port = api.current.port,
): Promise<Answer> {
  const body = JSON.stringify(impsBody({ Amount: '1.00' }));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: 'POST',
        path: '/api/impspayout',
        agent,
        headers: {
          ...extraHeaders,
          MID: mid,
          Token: token,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const randomMid = () => `X${randomBytes(8).toString('hex')}`;
const randomToken = () => `pgt_${randomBytes(32).toString('base64url')}`;

/** `count` payouts of the real merchant, one after another, from 127.0.0.1: their statuses and latencies. */
async function realPayouts(merchant: TestMerchant, count: number): Promise<{ statuses: number[]; ms: number[] }> {
  const statuses: number[] = [];
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    statuses.push((await postPayout('127.0.0.1', merchant.mid, merchant.token)).status);
    ms.push(performance.now() - started);
  }
  return { statuses, ms };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Sends made-up MIDs from `addresses`, `perAddress` requests each (or until stopped), `parallel` at a time each. */
async function flood(
  addresses: string[],
  options: { perAddress: number; parallel: number; stop?: () => boolean },
): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  await Promise.all(
    addresses.flatMap((address) => {
      let sent = 0;
      return Array.from({ length: options.parallel }, async () => {
        while (sent < options.perAddress && !options.stop?.()) {
          sent++;
          const { status } = await postPayout(address, randomMid(), randomToken());
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      });
    }),
  );
  return statuses;
}

function report(figures: Record<string, unknown>): void {
  // Figures for docs/operations.md; printed only when asked, the assertions below do not depend on them.
  if (process.env.PRINT_FIGURES) process.stdout.write(`${JSON.stringify(figures)}\n`);
}

describe('a flood of made-up MIDs', () => {
  it('when it comes from one address, then it is limited after its failure allowance while a real merchant’s payouts keep their latency', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    await realPayouts(merchant, 5); // warm up connections and caches
    const quiet = await realPayouts(merchant, 40);

    let stopped = false;
    const flooding = flood(['127.0.0.2'], { perAddress: Number.POSITIVE_INFINITY, parallel: 16, stop: () => stopped });
    const loud = await realPayouts(merchant, 40);
    stopped = true;
    const statuses = await flooding;

    expect(quiet.statuses.every((s) => s === 202)).toBe(true);
    expect(loud.statuses.every((s) => s === 202)).toBe(true);
    // Each request of the flood was a failure until the allowance ran out (at most one per connection in
    // flight past it), then refused before any credential was looked at.
    const unauthenticated = statuses.get(401) ?? 0;
    const limited = statuses.get(429) ?? 0;
    expect(unauthenticated).toBeGreaterThanOrEqual(FAILURE_LIMIT);
    expect(unauthenticated).toBeLessThanOrEqual(FAILURE_LIMIT + 16);
    expect(limited).toBeGreaterThan(unauthenticated);
    expect([...statuses.keys()].sort()).toEqual([401, 429]);
    // Generous: the figure that matters is the ratio, reported below.
    expect(percentile(loud.ms, 50)).toBeLessThan(2_000);

    // The limited address is refused before authentication, even with real credentials this process has
    // not yet seen succeed; the merchant it has served is not held to the flooder's allowance.
    const unseen = await makeMerchant(prisma, { balance: '10000.00' });
    const fromFlooder = await postPayout('127.0.0.2', unseen.mid, unseen.token);
    expect(fromFlooder.status).toBe(429);
    expect(Number(fromFlooder.retryAfter)).toBeGreaterThan(0);
    expect((await postPayout('127.0.0.2', merchant.mid, merchant.token)).status).toBe(202);

    const metrics = await api.current.deps.metrics.registry.metrics();
    expect(metrics).toMatch(/auth_throttled_total\{reason="address_limited",app="api"\} [1-9]/);
    report({
      scenario: 'one address',
      floodRequests: unauthenticated + limited,
      unauthenticated,
      limited,
      quietP50ms: percentile(quiet.ms, 50),
      quietP95ms: percentile(quiet.ms, 95),
      floodP50ms: percentile(loud.ms, 50),
      floodP95ms: percentile(loud.ms, 95),
    });
  });

  it('when it comes from many addresses each under its allowance, then the look-up cap holds it and a real merchant’s payouts still go through', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    await realPayouts(merchant, 5);
    const quiet = await realPayouts(merchant, 40);

    const addresses = Array.from({ length: 40 }, (_, i) => `127.0.1.${i + 1}`);
    let stopped = false;
    const flooding = flood(addresses, { perAddress: FAILURE_LIMIT - 1, parallel: 4, stop: () => stopped });
    const loud = await realPayouts(merchant, 40);
    stopped = true;
    const statuses = await flooding;

    expect(loud.statuses.every((s) => s === 202)).toBe(true);
    // Unknown MIDs are 401, or 503 when the look-ups were saturated; never anything else.
    expect([...statuses.keys()].every((s) => s === 401 || s === 503)).toBe(true);
    expect(percentile(loud.ms, 50)).toBeLessThan(2_000);
    report({
      scenario: '40 addresses',
      floodRequests: [...statuses.values()].reduce((a, b) => a + b, 0),
      statuses: Object.fromEntries(statuses),
      quietP50ms: percentile(quiet.ms, 50),
      quietP95ms: percentile(quiet.ms, 95),
      floodP50ms: percentile(loud.ms, 50),
      floodP95ms: percentile(loud.ms, 95),
    });
  });
});

describe('the client address behind proxies', () => {
  it('when no proxy is trusted (TRUST_PROXY_HOPS=0), then a made-up X-Forwarded-For does not escape the limit', async () => {
    const answers: number[] = [];
    for (let i = 0; i <= FAILURE_LIMIT; i++) {
      const spoofed = { 'X-Forwarded-For': `198.51.100.${i + 1}` };
      answers.push((await postPayout('127.0.0.3', randomMid(), randomToken(), spoofed)).status);
    }
    expect(answers.slice(0, FAILURE_LIMIT).every((s) => s === 401)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });

  it('when one proxy is trusted (TRUST_PROXY_HOPS=1), then clients behind it are told apart by the address it reports', async () => {
    const behindProxy = await startApi(
      loadConfig(apiConfigSchema, {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        TRUST_PROXY_HOPS: '1',
        AUTH_FAILURE_LIMIT: '3',
      }),
    );
    try {
      const from = (client: string) =>
        postPayout('127.0.0.4', randomMid(), randomToken(), { 'X-Forwarded-For': client }, behindProxy.port);
      const flooder: number[] = [];
      for (let i = 0; i < 4; i++) flooder.push((await from('203.0.113.9')).status);
      expect(flooder).toEqual([401, 401, 401, 429]);
      // Another client through the same proxy (same socket address) is not held to the flooder's count.
      expect((await from('203.0.113.10')).status).toBe(401);
    } finally {
      await behindProxy.close();
    }
  });
});
