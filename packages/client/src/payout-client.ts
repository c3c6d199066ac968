import {
  bulkPayoutOutcome,
  bulkPayoutStatusOutcome,
  cancelPayoutOutcome,
  downtimesOutcome,
  eventPageOutcome,
  mainWalletOutcome,
  payinStatusOutcome,
  payoutOutcome,
  payoutPageOutcome,
  payoutStatusOutcome,
  revokeTokenOutcome,
  rotateTokenOutcome,
  statementCsvOutcome,
  statementPageOutcome,
  validationOutcome,
  webhookSecretOutcome,
} from './outcomes.js';
import { PayoutClientError } from './errors.js';
import { backoffMs, DEFAULT_RETRY, send, sleep, type RetryPolicy, type Transport } from './transport.js';
import type {
  AccountValidation,
  AccountValidationRequest,
  BulkPayoutOutcome,
  BulkPayoutRequest,
  BulkPayoutStatusOutcome,
  CancelPayoutOutcome,
  Digits,
  ImpsPayoutRequest,
  ImpsPayoutResult,
  DowntimesOutcome,
  EventFeedFrom,
  EventPageOutcome,
  FeedEvent,
  MainWalletOutcome,
  PayinStatusOutcome,
  PayoutListFilters,
  PayoutOutcome,
  PayoutPageOutcome,
  PayoutStatusBody,
  PayoutStatusOutcome,
  RevokeTokenOutcome,
  RotateTokenOutcome,
  StatementCsvOutcome,
  StatementEntry,
  StatementFilters,
  StatementPageOutcome,
  StatementPeriod,
  WebhookSecretOutcome,
  UpiPayoutRequest,
  UpiPayoutResult,
  UpiValidation,
  UpiValidationRequest,
  ValidationOutcome,
} from './types.js';

export interface PayoutClientOptions {
  /** The gateway's address, e.g. https://payouts.example.com */
  baseUrl: string;
  /** Your merchant identifier (the MID header). */
  mid: string;
  /** Your API token (the Token header). Keep it out of logs and source code. */
  token: string;
  /** How hard each call tries before giving up; any member left out keeps its default. */
  retry?: Partial<RetryPolicy>;
  /** A fetch to use instead of the global one (a proxy agent, a test double). */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Ends the call (and its retries) when aborted; the abort's reason is thrown. */
  signal?: AbortSignal;
  /**
   * A POST's Idempotency-Key (1 to 255 visible ASCII characters). Without it, each call sends a new UUID with
   * every one of its attempts, so retries inside the call are safe whatever they ask; pass your own to make a
   * retry across calls (or processes) safe too. The same key with another request is answered `invalid`.
   */
  idempotencyKey?: string;
}

export interface WaitOptions extends CallOptions {
  /** Stop waiting after this long and answer the last (pending) outcome. Default 10 minutes. */
  deadlineMs?: number;
  /** The first wait between two lookups; it doubles up to maxDelayMs. Default 1 000 ms. */
  firstDelayMs?: number;
  /** The longest wait between two lookups. Default 30 000 ms. */
  maxDelayMs?: number;
  /**
   * How long a not_found is taken for a lookup that has not caught up yet (lookups may be served by a
   * read replica a second behind, docs/scaling.md) before it is answered. Default 5 000 ms.
   */
  notFoundGraceMs?: number;
}

const IDENTIFIER = /^[0-9]{1,30}$/;

// One method per operation: write the request, send() it, read the answer with its function in
// outcomes.ts. An operation added to the OpenAPI document is one more method of this shape after
// `pnpm client:generate` (docs/client.md, "Adding an operation").

/**
 * The payout gateway's merchant API. Every method answers with an outcome (a discriminated union on
 * `kind`) instead of throwing on 4xx; it throws only a PayoutClientError (credentials refused, no answer
 * before the deadline, an answer it does not know) or a TypeError for arguments it cannot send exactly.
 */
export class PayoutClient {
  private readonly transport: Transport;

