/**
 * Why a call ended without an answer to act on. Outcomes of your request (pending, failed, conflict, …) are
 * never thrown: only these.
 *
 * - `UNAUTHORIZED`: MID or Token wrong, unknown, malformed, or the merchant suspended. Not retried.
 * - `GAVE_UP`: no usable answer before the deadline (time-outs, lost connections, 5xx, 429). For a payout
 *   the outcome is unknown: the payout may exist. Ask `getPayoutStatus`, or send the same request again
 *   with the SAME TransactionID — never a new one, or the beneficiary may be paid twice.
 * - `UNEXPECTED_ANSWER`: an answer this client does not know (not JSON, an undocumented status).
 * - `INVALID_REQUEST`: thrown only by the iterators `listPayouts`, `statement` and `events`, which have no outcome
 *   to answer: the gateway refused the filters (422); `details.last` holds its answer, whose `errors` name each
 *   filter at fault.
 */
export type PayoutClientErrorCode = 'UNAUTHORIZED' | 'GAVE_UP' | 'UNEXPECTED_ANSWER' | 'INVALID_REQUEST';

export class PayoutClientError extends Error {
  override readonly name = 'PayoutClientError';

  constructor(
    readonly code: PayoutClientErrorCode,
    message: string,
    readonly details: {
      /** HTTP status of the last answer the gateway gave (even if a later attempt got none), when there was one. */
      httpStatus?: number;
      /** X-Request-Id of that last answer, when there was one. */
      requestId?: string;
      /** How many requests were sent. */
      attempts?: number;
      /** The TransactionID of the payout or lookup concerned. */
      transactionId?: string;
      /** The last answer's body text, or the last network error's message. */
      last?: string;
    } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
