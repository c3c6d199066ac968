import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import proxyaddr from 'proxy-addr';
import { AppError } from '@payout/domain';
import { MESSAGES } from './error-responses.js';

/** A route served without the router: its exact method and path, and the handlers it runs in order. */
export interface DirectRoute {
  method: 'GET' | 'POST';
  path: string;
  handlers: readonly RequestHandler[];
}

type Handle = (req: IncomingMessage, res: ServerResponse, callback?: (error?: unknown) => void) => void;

/**
 * Serves the few routes that carry nearly all the traffic (the payout operations and the status lookup)
 * without walking Express's router: a request whose method and path are exactly one of `routes` runs that
 * route's handlers in order, and `onError` on a failure, as the router would run them. Everything else —
 * another method, a HEAD, a path in other letter case or with a trailing slash, every other endpoint — goes
 * to the router as before, so its answers (404, 405, OPTIONS) do not change.
 *
 * The request and response stay Node's own, with the few members the router would add and the handlers read:
 * `req.ip` (by the app's `trust proxy` setting, as Express works it out), `req.query` (the app's "simple"
 * query parser, node:querystring), `req.route.path` (the metrics' label) and `res.locals`. They are not given
 * Express's prototypes: swapping an object's prototype on every request, and reading through Express's long
 * prototype chain of getters, kept V8's property caches missing (half of a status lookup's CPU,
 * docs/performance.md, "The accept path"). So a handler of a direct route uses Node's members and these,
 * never Express's own (`req.get`, `res.json`, …); every route of the table is also served by the router,
 * and the API's tests send every endpoint through the direct door.
 */
export function serveDirectly(app: Express, routes: readonly DirectRoute[], onError: ErrorRequestHandler): void {
  const byPath = new Map<string, { method: string; route: { path: string }; handlers: readonly RequestHandler[] }>();
  for (const { method, path, handlers } of routes) byPath.set(path, { method, route: { path }, handlers });
  const application = app as unknown as { handle: Handle };
  const routed: Handle = application.handle.bind(app);
  // Read at the first request, not here: the app's settings may still change after its routes are made.
  let trustProxy: ((address: string, hop: number) => boolean) | undefined;

  application.handle = (req, res, callback) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const target = byPath.get(query === -1 ? url : url.slice(0, query));
    if (!target || target.method !== req.method) {
      routed(req, res, callback);
      return;
    }
    trustProxy ??= app.get('trust proxy fn') as (address: string, hop: number) => boolean;
    const request = req as DirectRequest;
    request.ip = proxyaddr(req, trustProxy);
    request.query = query === -1 ? NO_QUERY : parseQueryString(url.slice(query + 1));
    request.route = target.route;
    (res as DirectResponse).locals = Object.create(null) as Record<string, unknown>;
    runHandlers(target.handlers, request as unknown as Request, res as unknown as Response, onError);
  };
}

/** What a direct route's request carries beside Node's own members. */
type DirectRequest = IncomingMessage & { ip: string; query: Record<string, unknown>; route: { path: string } };
type DirectResponse = ServerResponse & { locals: Record<string, unknown> };

const NO_QUERY: Record<string, unknown> = Object.freeze({});

/**
 * Runs `handlers` as the router runs a route's stack: each gets `next`; a handler that throws, or whose
 * promise rejects, or that calls `next(error)`, hands the error to `onError` and nothing after it runs.
 */
function runHandlers(
  handlers: readonly RequestHandler[],
  req: Request,
  res: Response,
  onError: ErrorRequestHandler,
): void {
  let index = 0;
  let failed = false;
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    onError(error ?? new Error('a handler failed without an error'), req, res, () => undefined);
  };
  const next = (error?: unknown): void => {
    if (error !== undefined && error !== null) {
      fail(error);
      return;
    }
    // Every route given here answers or fails; one that went past its last handler would reach the router's
    // 404, and so it does here.
    const handler = handlers[index++];
    if (!handler) {
      fail(new AppError('NOT_FOUND', MESSAGES.routeNotFound));
      return;
    }
    try {
      const result: unknown = handler(req, res, next);
      if (result instanceof Promise) result.catch(fail);
    } catch (thrown) {
      fail(thrown);
    }
  };
  next();
}
