import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { isAppError } from '@payout/domain';
import { isDatabaseUnavailable } from '@payout/db';
import { actionRoutes } from './actions/action-routes.js';
import { BULK_UPLOAD_BODY_LIMIT, BULK_UPLOAD_PATH, bulkUploadRoutes } from './bulk-upload-routes.js';
import { auditRefusal, consoleAuthorization, exactRouter } from './console-authorization.js';
import type { ConsoleDependencies } from './console-dependencies.js';
import { consoleSession, csrfMatches, viewerOf } from './console-session.js';
import { CONSOLE_STYLESHEET } from './console-stylesheet.js';
import { findRoutes } from './find-routes.js';
import { merchantRoutes } from './merchant-routes.js';
import { renderPage } from './render.js';
import { signInRoutes } from './sign-in-routes.js';
import { statementBreakRoutes } from './statement-break-routes.js';
import { todayRoutes } from './today-routes.js';
import { MessagePage } from './views/layout.js';

export type { ConsoleDependencies } from './console-dependencies.js';

/**
 * The support console (docs/operations.md, "Support console"): server-rendered pages under /console that
 * work without JavaScript. Everything but sign-in needs a session; every POST needs the session's CSRF
 * token; each page and action checks the viewer's role itself (console-authorization.tsx), and paths
 * match exactly, so no spelling of a path reaches past the role.
 */
export function consoleRoutes(deps: ConsoleDependencies) {
  const router = exactRouter();
  const { allow } = consoleAuthorization(deps.db);
  router.get('/console/assets/console.css', (_req, res) => {
    res.type('text/css').setHeader('Cache-Control', 'public, max-age=3600').send(CONSOLE_STYLESHEET);
  });
  // A bulk CSV is pasted into a form: its own, larger limit, read only once the viewer is known to be
  // allowed to submit one (then the general parser skips it).
  const readBulkUpload = express.urlencoded({ extended: false, limit: BULK_UPLOAD_BODY_LIMIT, parameterLimit: 10 });
  router.post(
    BULK_UPLOAD_PATH,
    requireViewer,
    allow('act', (_req, _res, _viewer, next) => next()),
    readBulkUpload,
  );
  router.use('/console', express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  router.use(signInRoutes(deps));
  router.use('/console', requireViewer, requireCsrfOnPost);
  router.use(findRoutes(deps));
  router.use(statementBreakRoutes(deps));
  router.use(todayRoutes(deps, allow));
  router.use(merchantRoutes(deps));
  router.use(actionRoutes({ deps, allow }));
  router.use(bulkUploadRoutes(deps, allow));
  router.use('/console', async (req, res) => {
    const viewer = viewerOf(res);
    // A post to no action is someone trying a path by hand: it goes to the audit log like a refusal.
    if (viewer && req.method === 'POST') await auditRefusal(deps.db, req, viewer, 'no such console action');
    renderPage(
      res,
      404,
      <MessagePage title="Not found" viewer={viewer}>
        <p>There is no such console page.</p>
      </MessagePage>,
    );
  });
  router.use('/console', consoleErrors);
  return router;
}

/** Loads the session (used by the console and the queue dashboard). */
export { consoleSession };

// Pages need a signed-in person: a browser is sent to sign in, anything else is told so.
const requireViewer: RequestHandler = (req, res, next) => {
  if (viewerOf(res)) {
    next();
    return;
  }
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.redirect(303, '/console/login');
    return;
  }
  renderPage(
    res,
    401,
    <MessagePage title="Signed out">
      <p>
        Your session has ended. <a href="/console/login">Sign in</a> again.
      </p>
    </MessagePage>,
  );
};

// Every form of the console carries the session's CSRF token; a post without it (another site's form,
// a replayed request) is refused before anything reads it.
const requireCsrfOnPost: RequestHandler = (req, res, next) => {
  const viewer = viewerOf(res)!;
  if (req.method !== 'POST' || csrfMatches(req, viewer)) {
    next();
    return;
  }
  req.log.warn({ consoleUser: viewer.user.username, path: req.path }, 'console post without a valid CSRF token');
  renderPage(
    res,
    403,
    <MessagePage title="Refused" viewer={viewer}>
      <p>This form was not sent by the console (its CSRF token is missing or wrong). Nothing changed.</p>
    </MessagePage>,
  );
};

const consoleErrors: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const unavailable = isDatabaseUnavailable(error);
  const status = isAppError(error) ? error.httpStatus : unavailable ? 503 : 500;
  if (status >= 500) req.log.error({ err: error }, 'console page failed');
  else req.log.warn({ err: error }, 'console request refused');
  if (res.headersSent) return res.destroy();
  renderPage(
    res,
    status,
    <MessagePage title={unavailable ? 'Database unavailable' : 'Something went wrong'} viewer={viewerOf(res)}>
      <p>
        {unavailable
          ? 'PostgreSQL did not answer. Try again in a moment.'
          : 'The page could not be shown; the details are in the log.'}
      </p>
    </MessagePage>,
  );
};
