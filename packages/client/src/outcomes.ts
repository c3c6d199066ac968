import { PayoutClientError } from './errors.js';
import type { JsonObject, JsonValue } from './lossless-json.js';
import type { ApiAnswer } from './transport.js';
import type {
  AccountValidation,
  Answered,
  BulkItemOutcome,
  BulkItemStatusOutcome,
  BulkPayoutOutcome,
  BulkPayoutStatusOutcome,
  BulkPayoutStatusSummary,
  BulkPayoutSummary,
  CancelPayoutOutcome,
  FieldError,
  Invalid,
  MainWallet,
  MainWalletOutcome,
  DowntimesBody,
  DowntimesOutcome,
  EventPageOutcome,
  FeedEvent,
  NotFound,
  PayinStatus,
  PayinStatusOutcome,
  PayoutOutcome,
  PayoutPageOutcome,
  PayoutResult,
  PayoutStatusBody,
  PayoutStatusOutcome,
  RevokeTokenOutcome,
  RotateTokenOutcome,
  StatementBody,
  StatementCsvOutcome,
  StatementPageOutcome,
  WebhookSecretOutcome,
  UpiValidation,
  ValidationOutcome,
} from './types.js';

// Turns the gateway's answers into outcomes. Its status codes are outcomes, not failures (202 PENDING,
// 200 SUCCESS and 400 FAILED are all answers to a payout), and a few bodies share a status (a 400 is a failed
// payout, a malformed MID or an unreadable body), so each answer is read by its status AND its body.

const INVALID_MID = 'Please Input Valid MID';
const FAILED_PREFIX = /^MP007 - Transaction failed: /;

/** The answer of POST /api/impspayout or POST /api/payout. */
export function payoutOutcome<R extends PayoutResult>(answer: ApiAnswer, what: string): PayoutOutcome<R> {
  const { status, body } = answer;
  const answered = answeredBy(answer);
  rejectCredentials(answer, what);
  if (isPayoutResult(body)) {
    const payout = body as unknown as R;
    if (status === 202 && body.status === 'PENDING')
      return { kind: 'pending', payout: payout as Extract<R, { status: 'PENDING' }>, ...answered };
    if (status === 200 && body.status === 'SUCCESS')
      return { kind: 'success', payout: payout as Extract<R, { status: 'SUCCESS' }>, ...answered };
    if (status === 400 && body.status === 'FAILED')
      return {
        kind: 'failed',
        payout: payout as Extract<R, { status: 'FAILED' }>,
        reason: failureReason(body.message),
        ...answered,
      };
  }
  if (status === 409) {
    return {
      kind: 'conflict',
      TransactionID: text(body.TransactionID),
      message: text(body.message),
      ...answered,
    };
  }
  return invalidOrUnexpected(answer, what);
}

/** The answer of GET /api/check_payout_status. */
export function payoutStatusOutcome(answer: ApiAnswer, what: string): PayoutStatusOutcome {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 200) {
    const answered = answeredBy(answer);
    const payout = body as unknown as PayoutStatusBody;
    switch (payout.status) {
      case 'Pending':
        return { kind: 'pending', payout: { ...payout, status: 'Pending' }, ...answered };
      case 'Success':
        return { kind: 'success', payout: { ...payout, status: 'Success' }, ...answered };
      case 'Failed':
        return {
          kind: 'failed',
          payout: { ...payout, status: 'Failed' },
          reason: failureReason(payout.message),
          ...answered,
        };
    }
    return unexpected(answer, what);
  }
  if (status === 404) return notFound(answer);
  return invalidOrUnexpected(answer, what);
}

/** The answer of POST /api/payout/cancel. */
export function cancelPayoutOutcome(answer: ApiAnswer, what: string): CancelPayoutOutcome {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 200 && body.status === 'Failed') {
    const payout = body as unknown as PayoutStatusBody;
    return { kind: 'cancelled', payout: { ...payout, status: 'Failed' }, ...answeredBy(answer) };
  }
  if (status === 409) {
    return {
      kind: 'already_sent',
      TransactionID: text(body.TransactionID),
      message: text(body.message),
      ...answeredBy(answer),
    };
  }
  if (status === 404) return notFound(answer);
  return invalidOrUnexpected(answer, what);
}

