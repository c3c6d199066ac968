export { createApp, type ApiDependencies } from './app.js';
export { startApi, type RunningApi } from './api-server.js';
export { CredentialStore } from './auth/credential-store.js';
