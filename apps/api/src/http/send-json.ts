import type { Response } from 'express';
import { stringifyJson } from '@payout/domain';

/**
 * Writes a JSON body with the lossless writer, so numeric members built with jsonNumber() keep their
 * exact literal (101.00, a 23-digit TransactionID). Every response of the API goes through here. Balances
 * and payout states must never be served from a cache, hence `no-store`. Written straight to Node's
 * response (headers, length, body): Express's res.send would look again at what is already known here.
 *
 * The answer of a request that claimed an Idempotency-Key is stored first, then sent (http/idempotency.ts):
 * once a client has the answer, its retry finds it stored.
 */
export function sendJson(res: Response, httpStatus: number, body: Record<string, unknown>): void {
  const payload = stringifyJson(body);
  const recorder = (res as RecordedResponse)[ANSWER_RECORDER];
  if (recorder === undefined) {
    sendJsonText(res, httpStatus, payload);
    return;
  }
  (res as RecordedResponse)[ANSWER_RECORDER] = undefined;
  const send = () => sendJsonText(res, httpStatus, payload);
  recorder(httpStatus, body, payload).then(send, send);
}

/** Sends a JSON body already written (a stored answer, replayed byte for byte), as {@link sendJson} sends. */
export function sendJsonText(res: Response, httpStatus: number, payload: string): void {
  res.statusCode = httpStatus;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  if (res.req.method === 'HEAD') res.end();
  else res.end(payload);
}

/** Stores a response's answer before it is sent; must not reject. */
export type AnswerRecorder = (httpStatus: number, body: Record<string, unknown>, payload: string) => Promise<void>;

const ANSWER_RECORDER = Symbol('answer recorder');
type RecordedResponse = Response & { [ANSWER_RECORDER]?: AnswerRecorder | undefined };

/** The next answer written to `res` goes to `recorder` first (only that one: an answer is written once). */
export function recordAnswerBeforeSending(res: Response, recorder: AnswerRecorder): void {
  (res as RecordedResponse)[ANSWER_RECORDER] = recorder;
}