  constructor(options: PayoutClientOptions) {
    this.transport = {
      baseUrl: options.baseUrl,
      mid: options.mid,
      token: options.token,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      retry: { ...DEFAULT_RETRY, ...options.retry },
    };
  }

  /**
   * Pays out to a bank account over IMPS (POST /api/impspayout). Safe to call again with the same
   * request: the gateway answers the existing payout's state instead of paying twice.
   */
  async impsPayout(request: ImpsPayoutRequest, options: CallOptions = {}): Promise<PayoutOutcome<ImpsPayoutResult>> {
    const transactionId = digits('TransactionID', request.TransactionID);
    const body = payoutBody({ ...request, Account: digits('Account', request.Account) });
    const answer = await send(this.transport, {
      method: 'POST',
      path: '/api/impspayout',
      body,
      transactionId,
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
    });
    return payoutOutcome<ImpsPayoutResult>(answer, 'IMPS payout');
  }

  /** Pays out to a UPI address (POST /api/payout). Safe to call again with the same request. */
  async upiPayout(request: UpiPayoutRequest, options: CallOptions = {}): Promise<PayoutOutcome<UpiPayoutResult>> {
    const transactionId = digits('TransactionID', request.TransactionID);
    const answer = await send(this.transport, {
      method: 'POST',
      path: '/api/payout',
      body: payoutBody(request),
      transactionId,
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
    });
    return payoutOutcome<UpiPayoutResult>(answer, 'UPI payout');
  }

  /**
   * Cancels a payout no bank has been sent yet (POST /api/payout/cancel): accepted and waiting, held through a
   * downtime, or queued for balance. `cancelled`: it failed with reason_code CANCELLED_BY_MERCHANT and what was
   * reserved is back in your main wallet; `already_sent`: a bank has it, nothing changed. Safe to retry: a
   * second cancel of the same payout answers `cancelled` again and changes nothing.
   */
  async cancelPayout(transactionId: Digits, options: CallOptions = {}): Promise<CancelPayoutOutcome> {
    const id = digits('TransactionID', transactionId);
    const answer = await send(this.transport, {
      method: 'POST',
      path: '/api/payout/cancel',
      body: JSON.stringify({ TransactionID: id }),
      transactionId: id,
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
    });
    return cancelPayoutOutcome(answer, 'payout cancel');
  }

  /** The payout with this TransactionID (GET /api/check_payout_status): pending, success, failed or not found. */
  async getPayoutStatus(transactionId: Digits, options: CallOptions = {}): Promise<PayoutStatusOutcome> {
    const answer = await this.lookUp('/api/check_payout_status', transactionId, options);
    return payoutStatusOutcome(answer, 'payout status');
  }

  /** The pay-in (collection) with this TransactionID (GET /api/payin/status). */
  async getPayinStatus(transactionId: Digits, options: CallOptions = {}): Promise<PayinStatusOutcome> {
    const answer = await this.lookUp('/api/payin/status', transactionId, options);
    return payinStatusOutcome(answer, 'pay-in status');
  }

  // Both status lookups: a GET by TransactionID, retried like any read.
  private lookUp(path: string, transactionId: Digits, options: CallOptions) {
    const id = transactionIdQuery(transactionId);
    return send(this.transport, {
      method: 'GET',
      path,
      query: { TransactionID: id },
      transactionId: id,
      signal: options.signal,
    });
  }

  /**
   * Every payout of yours the filters select, newest first, each as getPayoutStatus shows it, fetched a page
   * at a time (GET /api/payouts) as you iterate: `for await (const payout of client.listPayouts({ status:
   * 'Failed' }))`. Payouts accepted meanwhile never shift the pages still to come, so none is given twice or
   * skipped. Each page is retried like any read; the gateway refusing the filters throws INVALID_REQUEST.
   */
  async *listPayouts(
    filters: PayoutListFilters = {},
    options: CallOptions = {},
  ): AsyncGenerator<PayoutStatusBody, void, undefined> {
    let cursor: string | null = null;
    do {
      const page = await this.getPayoutPage(filters, cursor, options);
      if (page.kind === 'invalid') {
        throw new PayoutClientError(
          'INVALID_REQUEST',
          `payout list: the gateway refused the filters: ${page.message}`,
          {
            httpStatus: page.httpStatus,
            ...(page.requestId !== undefined && { requestId: page.requestId }),
            last: JSON.stringify({ message: page.message, errors: page.errors }),
          },
        );
      }
      yield* page.payouts;
      cursor = page.nextCursor;
    } while (cursor !== null);
  }

