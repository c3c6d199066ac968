import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Logger, ServiceMetrics } from '@payout/telemetry';
import { metricsRoutes } from '../admin/metrics-routes.js';
import { errorHandler, notFound } from '../http/error-handler.js';
import { requestContext } from '../http/request-context.js';

/**
 * The metrics listener (docs/operations.md, "The admin listener"): GET /metrics and nothing else, on
 * METRICS_HOST:METRICS_PORT, so Prometheus is let through to this port alone and never reaches the console
 * or /admin/… on the admin listener.
 */
export function createMetricsApp(deps: { metrics: ServiceMetrics; logger: Logger }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.use(requestContext(deps.logger));
  app.use(helmet());
  app.use(metricsRoutes(deps));
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
