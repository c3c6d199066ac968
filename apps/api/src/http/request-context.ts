import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from '@payout/telemetry';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane, else a new one), echoes it in
 * the response, and logs one line per request with that id. `req.log` carries the id into every line
 * logged while serving the request.
 *
 * Nothing a client sent is logged verbatim, because a confused client puts its token anywhere: headers
 * are not logged, the URL is logged without its query string (a TransactionID is kept when it is digits),
 * and the MID only once authentication has proved it is one (see authenticate.ts). A token can never pass
 * for a request id: tokens contain "_", which request ids may not.
 */
export function requestContext(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
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
