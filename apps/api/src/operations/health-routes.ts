import { Router } from 'express';
import type { RedisConnection } from '@payout/queue';
import type { PrismaClient } from '@payout/db';
import { probeDependency, type ServiceMetrics } from '@payout/telemetry';
import { sendJson } from '../http/send-json.js';

/**
 * GET /healthz: the process is alive. GET /readyz: it can serve, which takes PostgreSQL (the source of
 * truth: nothing is accepted or answered without it). Redis is probed and reported in the body and in
 * `dependency_up`, but its absence does not make the API unready: accepted payouts are queued by the
 * sweeper and the rate limiter falls back to memory, so taking every instance out of the balancer for a
 * Redis outage would turn a degraded service into none (docs/operations.md). Served on the merchant port
 * and on the admin listener; /metrics is on the admin listener only (admin/metrics-routes.ts).
 */
export function healthRoutes(deps: { db: PrismaClient; redis: RedisConnection; metrics: ServiceMetrics }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    sendJson(res, 200, { error: false, status_code: 200, status: 'OK' });
  });
  router.get('/readyz', async (_req, res) => {
    const [postgres, redis] = await Promise.all([
      probeDependency(() => deps.db.$queryRaw`SELECT 1`),
      probeDependency(() => deps.redis.ping()),
    ]);
    deps.metrics.dependencyUp.set({ dependency: 'postgres' }, postgres === 'ok' ? 1 : 0);
    deps.metrics.dependencyUp.set({ dependency: 'redis' }, redis === 'ok' ? 1 : 0);
    const ready = postgres === 'ok';
    const code = ready ? 200 : 503;
    sendJson(res, code, {
      error: !ready,
      status_code: code,
      status: ready ? 'OK' : 'SERVICE UNAVAILABLE',
      checks: { postgres, redis },
      ...(ready && redis !== 'ok' && { degraded: ['redis'] }),
    });
  });
  return router;
}
