import type { Response } from 'express';
import { stringifyJson } from '@payout/domain';

/**
 * Writes a JSON body with the lossless writer, so numeric members built with jsonNumber() keep their
 * exact literal (101.00, a 23-digit TransactionID). Every response of the API goes through here. Balances
 * and payout states must never be served from a cache, hence `no-store`.
 */
export function sendJson(res: Response, httpStatus: number, body: Record<string, unknown>): void {
  res
    .status(httpStatus)
    .set('Cache-Control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(stringifyJson(body));
}
