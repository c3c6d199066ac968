import { Router } from 'express';
import type { ApiDependencies } from '../../app.js';

/** The merchant's access and money actions: bulk upload, webhook endpoint, API tokens, IP allow-list. */
export function dashboardAccessRoutes(_deps: ApiDependencies): Router {
  return Router({ caseSensitive: true, strict: true });
}

/** Routes that read a body of their own (a bulk file, larger than the dashboard's forms). */
dashboardAccessRoutes.withOwnBody = (_deps: ApiDependencies): Router => Router({ caseSensitive: true, strict: true });
