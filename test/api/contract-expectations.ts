import { randomInt } from 'node:crypto';
import type pg from 'pg';
import { expect } from 'vitest';
import { newAckNo } from '@payout/domain';
import {
  createPrismaClient,
  findPayoutByTransactionId,
  recordCollection,
  settleSuccess,
  transitionPayout,
} from '@payout/db';
import type { ApiResponse } from '../support/api.js';

// What the wire contract (docs/api.md, "Response bodies" and the sections after it) fixes, written out here rather than
// imported from the application: a contract test must not agree with the code merely by sharing its constants.

export const CONTRACT_MESSAGES = {
  unauthenticated:
    'Authentication credentials are missing or invalid. Please provide valid credentials to access the resource.',
  invalidMid: 'Please Input Valid MID',
  transactionNotFound: 'Transaction not found, Please Contact the Administrator.',
  walletNotFound: 'Data not found, please contact administrative !!.',
  invalidPayoutType: 'Something went wrong, please input valid payout type',
  pending: 'MP006 - Your transaction is in progress',
  success: 'MP00 - Transaction successful',
  insufficientBalance: 'MP007 - Transaction failed: insufficient balance in main wallet',
  tokenLimit: (prefixes: string) =>
    `You already hold two active tokens (${prefixes}). Revoke the one you no longer use (POST /api/token/revoke), then rotate again.`,
  tokenNotFound: 'None of your active tokens has this prefix.',
  tokenRevokesOlder:
    'A token cannot revoke an older token. Send this request with the token you are revoking: a token may revoke itself while you hold another.',
  lastToken:
    'This is your only active token: revoking it would lock you out. Rotate first (POST /api/token/rotate), then revoke it with itself.',
  webhookNotRegistered:
    'No webhook URL is registered for you yet. Ask us to register it, then fetch your signing secret.',
} as const;

/** Any message the contract does not spell out: still a string, and not blank. */
export const anyText: unknown = expect.stringMatching(/\S/);

/** The shape of our Ack_no (docs/api.md, "Response bodies": 12–20 upper-case letters and digits). */
export const ACK_NO_PATTERN = /^[A-Z0-9]{12,20}$/;

/** Asserts the Content-Type, the HTTP status and the whole parsed body (every key, type and value). */
export function expectJson(res: ApiResponse, status: number, body: Record<string, unknown>): void {
  expect(res.headers.get('content-type'), 'Content-Type').toMatch(/^application\/json\s*(;|$)/i);
  expect({ status: res.status, body: res.json }, res.text).toEqual({ status, body });
}

/** An error result (docs/api.md, "Errors at large"): error true, status_code = HTTP status. */
export function errorBody(statusCode: number, status: string, message: unknown = anyText): Record<string, unknown> {
  return { error: true, status_code: statusCode, status, message };
}

export const unauthorizedBody = errorBody(401, 'UNAUTHORIZED', CONTRACT_MESSAGES.unauthenticated);

/** The invalid-MID answer: "FAILED" on the status lookups and payouts, "BAD REQUEST" on the wallet lookup. */
export function invalidMidBody(status: 'FAILED' | 'BAD REQUEST'): Record<string, unknown> {
  return errorBody(400, status, CONTRACT_MESSAGES.invalidMid);
}

export function notFoundBody(transactionId: string): Record<string, unknown> {
  return { ...errorBody(404, 'NOT FOUND', CONTRACT_MESSAGES.transactionNotFound), TransactionID: transactionId };
}

/**
 * The contract's 422: the whole body, and `errors` naming exactly the given fields (in any order), each
 * entry exactly `{ field, message }` with a non-blank message.
 */
export function expectValidationError(res: ApiResponse, fields: readonly string[]): void {
  expectJson(res, 422, {
    ...errorBody(422, 'VALIDATION ERROR'),
    errors: fields.map(() => ({ field: expect.any(String), message: anyText })),
  });
  const listed = (res.json.errors as { field: string }[]).map((e) => e.field);
  expect([...listed].sort(), res.text).toEqual([...fields].sort());
}

/** A digit string of exactly `length` digits, not starting with 0 (so it is also a valid JSON number). */
export function digitsOfLength(length: number): string {
  let digits = String(randomInt(1, 10));
  while (digits.length < length) digits += String(randomInt(0, 10));
  return digits;
}

/**
 * A JSON object as text, with some members written as raw literals (`{ TransactionID: '1234…' }` puts the
 * digits in as a JSON number), so the test controls the exact bytes on the wire.
 */
