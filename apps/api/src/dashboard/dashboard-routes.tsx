import express, { Router } from 'express';
import type { ApiDependencies } from '../app.js';
import { CONSOLE_STYLESHEET } from '../admin/console/console-stylesheet.js';
import { answerBodyReadingErrors } from '../http/error-handler.js';
import { dashboardAccessRoutes } from './access/dashboard-access-routes.js';
import {
  dashboardErrors,
  noSuchDashboardPage,
  requireDashboardCsrfOnPost,
  requireDashboardViewer,
} from './dashboard-gates.js';
import { dashboardSession } from './dashboard-session.js';
import { dashboardPageRoutes } from './pages/dashboard-page-routes.js';
import { dashboardSignInRoutes } from './people/dashboard-sign-in-routes.js';
import { dashboardTeamRoutes } from './people/dashboard-team-routes.js';

/**
 * The merchant dashboard (docs/dashboard.md): server-rendered pages under /dashboard on the merchant API's
 * listener, for a merchant's own people. Its sessions, cookies and people are its own, apart from the staff
 * console's (on the admin listener); every page reads only the signed-in user's merchant, and each page and
 * action checks the user's role itself (`permit` in dashboard-gates.tsx). Paths match exactly.
 */
export function dashboardRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get('/dashboard/assets/dashboard.css', (_req, res) => {
    res.type('text/css').setHeader('Cache-Control', 'public, max-age=3600').send(CONSOLE_STYLESHEET);
  });
  router.use('/dashboard', dashboardSession(deps.db));
  // Routes with a body of their own (a bulk file) read it themselves, once the user is known to be allowed.
  router.use(dashboardAccessRoutes.withOwnBody(deps));
  router.use('/dashboard', express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  // Signing in, enrolling and signing out: the only pages open without a session.
  router.use(dashboardSignInRoutes(deps));
  router.use('/dashboard', requireDashboardViewer, requireDashboardCsrfOnPost);
  router.use(dashboardPageRoutes(deps));
  router.use(dashboardAccessRoutes(deps));
  router.use(dashboardTeamRoutes(deps));
  router.use('/dashboard', noSuchDashboardPage);
  router.use('/dashboard', answerBodyReadingErrors, dashboardErrors);
  return router;
}
