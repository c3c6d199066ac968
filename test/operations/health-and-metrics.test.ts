import { afterAll, describe, expect, it } from 'vitest';
import { apiConfigSchema, loadConfig } from '@payout/config';
import { startApi } from '@payout/api';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody, upiBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { PrivateRedis } from '../support/private-redis.js';
import { useStack } from '../support/stack.js';

const prisma = testPrisma();
const stack = useStack();
afterAll(() => prisma.$disconnect());

/** The value of one sample of a Prometheus text exposition, or 0 if absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

describe('health, readiness and metrics', () => {
  it('when the API is asked, then /healthz and /readyz answer OK with PostgreSQL and Redis checked', async () => {
    const health = await call(stack.current.api, '/healthz');
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ error: false, status_code: 200, status: 'OK' });
    const ready = await call(stack.current.api, '/readyz');
    expect(ready.json).toEqual({
      error: false,
      status_code: 200,
      status: 'OK',
      checks: { postgres: 'ok', redis: 'ok' },
    });
  });

  it('when Redis is down, then /readyz stays 200 and reports Redis as degraded, in its body and its metric', async () => {
    const redis = await PrivateRedis.start();
    const api = await startApi(
      loadConfig(apiConfigSchema, { ...process.env, PORT: '0', HOST: '127.0.0.1', REDIS_URL: redis.url }),
    );
    try {
      await redis.stop();
      const ready = await call(api, '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.json).toMatchObject({
        error: false,
        status_code: 200,
        status: 'OK',
        checks: { postgres: 'ok' },
        degraded: ['redis'],
      });
      expect((ready.json.checks as { redis: string }).redis).not.toBe('ok');
      const metrics = await api.deps.metrics.registry.metrics();
      expect(sample(metrics, 'dependency_up', { dependency: 'redis' })).toBe(0);
      expect(metrics).toMatch(/dependency_up\{dependency="postgres",app="api"\} 1/);
      expect((await call(api, '/healthz')).status).toBe(200);
    } finally {
      await api.close();
      await redis.destroy();
    }
  });

  it('when payouts flow, then the API and worker metrics move', async () => {
    const before = await (await fetch(`${stack.current.api.metricsUrl}/metrics`)).text();
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    await call(stack.current.api, '/api/impspayout', { merchant, body: impsBody({ Amount: '1.00' }) });
    await call(stack.current.api, '/api/payout', { merchant, body: upiBody({ Amount: '1.11' }) });
    await call(stack.current.api, '/api/payout', { merchant, body: upiBody({ Amount: '1000.00' }) });

    const after = await (await fetch(`${stack.current.api.metricsUrl}/metrics`)).text();
    const accepted = (t: string, mode: string, outcome: string) =>
      sample(t, 'payouts_accepted_total', { mode, outcome });
    expect(accepted(after, 'IMPS', 'accepted') - accepted(before, 'IMPS', 'accepted')).toBe(1);
    expect(accepted(after, 'UPI', 'rejected') - accepted(before, 'UPI', 'rejected')).toBe(1);
    expect(
      sample(after, 'http_request_duration_seconds_count', { route: '/api/impspayout', status_code: '202' }),
    ).toBeGreaterThan(0);

    const workerMetrics = `http://127.0.0.1:${stack.current.worker.healthPort}/metrics`;
    const settled = await eventually(
      async () => (await fetch(workerMetrics)).text(),
      (t) =>
        sample(t, 'payouts_settled_total', { mode: 'UPI', outcome: 'FAILED' }) >= 1 &&
        sample(t, 'payouts_settled_total', { mode: 'IMPS', outcome: 'SUCCESS' }) >= 1,
      { what: 'settlement metrics' },
    );
    expect(
      sample(settled, 'rail_request_duration_seconds_count', { operation: 'submit', outcome: 'SUCCESS' }),
    ).toBeGreaterThan(0);
    expect(
      sample(settled, 'payout_accept_to_settle_seconds_count', { mode: 'IMPS', outcome: 'SUCCESS' }),
    ).toBeGreaterThan(0);
    expect(settled).toMatch(/queue_jobs\{[^}]*state="waiting"/);
  });

  it('when the worker is asked, then its /healthz and /readyz answer OK', async () => {
    const base = `http://127.0.0.1:${stack.current.worker.healthPort}`;
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ error: false, status_code: 200, status: 'OK' });
    expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({
      status: 'OK',
      checks: { postgres: 'ok', redis: 'ok' },
    });
  });
});