export function jsonText(members: Record<string, unknown>, literals: Record<string, string> = {}): string {
  const parts = Object.entries(members)
    .filter(([key]) => !(key in literals))
    .map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`);
  for (const [key, literal] of Object.entries(literals)) parts.push(`${JSON.stringify(key)}:${literal}`);
  return `{${parts.join(',')}}`;
}

/** Everything the API could change for one merchant, as comparable text: rows, counts and the wallet. */
export async function merchantSnapshot(pool: pg.Pool, merchantId: number): Promise<Record<string, unknown>> {
  const { rows } = await pool.query<Record<string, unknown>>(
    `SELECT
       (SELECT count(*)::int FROM payouts WHERE merchant_id = $1) AS payouts,
       (SELECT coalesce(string_agg(id::text || ':' || state::text || ':' || updated_at::text, ',' ORDER BY id), '')
          FROM payouts WHERE merchant_id = $1) AS payout_rows,
       (SELECT count(*)::int FROM ledger_entries WHERE merchant_id = $1) AS ledger_entries,
       (SELECT count(*)::int FROM payout_events e JOIN payouts p ON p.id = e.payout_id WHERE p.merchant_id = $1)
         AS payout_events,
       (SELECT count(*)::int FROM collections WHERE merchant_id = $1) AS collections,
       (SELECT available_paise::text || '/' || reserved_paise::text || '/' || updated_at::text
          FROM wallets WHERE merchant_id = $1) AS wallet`,
    [merchantId],
  );
  return rows[0]!;
}

export interface WalletRow {
  available: bigint;
  reserved: bigint;
}

export async function walletOf(pool: pg.Pool, merchantId: number): Promise<WalletRow | null> {
  const { rows } = await pool.query<{ available_paise: string; reserved_paise: string }>(
    'SELECT available_paise, reserved_paise FROM wallets WHERE merchant_id = $1',
    [merchantId],
  );
  const row = rows[0];
  return row ? { available: BigInt(row.available_paise), reserved: BigInt(row.reserved_paise) } : null;
}

export interface PayoutRow {
  id: string;
  mode: string;
  state: string;
  status: string;
  ack_no: string;
  amount_paise: string;
  beneficiary_account: string;
  beneficiary_ifsc: string | null;
  failure_reason: string | null;
  bank_reference: string | null;
}

/** The merchant's payouts with this TransactionID (at most one if the service keeps its promise). */
export async function payoutRows(pool: pg.Pool, merchantId: number, transactionId: string): Promise<PayoutRow[]> {
  const { rows } = await pool.query<PayoutRow>(
    `SELECT id::text, mode::text, state::text, status::text, ack_no, amount_paise::text, beneficiary_account,
            beneficiary_ifsc, failure_reason::text, bank_reference
       FROM payouts WHERE merchant_id = $1 AND transaction_id = $2`,
    [merchantId, transactionId],
  );
  return rows;
}

export async function ledgerEntriesOf(
  pool: pg.Pool,
  payoutId: string,
): Promise<{ kind: string; account: string; amount_paise: string }[]> {
  const { rows } = await pool.query<{ kind: string; account: string; amount_paise: string }>(
    `SELECT kind::text, account::text, amount_paise::text FROM ledger_entries WHERE payout_id = $1 ORDER BY account`,
    [payoutId],
  );
  return rows;
}

/**
 * Settles a payout as SUCCESS without a worker, through the real settlement code (sent to the rail, then
 * settled), so the ledger and wallet move exactly as they would in production.
 */
export async function markPayoutSuccess(
  _pool: pg.Pool,
  merchantId: number,
  transactionId: string,
  // A UTR settles at most one payout (reconcile checks it), and suites share a database in test/distributed.
  bankReference = `7${String(randomInt(10 ** 10)).padStart(11, '0')}`,
): Promise<void> {
  const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 });
  try {
    const payout = await findPayoutByTransactionId(db, merchantId, transactionId);
    expect(payout, 'payout to mark SUCCESS').not.toBeNull();
    const note = { reason: 'test: the rail decided at once', actor: 'test' };
    await transitionPayout(
      db,
      payout!.id,
      'SUBMITTING',
      { onlyFrom: ['ACCEPTED'], incrementSubmitAttempts: true, nextCheckAt: null },
      note,
    );
    expect((await settleSuccess(db, payout!.id, bankReference, note)).moved).toBe(true);
  } finally {
    await db.$disconnect();
  }
}

export interface NewCollection {
  merchantId: number;
  transactionId: string;
  mode?: 'INTENT' | 'COLLECT' | 'QR';
  payerAccount?: string;
  amountPaise: bigint;
  bankReference: string;
  ackNo?: string;
  status?: 'PENDING' | 'SUCCESS' | 'FAILED';
}

/** A pay-in as the collection provider reports it, through the real ingestion code. Returns its Ack_no. */
export async function insertCollection(_pool: pg.Pool, c: NewCollection): Promise<string> {
  const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 });
  try {
    const recorded = await recordCollection(db, {
      merchantId: c.merchantId,
      transactionId: c.transactionId,
      mode: c.mode ?? 'INTENT',
      payerAccount: c.payerAccount ?? '',
      amountPaise: c.amountPaise,
      bankReference: c.bankReference,
      ackNo: c.ackNo ?? newAckNo(),
      status: c.status ?? 'SUCCESS',
    });
    expect(recorded.outcome).toBe('created');
    return recorded.ackNo;
  } finally {
    await db.$disconnect();
  }
}

/**
 * Repeats `attempt` until `done` holds or `timeoutMs` passes, a few milliseconds apart, and returns the
 * last result (the caller asserts on it, so a timeout fails with the real answer in view). Used only to
 * wait out the API's 1 ms credential cache.
 */
export async function pollUntil<T>(
  attempt: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 2_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await attempt();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    value = await attempt();
  }
  return value;
}

/**
 * Sends a request with exactly these headers and body bytes (no Content-Type unless given), for what
 * `call()` cannot express: no Content-Type at all, or bytes that are not UTF-8.
 */
export async function sendBytes(
  apiUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: Uint8Array } = {},
): Promise<ApiResponse> {
  const response = await fetch(apiUrl + path, {
    method: options.method ?? 'POST',
    headers: options.headers ?? {},
    // A copy over a plain ArrayBuffer, which is what fetch's body type accepts.
    body: options.body && new Uint8Array(options.body),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Left empty: the assertion on json fails and shows `text`.
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The MID and Token headers of a merchant, for `sendBytes`. */
export function credentialHeaders(merchant: { mid: string; token: string }): Record<string, string> {
  return { MID: merchant.mid, Token: merchant.token };
}
