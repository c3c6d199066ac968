// Classifies errors from PostgreSQL (through pg or Prisma's driver adapter) so callers can tell
// "the database is unreachable, try later" and "retry this transaction" from bugs.

const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
// 08: connection exception; 57P0x: server shutting down / crash / cannot connect now; 53300: too many connections.
const UNAVAILABLE_SQLSTATE = /^(08|57P0|53300)/;
const UNAVAILABLE_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|connection is closed|Client has encountered a connection error|the database system is (starting up|shutting down)|server closed the connection|Can't reach database server|ECONNREFUSED/i;
// Serialization failure and deadlock: the whole transaction was rolled back and may simply run again.
const RETRYABLE_SQLSTATE = new Set(['40001', '40P01']);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 6; depth++) {
    const record = e as { code?: unknown; cause?: unknown; originalCode?: unknown; meta?: { code?: unknown } };
    for (const c of [record.code, record.originalCode, record.meta?.code]) if (typeof c === 'string') codes.push(c);
    e = record.cause;
  }
  return codes;
}

function messagesOf(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    if (e instanceof Error) parts.push(e.message);
    else if (typeof e === 'object' && 'message' in e) parts.push(String(e.message));
    e = typeof e === 'object' ? (e as { cause?: unknown }).cause : undefined;
  }
  return parts.join(' | ');
}

/** True when PostgreSQL could not be reached or went away: the caller should answer 503 or retry later. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (codesOf(error).some((c) => UNAVAILABLE_NODE_CODES.has(c) || UNAVAILABLE_SQLSTATE.test(c))) return true;
  return UNAVAILABLE_MESSAGES.test(messagesOf(error));
}

/** True for a deadlock or serialization failure: the transaction rolled back whole and may be retried. */
export function isRetryableTransactionError(error: unknown): boolean {
  return codesOf(error).some((c) => RETRYABLE_SQLSTATE.has(c)) || /deadlock detected/i.test(messagesOf(error));
}