  /**
   * One page of your payouts (GET /api/payouts), for walking them yourself (to resume later, say): the first
   * page without `cursor`, each next one with the page before's `nextCursor` and the same filters.
   */
  async getPayoutPage(
    filters: PayoutListFilters = {},
    cursor: string | null = null,
    options: CallOptions = {},
  ): Promise<PayoutPageOutcome> {
    const answer = await send(this.transport, {
      method: 'GET',
      path: '/api/payouts',
      query: listQuery(filters, cursor),
      signal: options.signal,
    });
    return payoutPageOutcome(answer, 'payout list');
  }

  /**
   * Every event your webhooks carry, oldest first, from `after` (your first event unless given), fetched a page
   * at a time (GET /api/events) as you iterate: `for await (const event of client.events({ after: lastApplied
   * }))`. Each is its `position`, then exactly its webhook's body, with the webhook's `sequence`. Each request
   * starts after the last event yielded, so none comes twice and none is skipped (docs/api.md, "Events feed");
   * the iteration ends when you have every event recorded so far: keep the last `position` you applied and
   * iterate from it again later. Each page is retried like any read; the gateway refusing `after` or `limit`
   * throws INVALID_REQUEST.
   */
  async *events(from: EventFeedFrom = {}, options: CallOptions = {}): AsyncGenerator<FeedEvent, void, undefined> {
    let after = from.after ?? '0';
    for (;;) {
      const page = await this.getEventPage({ ...from, after }, options);
      if (page.kind === 'invalid') {
        throw new PayoutClientError('INVALID_REQUEST', `events feed: the gateway refused the query: ${page.message}`, {
          httpStatus: page.httpStatus,
          ...(page.requestId !== undefined && { requestId: page.requestId }),
          last: JSON.stringify({ message: page.message, errors: page.errors }),
        });
      }
      if (page.events.length === 0) return;
      for (const event of page.events) {
        yield event;
        after = event.position;
      }
    }
  }

  /** One page of your events feed (GET /api/events): the events after `after`, and the `nextAfter` to ask from. */
  async getEventPage(from: EventFeedFrom = {}, options: CallOptions = {}): Promise<EventPageOutcome> {
    const query: Record<string, string> = { after: digitsQuery('after', from.after ?? '0') };
    if (from.limit !== undefined) query.limit = String(from.limit);
    const answer = await send(this.transport, { method: 'GET', path: '/api/events', query, signal: options.signal });
    return eventPageOutcome(answer, 'events feed');
  }

  /** The available balance of your main wallet (GET /api/checkMainWallet). */
  async getMainWallet(options: CallOptions = {}): Promise<MainWalletOutcome> {
    const answer = await send(this.transport, {
      method: 'GET',
      path: '/api/checkMainWallet',
      query: { PayoutType: 'Main_Wallet_Balance' },
      signal: options.signal,
    });
    return mainWalletOutcome(answer, 'main wallet');
  }

  /**
   * Every entry of your main wallet's statement for a period, oldest first, each with the balance after it,
   * fetched a page at a time (GET /api/statement) as you iterate: `for await (const entry of
   * client.statement({ from: '2026-12-01', to: '2026-12-02' }))`. Without a main wallet there is nothing to
   * iterate. Each page is retried like any read; the gateway refusing the period throws INVALID_REQUEST. The
   * period's opening and closing balances are on each page of getStatementPage.
   */
  async *statement(
    filters: StatementFilters = {},
    options: CallOptions = {},
  ): AsyncGenerator<StatementEntry, void, undefined> {
    let cursor: string | null = null;
    do {
      const page = await this.getStatementPage(filters, cursor, options);
      if (page.kind === 'not_found') return;
      if (page.kind === 'invalid') {
        throw new PayoutClientError('INVALID_REQUEST', `statement: the gateway refused the period: ${page.message}`, {
          httpStatus: page.httpStatus,
          ...(page.requestId !== undefined && { requestId: page.requestId }),
          last: JSON.stringify({ message: page.message, errors: page.errors }),
        });
      }
      yield* page.statement.entries;
      cursor = page.nextCursor;
    } while (cursor !== null);
  }

