import type { Router } from 'express';
import { exactRouter } from './console/console-authorization.js';
import type { ServiceMetrics } from '@payout/telemetry';

/** GET /metrics: Prometheus, on the metrics listener only (operations/metrics-app.ts), never the merchant or admin port. */
export function metricsRoutes(deps: { metrics: ServiceMetrics }): Router {
  const router = exactRouter();
  router.get('/metrics', async (_req, res) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
  });
  return router;
}
