import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { PrismaClient } from '@payout/db';
import type { PayoutProducer } from '@payout/queue';
import type { Logger, ServiceMetrics } from '@payout/telemetry';
import type { CredentialStore } from './auth/credential-store.js';
import { payinCallbackRoutes } from './callbacks/payin-callback-routes.js';
import { collectionRoutes } from './collections/collection-routes.js';
import { errorHandler, notFound } from './http/error-handler.js';
import { requestContext } from './http/request-context.js';
import { requestMetrics } from './http/request-metrics.js';
import { apiDocsRoutes } from './openapi/api-docs-routes.js';
import { adminRoutes } from './operations/admin-routes.js';
import { healthRoutes } from './operations/health-routes.js';
import type { PayoutAccepter } from './payouts/payout-accepter.js';
import { payoutRoutes } from './payouts/payout-routes.js';
import { walletRoutes } from './wallet/wallet-routes.js';

/** Everything the API's routes need, built once by main.ts (or by a test). */
export interface ApiDependencies {
  db: PrismaClient;
  /** The producer's Redis connection (fails fast while Redis is away). */
  redis: Redis;
  producer: PayoutProducer;
  credentials: CredentialStore;
  accepter: PayoutAccepter;
  logger: Logger;
  metrics: ServiceMetrics;
  /** Per-merchant rate limit, or null when disabled. */
  rateLimit: RequestHandler | null;
  /** The support console's bearer token. */
  adminToken: string;
  /** The webhook deliveries' queue, shown in the support console (the worker produces and consumes it). */
  webhookQueue: Queue;
  /** The collection provider's shared secret: pay-in callbacks are signed with it. */
  payinCallbackSecret: string;
}

/**
 * The API: request context, metrics and security headers; the operator surfaces and provider callbacks,
 * each with its own authentication; the five merchant endpoints; then 404 and the error mapper.
 */
export function createApp(deps: ApiDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(requestContext(deps.logger));
  app.use(requestMetrics(deps.metrics));
  app.use(helmet());
  app.use(healthRoutes(deps));
  app.use(adminRoutes({ db: deps.db, queues: [deps.producer.queue, deps.webhookQueue], adminToken: deps.adminToken }));
  app.use(apiDocsRoutes());
  app.use(payinCallbackRoutes(deps));
  app.use(collectionRoutes(deps));
  app.use(payoutRoutes(deps));
  app.use(walletRoutes(deps));
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