  /**
   * One page of your main wallet's statement (GET /api/statement): the period, its opening and closing
   * balances and the page's entries. The first page without `cursor`, each next one with the page before's
   * `nextCursor` (which carries the period) and the same filters.
   */
  async getStatementPage(
    filters: StatementFilters = {},
    cursor: string | null = null,
    options: CallOptions = {},
  ): Promise<StatementPageOutcome> {
    const { limit, ...period } = filters;
    const query = statementQuery(period, { ...(limit !== undefined && { limit: String(limit) }) });
    if (cursor !== null) query.cursor = cursor;
    const answer = await send(this.transport, { method: 'GET', path: '/api/statement', query, signal: options.signal });
    return statementPageOutcome(answer, 'statement');
  }

  /**
   * The whole statement of a period as the gateway's CSV file (GET /api/statement?format=csv), as text: the
   * column names, the opening balance, each entry, the closing balance. A long period is a large file: give
   * the call's `retry.attemptTimeoutMs` room to read it.
   */
  async getStatementCsv(period: StatementPeriod = {}, options: CallOptions = {}): Promise<StatementCsvOutcome> {
    const answer = await send(this.transport, {
      method: 'GET',
      path: '/api/statement',
      query: statementQuery(period, { format: 'csv' }),
      accept: 'text/csv',
      signal: options.signal,
    });
    return statementCsvOutcome(answer, 'statement CSV');
  }

  /**
   * The sponsor banks down or degraded now, per mode (GET /api/downtimes). While every bank serving a mode is
   * down, payouts of that mode are held, then sent when one recovers or failed (`BANK_DOWNTIME`, safe to retry).
   */
  async getDowntimes(options: CallOptions = {}): Promise<DowntimesOutcome> {
    const answer = await send(this.transport, { method: 'GET', path: '/api/downtimes', signal: options.signal });
    return downtimesOutcome(answer, 'downtimes');
  }

  /**
   * Sends a batch of payouts (POST /api/bulkpayout). Safe to call again with the same request: the gateway
   * answers the batch as it now stands, and each item is a payout idempotent by its own TransactionID.
   * Retries within the call send the same bytes, so the same BatchID; after GAVE_UP, send the same request.
   */
  async bulkPayout(request: BulkPayoutRequest, options: CallOptions = {}): Promise<BulkPayoutOutcome> {
    const batchId = digits('BatchID', request.BatchID);
    const payouts = request.Payouts.map((item) =>
      payoutMembers(item.Mode === 'IMPS' ? { ...item, Account: digits('Account', item.Account) } : { ...item }),
    );
    const answer = await send(this.transport, {
      method: 'POST',
      path: '/api/bulkpayout',
      body: JSON.stringify({ BatchID: batchId, Payouts: payouts }),
      transactionId: batchId,
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
    });
    return bulkPayoutOutcome(answer, 'bulk payout');
  }

  /** The batch with this BatchID (GET /api/bulkpayout/status): each item as it now stands, or not found. */
  async getBulkPayoutStatus(batchId: Digits, options: CallOptions = {}): Promise<BulkPayoutStatusOutcome> {
    const id = digitsQuery('BatchID', batchId);
    const answer = await send(this.transport, {
      method: 'GET',
      path: '/api/bulkpayout/status',
      query: { BatchID: id },
      transactionId: id,
      signal: options.signal,
    });
    return bulkPayoutStatusOutcome(answer, 'bulk payout status');
  }

