import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
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
 * The request and response are set up as Express sets them up (its prototypes, `req.res`, `res.locals`,
 * `req.route.path` for the metrics' label), so the handlers are the router's own and cannot tell the
 * difference. What this saves is the router's per-request work: matching every layer of every router in
 * front of the route, a closure per layer, URL parsing per layer (docs/performance.md, "The accept path").
 */
export function serveDirectly(app: Express, routes: readonly DirectRoute[], onError: ErrorRequestHandler): void {
  const byPath = new Map<string, { method: string; route: { path: string }; handlers: readonly RequestHandler[] }>();
  for (const { method, path, handlers } of routes) byPath.set(path, { method, route: { path }, handlers });
  const application = app as unknown as { handle: Handle; request: object; response: object };
  const routed: Handle = application.handle.bind(app);

  application.handle = (req, res, callback) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const target = byPath.get(query === -1 ? url : url.slice(0, query));
    if (!target || target.method !== req.method) {
      routed(req, res, callback);
      return;
    }
    const request = Object.setPrototypeOf(req, application.request) as Request;
    const response = Object.setPrototypeOf(res, application.response) as Response;
    Object.assign(request, { res: response, baseUrl: '', originalUrl: url, params: {}, route: target.route });
    Object.assign(response, { req: request, locals: Object.create(null) as Record<string, unknown> });
    runHandlers(target.handlers, request, response, onError);
  };
}

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
