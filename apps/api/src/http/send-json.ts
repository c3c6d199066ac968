import type { Response } from 'express';
import { stringifyJson } from '@payout/domain';

/**
 * Writes a JSON body with the lossless writer, so numeric members built with jsonNumber() keep their
 * exact literal (101.00, a 23-digit TransactionID). Every response of the API goes through here. Balances
 * and payout states must never be served from a cache, hence `no-store`. Written straight to Node's
 * response (headers, length, body): Express's res.send would look again at what is already known here.
 */
export function sendJson(res: Response, httpStatus: number, body: Record<string, unknown>): void {
  const payload = stringifyJson(body);
  res.statusCode = httpStatus;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  if (res.req.method === 'HEAD') res.end();
  else res.end(payload);
}
