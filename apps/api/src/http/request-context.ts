import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@payout/telemetry';

// A caller's request id is kept only if it is plainly an id: 1–64 letters, digits, '.', ':' and '-'
// (no '_', so no API token "pgt_…" or webhook secret "whsec_…"), starting with a letter or digit, and
// with no unbroken run of more than 16 letters and digits — the shape of a random secret (a hex or
// base64 key, an admin token). A UUID, a W3C span id or "trace-abc-123" pass.
const INCOMING_ID = /^[A-Za-z0-9][A-Za-z0-9.:-]{0,63}$/;
const SECRET_LIKE_RUN = /[A-Za-z0-9]{17,}/;

/** Whether a caller's X-Request-Id may be used (and so echoed and logged) as this request's id. */
export function isAcceptableRequestId(incoming: unknown): incoming is string {
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) && !SECRET_LIKE_RUN.test(incoming);
}

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane, else a new one), echoes it in
 * the response, and logs one line per request with that id. `req.log` carries the id into every line
 * logged while serving the request.
 *
 * Nothing a client sent is logged verbatim, because a confused client puts its token anywhere: headers
 * are not logged, the URL is logged without its query string (a TransactionID is kept when it is digits),
 * and the MID only once authentication has proved it is one (see authenticate.ts). A request id that
 * could be a token or any other secret is replaced, so it is neither echoed nor logged.
 */
export function requestContext(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = isAcceptableRequestId(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: IncomingMessage & { id?: unknown }) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const transactionId = url.searchParams.get('TransactionID');
        return {
          id: req.id,
          method: req.method,
          path: url.pathname,
          ...(transactionId && /^[0-9]{1,30}$/.test(transactionId) ? { transactionId } : {}),
        };
      },
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // Evaluated again when the response is logged, by which time authentication has set the merchant.
    customProps: (_req, res: ServerResponse & { locals?: { merchant?: { mid: string } } }) =>
      res.locals?.merchant ? { mid: res.locals.merchant.mid } : {},
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
  });
}
