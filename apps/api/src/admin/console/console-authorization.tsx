import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { recordOperatorAction, type PrismaClient } from '@payout/db';
import { AppError, may, type ConsolePermission } from '@payout/domain';
import type { Person } from '@payout/use-cases';
import { credentialRefused, csrfHeaderMatches, viewerOf, type Viewer } from './console-session.js';
import { renderPage } from './render.js';
import { MessagePage } from './views/layout.js';

/**
 * Every router of the admin listener matches paths exactly: case-sensitive and strict about a trailing
 * slash, so `/Console/…/Credit/` is not another way into `/console/…/credit` (docs/operations.md, "Roles").
 */
export function exactRouter(): Router {
  return Router({ caseSensitive: true, strict: true });
}

/** A console handler that runs only for a signed-in person whose role holds its permission. */
export type PermittedHandler = (
  req: Request,
  res: Response,
  viewer: Viewer,
  next: NextFunction,
) => Promise<void> | void;

const PERMISSION = Symbol('console permission');

/** What {@link allow} returns: an Express handler that carries its permission, so a test can list them. */
export type AuthorizedHandler = RequestHandler & { readonly [PERMISSION]: ConsolePermission };

/**
 * The one authorization check of the console: every page and every action is wrapped in it, so the
 * check sits where the action happens, not in a path pattern in front of it. A person without the
 * permission gets a 403 page, nothing runs, and the refusal goes to the audit log.
 */
export function consoleAuthorization(db: PrismaClient) {
  function allow(permission: ConsolePermission, handler: PermittedHandler): AuthorizedHandler {
    const authorized: RequestHandler = async (req, res, next) => {
      const viewer = viewerOf(res);
      // A bearer credential is for /admin/… only: the console's pages and forms take its session alone.
      if (!viewer || viewer.via !== 'console') {
        // Behind the sign-in guard this cannot happen; refuse rather than trust the mount order.
        renderPage(res, 401, <MessagePage title="Signed out">Sign in to use the console.</MessagePage>);
        return;
      }
      if (!may(viewer.user.role, permission)) {
        await auditRefusal(db, req, viewer, `needs the ${permission} permission`);
        renderPage(
          res,
          403,
          <MessagePage title="Not allowed" viewer={viewer}>
            <p>
              You are signed in as {viewer.user.role.toLowerCase()}, which may not do this ({permission}). Nothing
              changed; the attempt is in the audit log.
            </p>
          </MessagePage>,
        );
        return;
      }
      await handler(req, res, viewer, next);
    };
    return Object.assign(authorized, { [PERMISSION]: permission });
  }
  /**
   * {@link allow} for the admin JSON API (docs/operations.md, "Security model"): the person is the owner of
   * the personal credential sent as `Authorization: Bearer …`, or the console session of the cookie, whose
   * posts must repeat its CSRF token in `X-CSRF-Token` (a bearer credential needs none: no browser sends it
   * on its own). No person: 401; a credential that proves no one: 401; a role without the permission: 403,
   * audited. The admin token names nobody, so it is never enough here.
   */
  function allowJson(permission: ConsolePermission, handler: PermittedHandler): AuthorizedHandler {
    const authorized: RequestHandler = async (req, res, next) => {
      const viewer = viewerOf(res);
      if (!viewer) {
        throw new AppError(
          'UNAUTHENTICATED',
          credentialRefused(res)
            ? 'This credential is unknown, revoked or expired, or its user is disabled: sign in again (pnpm cli login) or create a new key on /console/keys.'
            : 'This needs a person: send Authorization: Bearer <your credential> (pnpm cli login, or a key from /console/keys), or use the console.',
        );
      }
      if (viewer.via === 'console' && !SAFE_METHODS.has(req.method) && !csrfHeaderMatches(req, viewer)) {
        throw new AppError('FORBIDDEN', 'X-CSRF-Token is missing or wrong.');
      }
      if (!may(viewer.user.role, permission)) {
        await auditRefusal(db, req, viewer, `needs the ${permission} permission`);
        throw new AppError(
          'FORBIDDEN',
          `Your role (${viewer.user.role.toLowerCase()}) may not do this (${permission}).`,
        );
      }
      await handler(req, res, viewer, next);
    };
    return Object.assign(authorized, { [PERMISSION]: permission });
  }
  return { allow, allowJson };
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The person acting through the admin JSON API: `cli:<username>` in the audit log for a bearer credential,
 * `admin-api:<username>` for a console session's JSON calls.
 */
export function apiPersonOf(viewer: Viewer): Person {
  return { username: viewer.user.username, role: viewer.user.role, via: viewer.via === 'cli' ? 'cli' : 'admin-api' };
}

/** The permission a handler was wrapped with, or undefined for a handler outside {@link consoleAuthorization}. */
export function permissionOf(handler: unknown): ConsolePermission | undefined {
  return typeof handler === 'function' ? (handler as Partial<AuthorizedHandler>)[PERMISSION] : undefined;
}

/** Writes a refused attempt of a signed-in person to the audit log: who, which method and path, and why. */
export async function auditRefusal(db: PrismaClient, req: Request, viewer: Viewer, why: string): Promise<void> {
  req.log.warn(
    { consoleUser: viewer.user.username, via: viewer.via, method: req.method, path: req.originalUrl, why },
    'console refused',
  );
  await recordOperatorAction(db, {
    actor: `${viewer.via}:${viewer.user.username}`,
    action: 'access.refused',
    reason: why,
    detail: { method: req.method, path: req.originalUrl.slice(0, 300), role: viewer.user.role },
  });
}
