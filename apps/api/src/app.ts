import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Redis } from 'ioredis';
import type { PrismaClient } from '@payout/db';
import type { PayoutProducer } from '@payout/queue';
import type { Logger } from '@payout/telemetry';
import type { CredentialStore } from './auth/credential-store.js';
import { collectionRoutes } from './collections/collection-routes.js';
import { errorHandler, notFound } from './http/error-handler.js';
import { requestContext } from './http/request-context.js';
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
}

/** The merchant API: request context and security headers, the five endpoints, then 404 and errors. */
export function createApp(deps: ApiDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(requestContext(deps.logger));
  app.use(helmet());
  app.use(collectionRoutes(deps));
  app.use(payoutRoutes(deps));
  app.use(walletRoutes(deps));
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