/** The answer of GET /api/payin/status. */
export function payinStatusOutcome(answer: ApiAnswer, what: string): PayinStatusOutcome {
  rejectCredentials(answer, what);
  if (answer.status === 200)
    return { kind: 'found', payin: answer.body as unknown as PayinStatus, ...answeredBy(answer) };
  if (answer.status === 404) return notFound(answer);
  return invalidOrUnexpected(answer, what);
}

/** The answer of GET /api/checkMainWallet. */
export function mainWalletOutcome(answer: ApiAnswer, what: string): MainWalletOutcome {
  rejectCredentials(answer, what);
  if (answer.status === 200 && typeof answer.body.mainwallet === 'string') {
    const wallet = answer.body as unknown as MainWallet;
    return { kind: 'found', balance: wallet.mainwallet, wallet, ...answeredBy(answer) };
  }
  if (answer.status === 404) return notFound(answer);
  return unexpected(answer, what);
}

/** The answer of GET /api/downtimes. */
export function downtimesOutcome(answer: ApiAnswer, what: string): DowntimesOutcome {
  rejectCredentials(answer, what);
  if (answer.status === 200 && Array.isArray(answer.body.downtimes)) {
    const { downtimes } = answer.body as unknown as DowntimesBody;
    return { kind: 'found', downtimes, ...answeredBy(answer) };
  }
  return unexpected(answer, what);
}

/** The answer of GET /api/payouts: a page of status lookup bodies, and the next page's cursor. */
export function payoutPageOutcome(answer: ApiAnswer, what: string): PayoutPageOutcome {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 200 && Array.isArray(body.payouts)) {
    const nextCursor = typeof body.next_cursor === 'string' ? body.next_cursor : null;
    return { kind: 'found', payouts: body.payouts as unknown as PayoutStatusBody[], nextCursor, ...answeredBy(answer) };
  }
  return invalidOrUnexpected(answer, what);
}

/** The answer of GET /api/events: a page of your events, and where the next one starts. */
export function eventPageOutcome(answer: ApiAnswer, what: string): EventPageOutcome {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 200 && Array.isArray(body.events) && typeof body.next_after === 'string') {
    return {
      kind: 'found',
      events: body.events as unknown as FeedEvent[],
      nextAfter: body.next_after,
      ...answeredBy(answer),
    };
  }
  return invalidOrUnexpected(answer, what);
}

/** The answer of GET /api/statement: a page of the statement, and the next page's cursor. */
export function statementPageOutcome(answer: ApiAnswer, what: string): StatementPageOutcome {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 200 && Array.isArray(body.entries)) {
    const nextCursor = typeof body.next_cursor === 'string' ? body.next_cursor : null;
    return { kind: 'found', statement: body as unknown as StatementBody, nextCursor, ...answeredBy(answer) };
  }
  if (status === 404) return notFound(answer);
  return invalidOrUnexpected(answer, what);
}

/** The answer of GET /api/statement?format=csv: the file's text. */
export function statementCsvOutcome(answer: ApiAnswer, what: string): StatementCsvOutcome {
  rejectCredentials(answer, what);
  if (answer.status === 200 && answer.text !== undefined) {
    return { kind: 'found', csv: answer.text, ...answeredBy(answer) };
  }
  if (answer.status === 404) return notFound(answer);
  return invalidOrUnexpected(answer, what);
}

/**
 * The answer of POST /api/bulkpayout. Each item of `results` is what the single endpoint would have answered
 * (its `status_code` is that answer's status), so it is read by payoutOutcome itself.
 */
