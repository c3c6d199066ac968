import type { Queue } from 'bullmq';
import express, { type Express, type RequestHandler } from 'express';
import type { RedisConnection } from '@payout/queue';
import type { PrismaClient } from '@payout/db';
import type { WebhookDestinationPolicy } from '@payout/domain';
import type { PayoutProducer } from '@payout/queue';
import type { Logger, ServiceMetrics } from '@payout/telemetry';
import type { AuthFailureLimit } from './auth/auth-failure-limit.js';
import type { CredentialStore } from './auth/credential-store.js';
import { beneficiaryRoutes } from './beneficiaries/beneficiary-routes.js';
import type { BeneficiaryValidator } from './beneficiaries/beneficiary-validator.js';
import { bulkPayoutRoutes } from './bulk/bulk-routes.js';
import { payinCallbackRoutes } from './callbacks/payin-callback-routes.js';
import { collectionRoutes } from './collections/collection-routes.js';
import { dashboardRoutes } from './dashboard/dashboard-routes.js';
import { downtimeRoutes } from './downtimes/downtime-routes.js';
import { eventFeedRoutes } from './events/event-feed-routes.js';
import { errorHandler, notFound } from './http/error-handler.js';
import { requestContext } from './http/request-context.js';
import { requestMetrics } from './http/request-metrics.js';
import { securityHeaders } from './http/security-headers.js';
import { serveDirectly } from './http/direct-routes.js';
import { apiDocsRoutes } from './openapi/api-docs-routes.js';
import { healthRoutes } from './operations/health-routes.js';
import type { PayoutAccepter, SecondFactorSettings } from '@payout/use-cases';
import type { SignInLimiter } from './admin/console/sign-in-limiter.js';
import { payoutListRoutes } from './payouts/payout-list-routes.js';
import { cancelPayoutRoutes } from './payouts/cancel-routes.js';
import { payoutRoutes, payoutRouteTable } from './payouts/payout-routes.js';
import { tokenRoutes } from './tokens/token-routes.js';
import { statementRoutes } from './wallet/statement-routes.js';
import { walletRoutes } from './wallet/wallet-routes.js';

/** Everything the API's routes need, built once by main.ts (or by a test). */
export interface ApiDependencies {
  db: PrismaClient;
  /** A streaming replica for the status and wallet lookups and the payout list (READ_DATABASE_URL), or undefined. */
  readDb?: PrismaClient | undefined;
  /** The producer's Redis connection (fails fast while Redis is away). */
  redis: RedisConnection;
  producer: PayoutProducer;
  /** The webhooks queue: a merchant's cancel nudges its webhook's first attempt there. */
  webhookQueue: Queue;
  credentials: CredentialStore;
  accepter: PayoutAccepter;
  logger: Logger;
  metrics: ServiceMetrics;
  /** Per-merchant rate limit, or null when disabled. */
  rateLimit: RequestHandler | null;
  /** Per-address limit on failed authentications, or null when disabled. */
  authFailures: AuthFailureLimit | null;
  /** The collection provider's shared secret: pay-in callbacks are signed with it. */
  payinCallbackSecret: string;
  /** Asks the rail about beneficiaries, with a cache (the validation endpoints). */
  beneficiaryValidator: BeneficiaryValidator;
  /** The merchant dashboard's sign-in limits and second-factor keys (docs/dashboard.md, "Sessions"). */
  dashboardPeople: DashboardPeopleDependencies;
  /** Where a merchant's webhook may point (WEBHOOK_ALLOW_PRIVATE_ADDRESSES): the dashboard's webhook page moves it. */
  webhookDestinations: WebhookDestinationPolicy;
}

/** What signing in and enrolling on the merchant dashboard need, beside the database. */
export interface DashboardPeopleDependencies {
  /** Failed sign-ins per e-mail and address, per address, and the cap on password hashes computing at once. */
  signIn: SignInLimiter;
  /** The sealing keys of the people's TOTP seeds and the issuer their authenticator apps show. */
  secondFactor: SecondFactorSettings;
}

/**
 * The merchant API: request context, metrics and security headers; health, docs and provider callbacks;
 * the merchant endpoints; then 404 and the error mapper. The operator surfaces (console, /admin/…, the
 * queue dashboard, /metrics) are on the admin listener only (admin/admin-app.ts).
 */
export function createApp(deps: ApiDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  const everyRequest = [requestContext(deps.logger), requestMetrics(deps.metrics), securityHeaders()];
  app.use(...everyRequest);
  // The payout endpoints first: they carry nearly all the traffic, and every router in front of them costs
  // each of their requests a pass over its routes (docs/performance.md, "Request context and logging"). No two
  // routers share a path, so the order changes no answer.
  const payoutTable = payoutRouteTable(deps);
  app.use(payoutRoutes(payoutTable));
  app.use(healthRoutes(deps));
  app.use(apiDocsRoutes());
  app.use(payinCallbackRoutes(deps));
  app.use(collectionRoutes(deps));
  app.use(bulkPayoutRoutes(deps));
  app.use(beneficiaryRoutes(deps));
  app.use(walletRoutes(deps));
  app.use(statementRoutes(deps));
  app.use(tokenRoutes(deps));
  app.use(downtimeRoutes(deps));
  app.use(cancelPayoutRoutes(deps));
  app.use(payoutListRoutes(deps));
  app.use(eventFeedRoutes(deps));
  // The merchant dashboard's pages (docs/dashboard.md): its own sessions and people, apart from the console's.
  app.use(dashboardRoutes(deps));
  app.use(notFound);
  app.use(errorHandler);
  // An exact request to a payout endpoint skips the router: the same handlers, run in the same order.
  serveDirectly(
    app,
    payoutTable.map((route) => ({ ...route, handlers: [...everyRequest, ...route.handlers] })),
    errorHandler,
  );
  return app;
}