  /**
   * Asks the bank whether the account exists, and the name it holds (POST /api/validate/account). Moves no
   * money, so a time-out or a 503 (the bank did not answer) is simply asked again until the deadline.
   */
  async validateAccount(
    request: AccountValidationRequest,
    options: CallOptions = {},
  ): Promise<ValidationOutcome<AccountValidation>> {
    const body = { Account: digits('Account', request.Account), Ifsc: request.Ifsc };
    const answer = await this.validate('/api/validate/account', body, options);
    return validationOutcome<AccountValidation>(answer, 'account validation');
  }

  /** Asks the UPI network whether the address exists, and the name it holds (POST /api/validate/upi). */
  async validateUpi(
    request: UpiValidationRequest,
    options: CallOptions = {},
  ): Promise<ValidationOutcome<UpiValidation>> {
    const answer = await this.validate('/api/validate/upi', { Upi: request.Upi }, options);
    return validationOutcome<UpiValidation>(answer, 'UPI validation');
  }

  /**
   * A new token for your MID (POST /api/token/rotate), answered this once: keep it at once. This client
   * goes on sending the token it was made with, which keeps working until you revoke it: make a client
   * with the new token, switch your systems over, then revoke the old one with itself: `revokeToken` on this
   * client, naming its own prefix.
   * `at_limit` when you already hold two active tokens; it names both prefixes. A rotation whose answer
   * was lost (a time-out, then a retry) ends `at_limit` too, naming the token you never received (the retry
   * carries the call's Idempotency-Key, and a token is never shown twice): revoke it, then rotate again.
   */
  async rotateToken(options: CallOptions = {}): Promise<RotateTokenOutcome> {
    const answer = await send(this.transport, {
      method: 'POST',
      path: '/api/token/rotate',
      body: '{}',
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
    });
    return rotateTokenOutcome(answer, 'token rotation');
  }

  /**
   * Revokes one of your tokens by its prefix (POST /api/token/revoke): this client's own token, while you
   * hold another, or a token newer than it. A token never revokes an older one, and never your last
   * (`refused`): a token rotated from a leaked one cannot take your original away. Safe to retry: a second
   * revocation of the same token is `not_found` (or, for this client's own, a refused credential).
   */
  async revokeToken(prefix: string, options: CallOptions = {}): Promise<RevokeTokenOutcome> {
    const answer = await send(this.transport, {
      method: 'POST',
      path: '/api/token/revoke',
      body: JSON.stringify({ TokenPrefix: prefix }),
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
    });
    return revokeTokenOutcome(answer, 'token revocation');
  }

  /**
   * A new signing secret for your webhooks (POST /api/webhook/secret), answered this once and to you only:
   * nobody at the gateway sees it. The secret it replaces still signs every delivery beside it until
   * `previousValidUntil` (24 hours), so deploy the new one within that. Deliveries to a URL registered for
   * you wait for your first secret, and are sent once you have it. Safe to retry: a retry after a lost
   * answer issues another secret, and the lost one merely signs beside it for its 24 hours. With an
   * `idempotencyKey` of yours sent again, `issued_before` names the secret that key issued: it is never shown twice.
   */
  async rotateWebhookSecret(options: CallOptions = {}): Promise<WebhookSecretOutcome> {
    const answer = await send(this.transport, {
      method: 'POST',
      path: '/api/webhook/secret',
      body: '{}',
      signal: options.signal,
      // Only the caller's own key: within one call a retry after a lost answer is better served a second secret
      // than a refusal to show the first one again.
      idempotencyKey: options.idempotencyKey ?? false,
    });
    return webhookSecretOutcome(answer, 'webhook secret');
  }

  // Both validations: a POST that moves no money.
  private validate(path: string, body: Record<string, unknown>, options: CallOptions) {
    return send(this.transport, {
      method: 'POST',
      path,
      body: JSON.stringify(body),
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
    });
  }

