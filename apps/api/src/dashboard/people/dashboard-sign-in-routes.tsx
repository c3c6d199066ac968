import { Router } from 'express';
import type { ApiDependencies } from '../../app.js';

/** Signing in (password, then TOTP), a person's own enrollment, and signing out. */
export function dashboardSignInRoutes(_deps: ApiDependencies): Router {
  return Router({ caseSensitive: true, strict: true });
}
