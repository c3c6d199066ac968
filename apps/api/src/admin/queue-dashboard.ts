import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import type { RequestHandler, Router } from 'express';
import helmet from 'helmet';
import { AppError, mayAct } from '@payout/domain';
import { presentsAdminToken } from './admin-auth.js';
import { exactRouter } from './console/console-authorization.js';
import { viewerOf } from './console/console-session.js';

const BASE_PATH = '/admin/queues';

/**
 * The BullMQ dashboard of every queue at /admin/queues: full (retry, clean, promote) for operators and
 * for the admin token, read-only for support. Both boards are built once and the request's role picks one.
 * With `readOnly` (production) it is read-only for everyone: a job retried or promoted by hand is a payout
 * moved by one person outside the four-eyes rule, so production acts on jobs only through the console's
 * own actions (docs/operations.md, "Approvals"). bull-board then refuses every job action (405).
 */
export function queueDashboard(deps: { queues: Queue[]; adminToken: string; readOnly?: boolean }): Router {
  const board = (readOnlyMode: boolean) => {
    const adapter = new ExpressAdapter();
    adapter.setBasePath(BASE_PATH);
    createBullBoard({
      queues: deps.queues.map((q) => new BullMQAdapter(q, { readOnlyMode })),
      serverAdapter: adapter,
    });
    return adapter.getRouter() as RequestHandler;
  };
  const readOnly = board(true);
  const full = deps.readOnly ? readOnly : board(false);
  const holdsToken = presentsAdminToken(deps.adminToken);

  const router = exactRouter();
  router.use(
    BASE_PATH,
    // The dashboard is a browser application with inline bootstrapping; it gets its own, looser policy.
    helmet({
      contentSecurityPolicy: {
        directives: { 'script-src': ["'self'", "'unsafe-inline'"], 'img-src': ["'self'", 'data:'] },
      },
    }),
    (req, res, next) => {
      if (holdsToken(req)) return full(req, res, next);
      const viewer = viewerOf(res);
      // A bearer credential sends no CSRF token, so it gets the board that changes nothing.
      if (viewer) return (viewer.via === 'console' && mayAct(viewer.user.role) ? full : readOnly)(req, res, next);
      res.setHeader('WWW-Authenticate', 'Basic realm="payout-gateway admin", charset="UTF-8"');
      throw new AppError('UNAUTHENTICATED', 'Sign in to the console at /console/login, or send the admin token.');
    },
  );
  return router;
}
