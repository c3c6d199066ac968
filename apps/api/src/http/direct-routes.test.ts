import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDirectly } from './direct-routes.js';
import { securityHeaders } from './security-headers.js';

// An app shaped like the API's: handlers that say which door a request came through, a router serving the
// same route for the requests the direct path does not take, and one error handler.
const ran: string[] = [];
let url: string;
let close: () => void;

const mark =
  (name: string): RequestHandler =>
  (_req, _res, next) => {
    ran.push(name);
    next();
  };
// Written with Node's own members only, as a direct route's handlers must be (direct-routes.ts).
function writeJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
}
const answer: RequestHandler = (req, res) => {
  writeJson(res, 200, {
    path: req.route ? (req.route as { path: string }).path : null,
    query: req.query,
    locals: res.locals,
    ip: req.ip,
    expressGetter: typeof (req as { get?: unknown }).get,
  });
};
const onError: ErrorRequestHandler = (error: Error, _req, res, _next) => {
  writeJson(res, 418, { error: error.message });
};

beforeAll(async () => {
  const app = express();
  app.set('query parser', 'simple');
  app.set('trust proxy', 1);
  const everyRequest = [mark('every request')];
  const table = [
    { method: 'GET' as const, path: '/thing', handlers: [mark('thing'), answer] },
    {
      method: 'POST' as const,
      path: '/throws',
      handlers: [
        () => {
          throw new Error('thrown');
        },
      ],
    },
    { method: 'POST' as const, path: '/rejects', handlers: [() => Promise.reject(new Error('rejected'))] },
    {
      method: 'POST' as const,
      path: '/passes-an-error',
      handlers: [((_q, _s, next) => next(new Error('passed'))) as RequestHandler],
    },
    { method: 'POST' as const, path: '/falls-through', handlers: [mark('falls through')] },
  ];
  app.use(...everyRequest);
  app.use(mark('router'));
  for (const { method, path, handlers } of table) {
    if (method === 'GET') app.get(path, ...handlers);
    else app.post(path, ...handlers);
  }
  app.use(onError);
  serveDirectly(
    app,
    table.map((route) => ({ ...route, handlers: [...everyRequest, ...route.handlers] })),
    onError,
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});

afterAll(() => close());

async function get(path: string, init?: RequestInit) {
  ran.length = 0;
  const response = await fetch(url + path, init);
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? (JSON.parse(text) as unknown) : text, ran: [...ran] };
}

describe('routes served directly', () => {
  it('when a request is exactly a direct route, then its handlers run as the router would run them, without the router', async () => {
    const direct = await get('/thing?TransactionID=12');
    expect(direct).toEqual({
      status: 200,
      body: { path: '/thing', query: { TransactionID: '12' }, locals: {}, ip: '127.0.0.1', expressGetter: 'undefined' },
      ran: ['every request', 'thing'],
    });
  });

  it("when a request comes through a proxy, then the direct route's req.ip is the address the router's would be", async () => {
    const init = { headers: { 'X-Forwarded-For': '198.51.100.9, 203.0.113.7' } };
    const direct = await get('/thing', init);
    const routed = await get('/thing/', init);
    expect(direct.ran).toEqual(['every request', 'thing']);
    expect(routed.ran).toEqual(['every request', 'router', 'thing']);
    // One hop trusted (the app's setting): the address the proxy saw, for both doors.
    expect((direct.body as { ip: string }).ip).toBe('203.0.113.7');
    expect((routed.body as { ip: string }).ip).toBe('203.0.113.7');
  });

  it('when a request is the same route in other letters, with a trailing slash or by another method, then the router serves it', async () => {
    for (const path of ['/THING', '/thing/']) {
      expect(await get(path)).toEqual({
        status: 200,
        body: { path: '/thing', query: {}, locals: {}, ip: '127.0.0.1', expressGetter: 'function' },
        ran: ['every request', 'router', 'thing'],
      });
    }
    const otherMethod = await get('/thing', { method: 'POST' });
    expect(otherMethod.status).toBe(404);
    expect(otherMethod.ran).toEqual(['every request', 'router']);
  });

  it('when a handler throws, rejects or passes an error, then the error handler answers and nothing after it runs', async () => {
    for (const [path, message] of [
      ['/throws', 'thrown'],
      ['/rejects', 'rejected'],
      ['/passes-an-error', 'passed'],
    ] as const) {
      expect(await get(path, { method: 'POST' })).toEqual({
        status: 418,
        body: { error: message },
        ran: ['every request'],
      });
    }
  });

  it('when a route goes past its last handler, then it is answered as an unknown route would be', async () => {
    const fallen = await get('/falls-through', { method: 'POST' });
    expect(fallen.status).toBe(418);
    expect(fallen.ran).toEqual(['every request', 'falls through']);
  });
});

describe('security headers', () => {
  it('when recorded once, then each response gets exactly the headers helmet itself sets', async () => {
    const headersOf = async (middleware: RequestHandler) => {
      const app = express();
      app.disable('x-powered-by');
      app.use(middleware);
      app.get('/', (_req, res) => {
        res.end();
      });
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => (headers[name] = value));
        delete headers.date;
        return headers;
      } finally {
        server.close();
      }
    };
    const recorded = await headersOf(securityHeaders());
    expect(recorded).toEqual(await headersOf(helmet()));
    expect(recorded['content-security-policy']).toContain("default-src 'self'");
  });
});
