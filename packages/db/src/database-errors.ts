// Classifies errors from PostgreSQL (through pg or Prisma's driver adapter) so callers can tell
// "the database is unreachable, try later" and "retry this transaction" from bugs.

const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
// 08: connection exception; 57P0x: server shutting down / crash / cannot connect now; 53300: too many connections.
const UNAVAILABLE_SQLSTATE = /^(08|57P0|53300)/;
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|connection is closed|Client has encountered a connection error|the database system is (starting up|shutting down)|server closed the connection|Can't reach database server|ECONNREFUSED/i;
// 57014: statement cancelled (statement_timeout); 55P03: lock not available (lock_timeout). The statement
// was rolled back whole, so nothing it did remains; for the caller it is a database too slow to answer now.
const TIMED_OUT_SQLSTATE = new Set(['57014', '55P03']);
// Serialization failure and deadlock: the whole transaction was rolled back and may simply run again.
const RETRYABLE_SQLSTATE = new Set(['40001', '40P01']);
// What Prisma's driver adapter calls the same situations (meta.driverAdapterError.cause.kind).
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'TooManyConnections',
  'SocketTimeout',
]);

interface ErrorLike {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  originalCode?: unknown;
  originalMessage?: unknown;
  cause?: unknown;
  meta?: { code?: unknown; driverAdapterError?: unknown };
}

/**
 * Every error in the chain: the error itself, its `cause`s, and the driver-adapter error Prisma keeps in
 * `meta` (whose own `cause` holds the PostgreSQL code or the kind of connection failure).
 */
function chainOf(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  const pending: unknown[] = [error];
  while (pending.length && chain.length < 12) {
    const e = pending.shift();
    if (!e || typeof e !== 'object') continue;
    const record = e as ErrorLike;
    chain.push(record);
    pending.push(record.cause, record.meta?.driverAdapterError);
  }
  return chain;
}

function codesOf(error: unknown): string[] {
  return chainOf(error)
    .flatMap((e) => [e.code, e.kind, e.originalCode, e.meta?.code])
    .filter((c): c is string => typeof c === 'string');
}

function messagesOf(error: unknown): string {
  return chainOf(error)
    .flatMap((e) => [e.message, e.originalMessage])
    .filter((m): m is string => typeof m === 'string')
    .join(' | ');
}

/**
 * True when PostgreSQL could not be reached, went away, or gave up on a statement at its statement or lock
 * time-out: the caller should answer 503 or retry later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const codes = codesOf(error);
  if (
    codes.some(
      (c) =>
        UNAVAILABLE_NODE_CODES.has(c) ||
        UNAVAILABLE_SQLSTATE.test(c) ||
        UNAVAILABLE_ADAPTER_KINDS.has(c) ||
        TIMED_OUT_SQLSTATE.has(c),
    )
  ) {
    return true;
  }
  return UNAVAILABLE_MESSAGES.test(messagesOf(error));
}

/** True for a deadlock or serialization failure: the transaction rolled back whole and may be retried. */
export function isRetryableTransactionError(error: unknown): boolean {
  return codesOf(error).some((c) => RETRYABLE_SQLSTATE.has(c)) || /deadlock detected/i.test(messagesOf(error));
}
