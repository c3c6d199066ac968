import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '@payout/telemetry';

declare module 'http' {
  interface IncomingMessage {
    /** This request's id: the caller's X-Request-Id when it is sane, else a new UUID. */
    id: string;
    /** The logger of this request: every line carries `req` (id, method, path), and `mid` once authenticated. */
    log: Logger;
  }
}

// A caller's request id is kept only if it is plainly an id: 1–64 letters, digits, '.', ':' and '-'
// (no '_', so no API token "pgt_…" or webhook secret "whsec_…"), starting with a letter or digit, and
// with no unbroken run of more than 16 letters and digits — the shape of a random secret (a hex or
// base64 key, an admin token). A UUID, a W3C span id or "trace-abc-123" pass.
const INCOMING_ID = /^[A-Za-z0-9][A-Za-z0-9.:-]{0,63}$/;
const SECRET_LIKE_RUN = /[A-Za-z0-9]{17,}/;
// A TransactionID in the query string is logged only when it is digits (what the contract allows).
const DIGITS_TRANSACTION_ID = /[?&]TransactionID=([0-9]{1,30})(?:&|$)/;

/** Whether a caller's X-Request-Id may be used (and so echoed and logged) as this request's id. */
export function isAcceptableRequestId(incoming: unknown): incoming is string {
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) && !SECRET_LIKE_RUN.test(incoming);
}

interface LoggedRequest {
  id: string;
  method: string | undefined;
  path: string;
  transactionId?: string;
}

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane, else a new one), echoes it in
 * the response, and logs one line per request with that id ("request completed", or "request errored" at
 * error for a 5xx; `req`, `res.statusCode`, `responseTime` in ms, and `mid` once authenticated). `req.log`
 * carries the id into every line logged while serving the request.
 *
 * Nothing a client sent is logged verbatim, because a confused client puts its token anywhere: headers
 * are not logged, the URL is logged without its query string (a TransactionID is kept when it is digits),
 * and the MID only once authentication has proved it is one (see authenticate.ts). A request id that
 * could be a token or any other secret is replaced, so it is neither echoed nor logged.
 *
 * Written by hand rather than with pino-http: per request it costs at most one small child logger (made
 * only when something is logged) and one line, no URL parsing and no serializers run twice
 * (docs/performance.md, "Request context and logging"). The access line itself goes through a child of
 * `logger` without redaction: every field of it is built here from values already made safe (the id, the
 * path without its query, a digits-only TransactionID, a proved MID, the status and the time), and the
 * redaction paths cost two thirds of a line's CPU (docs/performance.md, "What a log line costs"). Every
 * other line of the request goes through the redacting logger.
 */
export function requestContext(logger: Logger): RequestHandler {
  const accessLog = logger.child({}, { redact: [] });
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = isAcceptableRequestId(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const requestLog = new RequestLog(logger, describe(req.url, req.method, id));
    (req as RequestWithLog)[REQUEST_LOG] = requestLog;
    const startedAt = performance.now();
    // 'close' comes once for every response, after 'finish' when it was sent whole: one listener for both.
    const done = () => {
      const level = res.writableFinished && res.statusCode >= 500 ? 'error' : 'info';
      if (!accessLog.isLevelEnabled(level)) return;
      const responseTime = Math.round(performance.now() - startedAt);
      const fields = { res: { statusCode: res.statusCode }, responseTime };
      if (!res.writableFinished) accessLog.info(requestLog.accessLine(fields), 'request aborted');
      else if (level === 'error') accessLog.error(requestLog.accessLine(fields), 'request errored');
      else accessLog.info(requestLog.accessLine(fields), 'request completed');
    };
    res.on('close', done);
    next();
  };
}

/**
 * This request's info and warn lines, for code that writes nothing else (the accept: packages/use-cases'
 * `IntakeLog`). Unlike `req.log`, handing them over makes no logger: the request's child logger is made
 * only when a line is written at a level that is on, and most accepts write none at the default production
 * level (docs/performance.md, "The accept path"). Outside {@link requestContext} it is `req.log`.
 */
export function requestLines(req: Request): Pick<Logger, 'info' | 'warn'> {
  return (req as RequestWithLog)[REQUEST_LOG] ?? req.log;
}

/**
 * From here on this request's log lines carry `mid` (authenticate.ts calls it once the MID is proved to be a
 * merchant's). Outside {@link requestContext} it does nothing.
 */
export function logMerchant(req: Request, mid: string): void {
  (req as RequestWithLog)[REQUEST_LOG]?.bindMid(mid);
}

const REQUEST_LOG = Symbol('request log');
type LogLine = [object: unknown, message?: string, ...rest: unknown[]];
type RequestWithLog = Request & { [REQUEST_LOG]?: RequestLog };

/**
 * `req.log` is an accessor on Node's request prototype, defined once: not a property defined on every
 * request, which cost a closure pair per request and gave every request object a shape of its own, slowing
 * every later property access on it (docs/performance.md, "Request context and logging"). On Node's
 * prototype rather than Express's, because the payout routes' requests never get Express's (direct-routes.ts).
 * A request this module has not seen (an HTTP client's response) has no log.
 */
Object.defineProperty(IncomingMessage.prototype, 'log', {
  configurable: true,
  enumerable: true,
  get(this: RequestWithLog) {
    return this[REQUEST_LOG]?.logger();
  },
  set(this: RequestWithLog, replacement: Logger) {
    this[REQUEST_LOG]?.replace(replacement);
  },
});

/**
 * A request's logger, made the first time something logs: a child logger costs a serialisation of its
 * bindings, and most requests log nothing below the configured level (the completion line is checked
 * against the level first). The merchant's MID, once known, is bound in the same child.
 */
class RequestLog {
  private log: Logger | undefined;
  private mid: string | undefined;

  constructor(
    private readonly base: Logger,
    private readonly req: LoggedRequest,
  ) {}

  info(...line: LogLine): void {
    if ((this.log ?? this.base).isLevelEnabled('info')) this.logger().info(...line);
  }

  warn(...line: LogLine): void {
    if ((this.log ?? this.base).isLevelEnabled('warn')) this.logger().warn(...line);
  }

  logger(): Logger {
    this.log ??= this.base.child(this.mid === undefined ? { req: this.req } : { req: this.req, mid: this.mid });
    return this.log;
  }

  replace(log: Logger): void {
    this.log = log;
  }

  bindMid(mid: string): void {
    if (this.log) this.log = this.log.child({ mid });
    this.mid = mid;
  }

  /** The fields of the access line: what this request's child logger would bind, then `fields`. */
  accessLine<T extends object>(fields: T): { req: LoggedRequest; mid?: string } & T {
    return this.mid === undefined ? { req: this.req, ...fields } : { req: this.req, mid: this.mid, ...fields };
  }
}

function describe(url: string, method: string | undefined, id: string): LoggedRequest {
  const query = url.indexOf('?');
  if (query < 0) return { id, method, path: url };
  const transactionId = DIGITS_TRANSACTION_ID.exec(url.slice(query))?.[1];
  return { id, method, path: url.slice(0, query), ...(transactionId && { transactionId }) };
}
