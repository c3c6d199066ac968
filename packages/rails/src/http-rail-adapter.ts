import { Pool } from 'undici';
import { z } from 'zod';
import { isRailFailureReason } from '@payout/domain';
import {
  isBankReference,
  type AccountToValidate,
  type BeneficiaryValidation,
  type PayoutInstruction,
  type RailAdapter,
  type RailStatusAnswer,
  type RailSubmitAnswer,
} from './rail-adapter.js';
import { storable } from './storable.js';

export interface HttpRailAdapterOptions {
  /** Where the rail listens, e.g. `http://127.0.0.1:4100`; a path prefix is kept. */
  baseUrl: string;
  /** Longest wait for a TCP connection to the rail (undici checks it about twice a second, so it may run over). */
  connectTimeoutMs: number;
  /**
   * Longest a call may take in all, from the moment it is made to the last byte of the reply: waiting for a
   * free connection, connecting and sending included.
   */
  responseTimeoutMs: number;
  /** Most keep-alive connections held open to the rail; calls beyond it queue. Default 50. */
  maxConnections?: number;
}

const DEFAULT_MAX_CONNECTIONS = 50;

const replySchema = z.object({
  reference: z.string(),
  status: z.enum(['SUCCESS', 'FAILED', 'PENDING', 'REVERSED']),
  utr: z.string().min(1).optional(),
  reason: z.string().optional(),
});

const validationReplySchema = z.object({
  status: z.enum(['VALID', 'INVALID']),
  registered_name: z.string().trim().min(1).max(200).optional(),
});

/** The rail's reply to one call, or why there was none. */
type RailReply = { ok: true; statusCode: number; text: string } | { ok: false; detail: string };
/** One call to the rail: a method, a path under the base URL and, for a POST, its JSON body. */
type Exchange = (method: 'GET' | 'POST', path: string, payload?: string) => Promise<RailReply>;

/**
 * A {@link RailAdapter} that speaks the rail's JSON-over-HTTP API (`POST /v1/payouts`,
 * `GET /v1/payouts/:reference`, `POST /v1/validations/account` and `/upi`) over keep-alive connections. It
 * never throws for network or HTTP trouble: anything that leaves the payout's fate open is answered UNKNOWN
 * with a detail for the logs, and what it returns is always {@link storable}.
 */
export function createHttpRailAdapter(options: HttpRailAdapterOptions): RailAdapter {
  const { exchange, close } = railConnection(options);
  return {
    submit: async (instruction) => storable(await submitPayout(exchange, instruction)),
    status: async (reference) => storable(await askStatus(exchange, reference)),
    validateAccount: ({ account, ifsc }: AccountToValidate) =>
      validate(exchange, '/v1/validations/account', { account, ifsc }),
    validateUpi: (upi: string) => validate(exchange, '/v1/validations/upi', { upi }),
    close,
  };
}

/** The keep-alive pool to the rail, the one way calls go over it, and its closing (once). */
function railConnection(options: HttpRailAdapterOptions): { exchange: Exchange; close: () => Promise<void> } {
  const base = new URL(options.baseUrl);
  const pathPrefix = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, {
    connections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    connect: { timeout: options.connectTimeoutMs },
  });
  let closing: Promise<void> | undefined;

  const exchange: Exchange = async (method, path, payload) => {
    try {
      const { statusCode, body } = await pool.request({
        method,
        path: pathPrefix + path,
        headers: payload === undefined ? { accept: 'application/json' } : JSON_HEADERS,
        body: payload ?? null,
        // Not undici's headersTimeout: its timers tick about once a second, too coarse for a short deadline,
        // and it would not count the wait for a free connection or a reply body that trickles in.
        signal: AbortSignal.timeout(options.responseTimeoutMs),
      });
      return { ok: true, statusCode, text: await body.text() };
    } catch (error) {
      return { ok: false, detail: describeFailure(error, options) };
    }
  };
  const close = (): Promise<void> => (closing ??= pool.close());
  return { exchange, close };
}

// A validation moves no money, so anything but the rail's clear word (a time-out, a 5xx, an unreadable
// reply) is UNKNOWN: the caller answers 503 and the merchant may simply ask again.
async function validate(
  exchange: Exchange,
  path: string,
  question: Record<string, string>,
): Promise<BeneficiaryValidation> {
  const reply = await exchange('POST', path, JSON.stringify(question));
  if (!reply.ok) return { outcome: 'UNKNOWN', detail: reply.detail };
  const { statusCode, text } = reply;
  if (statusCode < 200 || statusCode >= 300) {
    return { outcome: 'UNKNOWN', detail: `rail answered HTTP ${statusCode}${snippet(text)}` };
  }
  const raw = parseOrText(text);
  const parsed = validationReplySchema.safeParse(raw);
  if (!parsed.success)
    return { outcome: 'UNKNOWN', detail: `unreadable validation reply from the rail${snippet(text)}` };
  const answer = parsed.data;
  if (answer.status === 'INVALID') return { outcome: 'INVALID', raw };
  if (answer.registered_name === undefined) {
    return { outcome: 'UNKNOWN', detail: 'rail said VALID without the registered name' };
  }
  return { outcome: 'VALID', registeredName: answer.registered_name, raw };
}

