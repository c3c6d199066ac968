import { Router } from 'express';
import type { Redis } from 'ioredis';
import type { PrismaClient } from '@payout/db';
import { probeDependency, type ServiceMetrics } from '@payout/telemetry';
import { sendJson } from '../http/send-json.js';

/**
 * GET /healthz: the process is alive. GET /readyz: it can serve, PostgreSQL and Redis both answer (a load
 * balancer takes an instance out while either is unreachable). GET /metrics: Prometheus.
 */
export function healthRoutes(deps: { db: PrismaClient; redis: Redis; metrics: ServiceMetrics }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    sendJson(res, 200, { error: false, status_code: 200, status: 'OK' });
  });
  router.get('/readyz', async (_req, res) => {
    const [postgres, redis] = await Promise.all([
      probeDependency(() => deps.db.$queryRaw`SELECT 1`),
      probeDependency(() => deps.redis.ping()),
    ]);
    const ready = postgres === 'ok' && redis === 'ok';
    const code = ready ? 200 : 503;
    sendJson(res, code, {
      error: !ready,
      status_code: code,
      status: ready ? 'OK' : 'SERVICE UNAVAILABLE',
      checks: { postgres, redis },
    });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  return router;
}
