import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Queue } from 'bullmq';
import type { PayoutProducer, RedisConnection } from '@payout/queue';
import type { PrismaClient } from '@payout/db';
import type { ApprovalSettings } from '@payout/use-cases';
import type { WebhookDestinationPolicy } from '@payout/domain';
import type { BankSettings } from '@payout/config';
import type { BankRails } from '@payout/rails';
import type { Logger, ServiceMetrics } from '@payout/telemetry';
import { errorHandler, notFound } from '../http/error-handler.js';
import { requestContext } from '../http/request-context.js';
import { healthRoutes } from '../operations/health-routes.js';
import { adminJsonRoutes } from './admin-json-routes.js';
import { discrepancyJsonRoutes } from './json/discrepancy-routes.js';
import { merchantJsonRoutes } from './json/merchant-routes.js';
import { merchantPeopleJsonRoutes } from './json/merchant-people-routes.js';
import { payoutJsonRoutes } from './json/payout-routes.js';
import { merchantAccessRoutes } from './json/merchant-access-routes.js';
import { auditRefusal } from './console/console-authorization.js';
import { bankJsonRoutes } from './json/bank-routes.js';
import { bulkJsonRoutes } from './json/bulk-routes.js';
import { consoleRoutes, consoleSession } from './console/console-routes.js';
import { viewerOf } from './console/console-session.js';
import type { SignInLimiter } from './console/sign-in-limiter.js';
import { statementBreakJsonRoutes } from './json/statement-break-routes.js';
import { statementRoutes, type StatementRouteSettings } from './json/statement-routes.js';
import { peopleRoutes } from './json/people-routes.js';
import { queueDashboard } from './queue-dashboard.js';

/** Everything the admin listener needs; the merchant app and this one share services, never routes. */
export interface AdminDependencies {
  db: PrismaClient;
  redis: RedisConnection;
  logger: Logger;
  metrics: ServiceMetrics;
  adminToken: string;
  payoutQueue: Queue;
  /** Queues the jobs of the payouts an approved bulk batch accepted, after its commit. */
  producer: PayoutProducer;
  webhookQueue: Queue;
  /** Every configured bank's adapter (docs/banks.md): a resolution asks the payout's own bank. */
  rails: BankRails<BankSettings>;
  signIn: SignInLimiter;
  sessionTtlMs: number;
  /** How long a CLI sign-in (POST /admin/sign-in) lasts. */
  cliSignInTtlMs: number;
  approvals: ApprovalSettings;
  /** Applying statement runs (`POST /admin/statements`): the settlement account, production's checks, the body limit. */
  statements: StatementRouteSettings;
  /** Where a person may point a merchant's webhook; by default the production rules (https, public addresses). */
  webhookDestinations?: WebhookDestinationPolicy;
  /** The queue dashboard is read-only for everyone (production). */
  queueDashboardReadOnly?: boolean;
  /** Express's `trust proxy`, so a console behind a TLS-terminating proxy sets Secure cookies. */
  trustProxy?: string | number;
}

/**
 * The admin listener (docs/operations.md, "The admin listener"): the support console, /admin/… for
 * scripts and the queue dashboard, on ADMIN_HOST:ADMIN_PORT — never on the merchants' port. /metrics is on
 * the metrics listener of its own (operations/metrics-app.ts).
 */
export function createAdminApp(deps: AdminDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // Paths match exactly: `/Console/…` or `/console/…/credit/` is nothing, never another way in.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  if (deps.trustProxy !== undefined) app.set('trust proxy', deps.trustProxy);

  app.use(requestContext(deps.logger));
  // The default policy everywhere; the queue dashboard replaces its CSP with the looser one it needs.
  app.use(helmet());
  app.use(healthRoutes(deps));
  app.use(consoleSession(deps.db));
  app.use(
    queueDashboard({
      queues: [deps.payoutQueue, deps.webhookQueue],
      adminToken: deps.adminToken,
      readOnly: deps.queueDashboardReadOnly ?? false,
    }),
  );
  app.use(adminJsonRoutes(deps));
  app.use(statementRoutes(deps));
  app.use(statementBreakJsonRoutes(deps));
  // What a person does through the CLI (or a script) with their own credential (docs/operations.md, "Security model").
  app.use(
    merchantJsonRoutes({
      ...deps,
      banks: deps.rails.banks,
      webhookDestinations: deps.webhookDestinations ?? { requireHttps: true, allowPrivateAddresses: false },
    }),
  );
  app.use(merchantPeopleJsonRoutes(deps));
  app.use(bankJsonRoutes({ db: deps.db, banks: deps.rails.banks }));
  app.use(payoutJsonRoutes(deps));
  app.use(discrepancyJsonRoutes(deps));
  app.use(peopleRoutes(deps));
  app.use(bulkJsonRoutes(deps));
  app.use(merchantAccessRoutes(deps));
  app.use(consoleRoutes({ ...deps, banks: deps.rails.banks }));
  app.get('/', (_req, res) => res.redirect(303, '/console'));
  // A signed-in person posting where nothing answers is trying a path by hand: the audit log keeps it.
  app.use(async (req, _res, next) => {
    const viewer = viewerOf(_res);
    if (viewer && req.method === 'POST') await auditRefusal(deps.db, req, viewer, 'no such admin action');
    next();
  });
  app.use(notFound);
  app.use(errorHandler);
  return app;
}
