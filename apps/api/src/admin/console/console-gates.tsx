import type { ErrorRequestHandler, RequestHandler } from 'express';
import { isDatabaseUnavailable, type PrismaClient } from '@payout/db';
import { isAppError } from '@payout/domain';
import { auditRefusal } from './console-authorization.js';
import { csrfMatches, viewerOf } from './console-session.js';
import { renderPage } from './render.js';
import { MessagePage } from './views/layout.js';

/*
 * What stands in front of every console page and action, and what answers behind them: the sign-in and
 * CSRF checks every request passes first, the page for a path that is none, and the page for a failure.
 */

/** Pages need a signed-in person: a browser is sent to sign in, anything else is told so. */
export const requireViewer: RequestHandler = (req, res, next) => {
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

/**
 * Every form of the console carries the session's CSRF token; a post without it (another site's form,
 * a replayed request) is refused before anything reads it.
 */
export const requireCsrfOnPost: RequestHandler = (req, res, next) => {
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

/** The answer for a path no page or action has. */
export function noSuchPage(db: PrismaClient): RequestHandler {
  return async (req, res) => {
    const viewer = viewerOf(res);
    // A post to no action is someone trying a path by hand: it goes to the audit log like a refusal.
    if (viewer && req.method === 'POST') await auditRefusal(db, req, viewer, 'no such console action');
    renderPage(
      res,
      404,
      <MessagePage title="Not found" viewer={viewer}>
        <p>There is no such console page.</p>
      </MessagePage>,
    );
  };
}

/** A page that failed: the person is told whether the database was away; the details go to the log. */
export const consoleErrors: ErrorRequestHandler = (error: unknown, req, res, _next) => {
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