export function bulkPayoutOutcome(answer: ApiAnswer, what: string): BulkPayoutOutcome {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 202 && body.status === 'ACCEPTED' && Array.isArray(body.results)) {
    const results = body.results.map((item, i): BulkItemOutcome => ({
      ...payoutOutcome(itemAnswer(answer, item), `${what} item ${i}`),
      index: i,
    }));
    return { kind: 'accepted', batch: summary(body) as unknown as BulkPayoutSummary, results, ...answeredBy(answer) };
  }
  if (status === 409) {
    return { kind: 'conflict', BatchID: text(body.BatchID), message: text(body.message), ...answeredBy(answer) };
  }
  return invalidOrUnexpected(answer, what);
}

/** The answer of GET /api/bulkpayout/status: each item read as the status lookup's answer (or its refusal). */
export function bulkPayoutStatusOutcome(answer: ApiAnswer, what: string): BulkPayoutStatusOutcome {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 200 && Array.isArray(body.results)) {
    const results = body.results.map((item, i): BulkItemStatusOutcome => {
      const itemAnswered = itemAnswer(answer, item);
      // A refused item stays refused: 409 (its TransactionID was another payout's) is a conflict as in the batch.
      if (itemAnswered.status === 409) {
        const conflict = payoutOutcome(itemAnswered, `${what} item ${i}`);
        if (conflict.kind === 'conflict') return { ...conflict, index: i };
      }
      const outcome = payoutStatusOutcome(itemAnswered, `${what} item ${i}`);
      if (outcome.kind === 'not_found') return unexpected(itemAnswered, `${what} item ${i}`);
      return { ...outcome, index: i };
    });
    return {
      kind: 'found',
      batch: summary(body) as unknown as BulkPayoutStatusSummary,
      results,
      ...answeredBy(answer),
    };
  }
  if (status === 404) {
    return { ...notFound(answer), ...(typeof body.BatchID === 'string' && { BatchID: body.BatchID }) };
  }
  return invalidOrUnexpected(answer, what);
}

/** The answer of POST /api/validate/account or POST /api/validate/upi. */
export function validationOutcome<V extends AccountValidation | UpiValidation>(
  answer: ApiAnswer,
  what: string,
): ValidationOutcome<V> {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 200) {
    const validation = body as unknown as V;
    switch (validation.status) {
      case 'VALID':
        return {
          kind: 'valid',
          registeredName: validation.registered_name,
          validation: { ...validation, status: 'VALID' },
          ...answeredBy(answer),
        };
      case 'INVALID':
        return { kind: 'not_valid', validation: { ...validation, status: 'INVALID' }, ...answeredBy(answer) };
    }
    return unexpected(answer, what);
  }
  return invalidOrUnexpected(answer, what);
}

/** The answer of POST /api/token/rotate. */
export function rotateTokenOutcome(answer: ApiAnswer, what: string): RotateTokenOutcome {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 200 && typeof body.token === 'string' && typeof body.prefix === 'string') {
    return { kind: 'rotated', token: body.token, prefix: body.prefix, ...answeredBy(answer) };
  }
  if (status === 409) {
    const message = text(body.message);
    const activePrefixes = /\(([^)]*)\)/.exec(message)?.[1]?.split(', ') ?? [];
    return { kind: 'at_limit', message, activePrefixes, ...answeredBy(answer) };
  }
  return unexpected(answer, what);
}

/** The answer of POST /api/token/revoke. */
export function revokeTokenOutcome(answer: ApiAnswer, what: string): RevokeTokenOutcome {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 200 && typeof body.prefix === 'string') {
    return { kind: 'revoked', prefix: body.prefix, ...answeredBy(answer) };
  }
  if (status === 404) return notFound(answer);
  if (status === 409) return { kind: 'refused', message: text(body.message), ...answeredBy(answer) };
  return invalidOrUnexpected(answer, what);
}

