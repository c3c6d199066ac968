import type { Router } from 'express';
import { exactRouter } from './console/console-authorization.js';
import type { ServiceMetrics } from '@payout/telemetry';

/** GET /metrics: Prometheus, on the admin listener only (the merchant port does not serve it). */
export function metricsRoutes(deps: { metrics: ServiceMetrics }): Router {
  const router = exactRouter();
  router.get('/metrics', async (_req, res) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  return router;
}