  /**
   * Looks the payout up until it is final (success or failed) and answers that outcome; invalid at once,
   * and not_found once it has lasted `notFoundGraceMs`, since looking again would not change them; the last
   * pending outcome when `deadlineMs` has passed. Lookups are spaced by a growing, jittered wait, and a
   * 429's Retry-After is honoured by each lookup's own retries.
   */
  async waitForFinal(transactionId: Digits, options: WaitOptions = {}): Promise<PayoutStatusOutcome> {
    const started = Date.now();
    const deadline = started + (options.deadlineMs ?? 600_000);
    const notFoundUntil = started + (options.notFoundGraceMs ?? 5_000);
    const spacing = { firstDelayMs: options.firstDelayMs ?? 1_000, maxDelayMs: options.maxDelayMs ?? 30_000 };
    const callOptions = options.signal ? { signal: options.signal } : {};
    for (let lookup = 1; ; lookup++) {
      const outcome = await this.getPayoutStatus(transactionId, callOptions);
      const settled = outcome.kind === 'not_found' ? Date.now() >= notFoundUntil : outcome.kind !== 'pending';
      if (settled) return outcome;
      const wait = Math.min(backoffMs(spacing, lookup), deadline - Date.now());
      if (wait <= 0) return outcome;
      await sleep(wait, options.signal);
    }
  }
}

/**
 * The request body as JSON text, identifiers and money as strings (which the gateway reads exactly, as
 * it does numbers). Written once per call, so every retry sends the same bytes.
 */
function payoutBody(request: Record<string, unknown>): string {
  return JSON.stringify(payoutMembers(request));
}

/** A payout's members as the wire has them: identifiers as digit strings, the amount as rupee text. */
function payoutMembers(request: Record<string, unknown>): Record<string, unknown> {
  const amount = request.Amount;
  if (typeof amount !== 'string') {
    throw new TypeError('Amount must be rupees as a string, e.g. "101.50" (rupeesFromPaise(10150n) makes one)');
  }
  const body: Record<string, unknown> = { ...request, TransactionID: digits('TransactionID', request.TransactionID) };
  if (request.Mobile !== undefined && request.Mobile !== null) body.Mobile = digits('Mobile', request.Mobile);
  return body;
}

/** A string or bigint of digits as its text. A JS number is refused: past 2^53 it has already lost digits. */
function digits(member: string, value: unknown): string {
  if (typeof value === 'bigint') {
    if (value < 0n) throw new TypeError(`${member} must not be negative`);
    return value.toString();
  }
  if (typeof value === 'string') return value;
  throw new TypeError(`${member} must be a string or a bigint of digits, not a ${typeof value}`);
}

/** A statement's period as query parameters (a Date as its UTC timestamp), with `more` parameters. */
function statementQuery(period: StatementPeriod, more: Record<string, string>): Record<string, string> {
  const query: Record<string, string> = { ...more };
  for (const name of ['from', 'to'] as const) {
    const value = period[name];
    if (value instanceof Date) query[name] = value.toISOString();
    else if (typeof value === 'string') query[name] = value;
  }
  return query;
}

/** The list's filters as query parameters: a Date as its UTC timestamp, the BatchID as its digits. */
function listQuery(filters: PayoutListFilters, cursor: string | null): Record<string, string> {
  const query: Record<string, string> = {};
  // A JavaScript caller may leave a member null as well as out.
  for (const [name, value] of Object.entries(filters) as [
    string,
    string | number | bigint | Date | null | undefined,
  ][]) {
    if (value === undefined || value === null) continue;
    if (value instanceof Date) query[name] = value.toISOString();
    else if (name === 'BatchID') query[name] = digitsQuery('BatchID', value);
    else query[name] = String(value);
  }
  if (cursor !== null) query.cursor = cursor;
  return query;
}

function transactionIdQuery(value: unknown): string {
  return digitsQuery('TransactionID', value);
}

function digitsQuery(member: string, value: unknown): string {
  const id = digits(member, value);
  // A lookup sends the id in the URL: refuse what would not be one identifier before it goes out.
  if (!IDENTIFIER.test(id)) throw new TypeError(`${member} must be 1 to 30 digits`);
  return id;
}
