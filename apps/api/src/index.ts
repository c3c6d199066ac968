export { createApp, type ApiDependencies } from './app.js';
export { DRAIN_MS, startApi, type RunningApi } from './api-server.js';
export { CredentialStore } from './auth/credential-store.js';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi/openapi-document.js';
export { createAdminApp, type AdminDependencies } from './admin/admin-app.js';
export { permissionOf } from './admin/console/console-authorization.js';
export { permissionOf as dashboardPermissionOf } from './dashboard/dashboard-gates.js';
export { PUBLIC_DASHBOARD_ROUTES } from './dashboard/people/dashboard-sign-in-routes.js';