async function submitPayout(exchange: Exchange, instruction: PayoutInstruction): Promise<RailSubmitAnswer> {
  const reply = await exchange('POST', '/v1/payouts', wireInstruction(instruction));
  if (!reply.ok) return { outcome: 'UNKNOWN', detail: reply.detail };
  const { statusCode, text } = reply;
  if (statusCode >= 200 && statusCode < 300) return readReply(instruction.reference, text);
  // The rail turned the submit away. That is not proof that nothing was paid: a bank that already holds
  // the reference (paid, its reply lost) may refuse the resubmit as a duplicate. Only its status API
  // can tell, so this settles nothing (docs/bank-boundary.md).
  if (statusCode === 400 || statusCode === 422) {
    return {
      outcome: 'REFUSED',
      detail: `rail refused the submit with HTTP ${statusCode}${snippet(text)}`,
      raw: parseOrText(text),
    };
  }
  if (statusCode === 409) {
    return {
      outcome: 'UNKNOWN',
      detail:
        `rail answered 409: it already holds reference ${instruction.reference} with a different ` +
        'mode, amount or account; a person must compare the two before anything else is done',
    };
  }
  return { outcome: 'UNKNOWN', detail: `rail answered HTTP ${statusCode}${snippet(text)}` };
}

async function askStatus(exchange: Exchange, reference: string): Promise<RailStatusAnswer> {
  const reply = await exchange('GET', `/v1/payouts/${encodeURIComponent(reference)}`);
  if (!reply.ok) return { outcome: 'UNKNOWN', detail: reply.detail };
  const { statusCode, text } = reply;
  if (statusCode >= 200 && statusCode < 300) return readReply(reference, text);
  if (statusCode === 404) {
    // Only the rail's own "never seen it" counts: a bare 404 from a proxy or a wrong base URL says
    // nothing about the payout, and taking it for NOT_FOUND could get a paid payout sent again.
    const raw = parseOrText(text);
    if (isNotFoundBody(raw, reference)) return { outcome: 'NOT_FOUND', raw };
  }
  return { outcome: 'UNKNOWN', detail: `rail answered HTTP ${statusCode}${snippet(text)}` };
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

function wireInstruction(instruction: PayoutInstruction): string {
  return JSON.stringify({
    reference: instruction.reference,
    mode: instruction.mode,
    amount_paise: instruction.amountPaise.toString(),
    account: instruction.account,
    ...(instruction.ifsc === undefined ? {} : { ifsc: instruction.ifsc }),
    beneficiary_name: instruction.beneficiaryName,
  });
}

function readReply(reference: string, text: string): Exclude<RailSubmitAnswer, { outcome: 'REFUSED' }> {
  const raw = parseOrText(text);
  const parsed = replySchema.safeParse(raw);
  if (!parsed.success) return { outcome: 'UNKNOWN', detail: `unreadable reply from the rail${snippet(text)}` };
  const reply = parsed.data;
  if (reply.reference !== reference) {
    return { outcome: 'UNKNOWN', detail: `rail replied about reference ${reply.reference}, not ${reference}` };
  }
  switch (reply.status) {
    case 'SUCCESS':
    case 'REVERSED':
      // Without the bank's reference (or with a garbled one) it cannot be reconciled, so it is not taken
      // as the rail's word yet: the next inquiry asks again.
      if (reply.utr === undefined)
        return { outcome: 'UNKNOWN', detail: `rail said ${reply.status} without a bank reference` };
      if (!isBankReference(reply.utr)) {
        return {
          outcome: 'UNKNOWN',
          detail: `rail said ${reply.status} with a malformed bank reference${snippet(reply.utr)}`,
        };
      }
      return { outcome: reply.status, bankReference: reply.utr, raw };
    case 'FAILED':
      // The rail's word that it failed is final; a reason outside the contract's list is still a refusal.
      return { outcome: 'FAILED', reason: isRailFailureReason(reply.reason) ? reply.reason : 'RAIL_REJECTED', raw };
    case 'PENDING':
      return { outcome: 'PENDING', raw };
  }
}

function isNotFoundBody(raw: unknown, reference: string): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const body = raw as Record<string, unknown>;
  return body.status === 'NOT_FOUND' && body.reference === reference;
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function snippet(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  return `: ${trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed}`;
}

function describeFailure(error: unknown, options: HttpRailAdapterOptions): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const name = error instanceof Error ? error.name : undefined;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return `no connection to the rail within ${options.connectTimeoutMs} ms`;
  if (name === 'TimeoutError') return `no reply from the rail within ${options.responseTimeoutMs} ms`;
  const message = error instanceof Error ? error.message : String(error);
  return `call to the rail failed${typeof code === 'string' ? ` (${code})` : ''}: ${message}`;
}