/** The answer of POST /api/webhook/secret. */
export function webhookSecretOutcome(answer: ApiAnswer, what: string): WebhookSecretOutcome {
  const { status, body } = answer;
  rejectCredentials(answer, what);
  if (status === 200 && typeof body.secret === 'string' && typeof body.prefix === 'string') {
    const previous = body.previous_valid_until;
    return {
      kind: 'issued',
      secret: body.secret,
      prefix: body.prefix,
      previousValidUntil: typeof previous === 'string' ? previous : null,
      ...answeredBy(answer),
    };
  }
  if (status === 404) return notFound(answer);
  if (status === 409) {
    const message = text(body.message);
    const prefix = /\(([^)]*)\)/.exec(message)?.[1] ?? '';
    return { kind: 'issued_before', prefix, message, ...answeredBy(answer) };
  }
  return unexpected(answer, what);
}

/** An item of a batch as if it were an answer of its own: its status is its `status_code`. */
function itemAnswer(answer: ApiAnswer, item: JsonValue): ApiAnswer {
  if (typeof item !== 'object' || item === null || Array.isArray(item) || typeof item.status_code !== 'number') {
    return unexpected(answer, 'bulk item');
  }
  const { index: _index, ...body } = item;
  return { status: item.status_code, requestId: answer.requestId, body };
}

/** The batch's own members, without `results` (read item by item). */
function summary(body: JsonObject): JsonObject {
  const { results: _results, ...rest } = body;
  return rest;
}

/** "MP007 - Transaction failed: declined by beneficiary bank" → "declined by beneficiary bank". */
export function failureReason(message: JsonValue | undefined): string {
  return text(message).replace(FAILED_PREFIX, '');
}

/** A body shaped as a payout result (docs/api.md, "Response bodies"): the answer of a payout operation or a webhook. */
export function isPayoutResult(body: JsonObject): boolean {
  return (
    typeof body.status === 'string' &&
    typeof body.Ack_no === 'string' &&
    typeof body.TransactionID === 'string' &&
    typeof body.Amount === 'string'
  );
}

function answeredBy(answer: ApiAnswer): Answered {
  return { httpStatus: answer.status, requestId: answer.requestId };
}

/** Wrong credentials are a mistake in the integration, not an outcome of the request: thrown, never retried. */
function rejectCredentials(answer: ApiAnswer, what: string): void {
  if (answer.status === 401 || (answer.status === 400 && answer.body.message === INVALID_MID)) {
    throw new PayoutClientError(
      'UNAUTHORIZED',
      `${what}: the gateway refused the credentials (${answer.status} ${text(answer.body.message)})`,
      { httpStatus: answer.status, ...(answer.requestId !== undefined && { requestId: answer.requestId }) },
    );
  }
}

function notFound(answer: ApiAnswer): NotFound {
  return {
    kind: 'not_found',
    message: text(answer.body.message),
    ...(typeof answer.body.TransactionID === 'string' && { TransactionID: answer.body.TransactionID }),
    ...answeredBy(answer),
  };
}

/** 400 (a body refused whole), 413, 415 and 422 are refusals of the request; anything else is unexpected. */
function invalidOrUnexpected(answer: ApiAnswer, what: string): Invalid {
  if ([400, 413, 415, 422].includes(answer.status)) {
    return {
      kind: 'invalid',
      message: text(answer.body.message),
      errors: fieldErrors(answer.body.errors),
      ...answeredBy(answer),
    };
  }
  return unexpected(answer, what);
}

function unexpected(answer: ApiAnswer, what: string): never {
  throw new PayoutClientError('UNEXPECTED_ANSWER', `${what}: an answer this client does not know (${answer.status})`, {
    httpStatus: answer.status,
    last: JSON.stringify(answer.body).slice(0, 500),
    ...(answer.requestId !== undefined && { requestId: answer.requestId }),
  });
}

function fieldErrors(errors: JsonValue | undefined): FieldError[] {
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((e) =>
    typeof e === 'object' && e !== null && !Array.isArray(e)
      ? [{ field: text(e.field), message: text(e.message) }]
      : [],
  );
}

function text(value: JsonValue | undefined): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}
