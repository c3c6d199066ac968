import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { isDatabaseUnavailable } from '@payout/db';
import { isAppError, merchantMay, type MerchantPermission } from '@payout/domain';
import { DashboardMessage, renderDashboardPage } from './dashboard-layout.js';
import { dashboardCsrfMatches, dashboardViewerOf, type DashboardViewer } from './dashboard-session.js';

/*
 * What stands in front of every dashboard page and action: a signed-in merchant user, the session's CSRF
 * token on every post, and each page's and action's own permission check (`permit`), where it happens.
 */

/** Pages need a signed-in merchant user: a browser is sent to sign in, anything else is told so. */
export const requireDashboardViewer: RequestHandler = (req, res, next) => {
  if (dashboardViewerOf(res)) {
    next();
    return;
  }
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.redirect(303, '/dashboard/login');
    return;
  }
  renderDashboardPage(
    res,
    401,
    <DashboardMessage title="Signed out">
      <p>
        Your session has ended. <a href="/dashboard/login">Sign in</a> again.
      </p>
    </DashboardMessage>,
  );
};

/** Every signed-in form carries the session's CSRF token; a post without it is refused before anything reads it. */
export const requireDashboardCsrfOnPost: RequestHandler = (req, res, next) => {
  const viewer = dashboardViewerOf(res)!;
  if (req.method !== 'POST' || dashboardCsrfMatches(req, viewer)) {
    next();
    return;
  }
  req.log.warn({ merchantUser: viewer.user.id, path: req.path }, 'dashboard post without a valid CSRF token');
  renderDashboardPage(
    res,
    403,
    <DashboardMessage title="Refused" viewer={viewer}>
      <p>This form was not sent by the dashboard (its CSRF token is missing or wrong). Nothing changed.</p>
    </DashboardMessage>,
  );
};

/** A dashboard handler that runs only for a signed-in merchant user whose role holds its permission. */
export type DashboardHandler = (
  req: Request,
  res: Response,
  viewer: DashboardViewer,
  next: NextFunction,
) => Promise<void> | void;

const PERMISSION = Symbol('dashboard permission');

/** What {@link permit} returns: an Express handler carrying its permission, so a test can list them. */
export type PermittedDashboardHandler = RequestHandler & { readonly [PERMISSION]: MerchantPermission };

/**
 * The one authorization check of the dashboard: every page and action is wrapped in it. A merchant user
 * without the permission gets a 403 page and nothing runs.
 */
export function permit(permission: MerchantPermission, handler: DashboardHandler): PermittedDashboardHandler {
  const permitted: RequestHandler = async (req, res, next) => {
    const viewer = dashboardViewerOf(res);
    if (!viewer) {
      requireDashboardViewer(req, res, next);
      return;
    }
    if (!merchantMay(viewer.user.role, permission)) {
      req.log.warn({ merchantUser: viewer.user.id, path: req.path, permission }, 'dashboard request refused by role');
      renderDashboardPage(
        res,
        403,
        <DashboardMessage title="Not allowed" viewer={viewer}>
          <p>Your role ({viewer.user.role.toLowerCase()}) does not allow this. Nothing changed.</p>
        </DashboardMessage>,
      );
      return;
    }
    await handler(req, res, viewer, next);
  };
  return Object.assign(permitted, { [PERMISSION]: permission });
}

/** The permission a {@link permit}-wrapped handler checks, or undefined for any other handler. */
export function permissionOf(handler: unknown): MerchantPermission | undefined {
  return (handler as Partial<PermittedDashboardHandler> | undefined)?.[PERMISSION];
}

/** The answer for a dashboard path no page or action has. */
export const noSuchDashboardPage: RequestHandler = (_req, res) => {
  renderDashboardPage(
    res,
    404,
    <DashboardMessage title="Not found" viewer={dashboardViewerOf(res)}>
      <p>There is no such page.</p>
    </DashboardMessage>,
  );
};

/** A page that failed: the person is told whether the database was away; the details go to the log. */
export const dashboardErrors: ErrorRequestHandler = (error: unknown, req, res, _next) => {
  const unavailable = isDatabaseUnavailable(error);
  const status = isAppError(error) ? error.httpStatus : unavailable ? 503 : 500;
  if (status >= 500) req.log.error({ err: error }, 'dashboard page failed');
  else req.log.warn({ err: error }, 'dashboard request refused');
  if (res.headersSent) return res.destroy();
  renderDashboardPage(
    res,
    status,
    <DashboardMessage title={unavailable ? 'Unavailable' : 'Something went wrong'} viewer={dashboardViewerOf(res)}>
      <p>
        {unavailable
          ? 'The service did not answer. Try again in a moment.'
          : 'The page could not be shown. Try again, or ask your payout provider.'}
      </p>
    </DashboardMessage>,
  );
};
