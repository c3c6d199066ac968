import { Router } from 'express';
import type { ApiDependencies } from '../../app.js';
import { apiTokenRoutes } from './api-tokens.js';
import { bulkUploadBodies, bulkUploadRoutes } from './bulk-upload.js';
import { ipAllowlistRoutes } from './ip-allowlist.js';
import { webhookEndpointRoutes } from './webhook-endpoint.js';

/**
 * The merchant's access and money actions (docs/dashboard.md): bulk upload, webhook endpoint, API tokens, IP
 * allow-list, one module per page. Each page and action is wrapped in `permit` with its own permission.
 */
export function dashboardAccessRoutes(deps: ApiDependencies): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.use(bulkUploadRoutes(deps));
  router.use(apiTokenRoutes(deps));
  router.use(ipAllowlistRoutes(deps));
  router.use(webhookEndpointRoutes(deps));
  return router;
}

/**
 * Routes that read a body of their own (a bulk file, larger than the dashboard's forms): each reads it only
 * once the user is known to hold the route's permission; the CSRF check and the handler follow in
 * {@link dashboardAccessRoutes}, after the dashboard's gates.
 */
dashboardAccessRoutes.withOwnBody = (_deps: ApiDependencies): Router => bulkUploadBodies();
