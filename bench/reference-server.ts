// The bench's second ceiling (docs/performance.md, "What each stage measures"): the same work as the
// API's accept and status lookup with nothing in the way — node:http and pg, no framework, no ORM, no
// logging, no metrics, no queue. `pnpm bench` starts it as its own process and loads it with the same
// autocannon runs as the API, so "API ÷ reference" says how close the service comes to what Node and
// PostgreSQL can do on this machine.
//
// What it keeps, because any correct server must do it: credentials checked as the service checks them
// (SHA-256 of the presented token compared in constant time with the stored digests, tokenMatchesAny),
// the body parsed and the answer written losslessly (parseJson/stringifyJson: the contract's numbers), the
// amount parsed to paise, a fresh Ack_no, the service's own statements (`SELECT * FROM accept_payouts($1)`
// as packages/db's acceptPayouts sends it, and the lookup's single-row SELECT), and the same wire shapes
// (payoutResult from packages/contract; payoutStatusBody, both from packages/contract). What it leaves out: request
// validation beyond that, rate limits, logging, metrics, and queuing the accepted payout's job in Redis.
// Credentials are read once at start into a map (MID → merchant and token digests): the bench adds no
// merchant or token while it runs.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { payoutResult, payoutStatusBody } from '@payout/contract';
import {
  isJsonNumber,
  newAckNo,
  parseJson,
  parseRupees,
  stringifyJson,
  tokenMatchesAny,
  type FailureReason,
  type PayoutMode,
  type PayoutStatus,
} from '@payout/domain';

interface Credentials {
  merchantId: number;
  tokenHashes: string[];
}

/** A payout row as both statements return it (pg gives bigint columns as strings). */
interface PayoutRow {
  transaction_id: string;
  mode: PayoutMode;
  amount_paise: string;
  ack_no: string;
  status: PayoutStatus;
  failure_reason: FailureReason | null;
  bank_reference: string | null;
  beneficiary_account: string;
  beneficiary_ifsc: string | null;
}

const LOOKUP_SQL =
  'SELECT id, merchant_id, transaction_id, mode, amount_paise, ack_no, state, status, failure_reason, ' +
  'bank_reference, beneficiary_account, beneficiary_ifsc, beneficiary_name ' +
  'FROM payouts WHERE merchant_id = $1 AND transaction_id = $2 LIMIT 1';
const ACCEPT_SQL = 'SELECT * FROM accept_payouts($1::jsonb)';

const databaseUrl = process.env.DATABASE_URL;
const port = Number(process.env.PORT);
if (!databaseUrl || !Number.isInteger(port)) throw new Error('DATABASE_URL and PORT are required');
const pool = new pg.Pool({
  connectionString: databaseUrl,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 16),
  // As the service's pool (packages/db/src/client.ts): connections stay open once opened.
  idleTimeoutMillis: 0,
  application_name: 'bench-reference',
});

// An idle connection's error (PostgreSQL restarted, the connection killed) must not end the process: the
// pool replaces the connection, and the bench counts the line as a problem of the run (bench/app-process.ts).
pool.on('error', (error) => {
  process.stderr.write(JSON.stringify({ level: 50, msg: `reference: idle connection: ${error.message}` }) + '\n');
});

const credentials = new Map<string, Credentials>();
const { rows } = await pool.query<{ mid: string; id: number; token_hash: string }>(
  `SELECT m.mid, m.id, t.token_hash FROM merchants m JOIN merchant_tokens t ON t.merchant_id = m.id
    WHERE m.status = 'ACTIVE' AND t.revoked_at IS NULL`,
);
for (const row of rows) {
  const known = credentials.get(row.mid);
  if (known) known.tokenHashes.push(row.token_hash);
  else credentials.set(row.mid, { merchantId: row.id, tokenHashes: [row.token_hash] });
}

function send(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  const text = stringifyJson(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  send(res, status, { error: true, status_code: status, status: 'FAILED', message });
}

function authenticate(req: IncomingMessage): Credentials | undefined {
  const mid = req.headers.mid;
  const token = req.headers.token;
  if (typeof mid !== 'string' || typeof token !== 'string') return undefined;
  const found = credentials.get(mid);
  return found && tokenMatchesAny(token, found.tokenHashes) ? found : undefined;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' ? value : isJsonNumber(value) ? value.toString() : null;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function accept(req: IncomingMessage, res: ServerResponse, merchant: Credentials, mode: PayoutMode) {
  let body: Record<string, unknown>;
  try {
    body = parseJson(await readBody(req)) as Record<string, unknown>;
  } catch {
    refuse(res, 400, 'body is not JSON');
    return;
  }
  const transactionId = text(body.TransactionID);
  const amountPaise = parseRupees(text(body.Amount) ?? '');
  const account = text(mode === 'IMPS' ? body.Account : body.Upi);
  const name = text(body.Name);
  if (!transactionId || amountPaise === undefined || !account || !name) {
    refuse(res, 400, 'invalid body');
    return;
  }
  const instruction = {
    merchant_id: merchant.merchantId,
    transaction_id: transactionId,
    mode,
    amount_paise: amountPaise.toString(),
    ack_no: newAckNo(),
    account,
    ifsc: mode === 'IMPS' ? text(body.Ifsc) : null,
    name,
    bank_name: mode === 'IMPS' ? text(body.BankName) : null,
    mobile: text(body.Mobile),
    email: text(body.Email),
    description: text(body.Description),
  };
  const { rows } = await pool.query<PayoutRow>(ACCEPT_SQL, [JSON.stringify([instruction])]);
  const { httpStatus, body: answer } = payoutResult(summary(rows[0]!));
  send(res, httpStatus, answer);
}

async function lookUp(res: ServerResponse, merchant: Credentials, transactionId: string | null) {
  if (!transactionId) {
    refuse(res, 400, 'TransactionID is required');
    return;
  }
  const { rows } = await pool.query<PayoutRow>(LOOKUP_SQL, [merchant.merchantId, transactionId]);
  const row = rows[0];
  if (!row) {
    refuse(res, 404, 'Transaction not found');
    return;
  }
  send(res, 200, payoutStatusBody(summary(row)));
}

function summary(row: PayoutRow) {
  return {
    mode: row.mode,
    status: row.status,
    transactionId: row.transaction_id,
    amountPaise: BigInt(row.amount_paise),
    ackNo: row.ack_no,
    account: row.beneficiary_account,
    ifsc: row.beneficiary_ifsc,
    bankReference: row.bank_reference,
    failureReason: row.failure_reason,
  };
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (path === '/healthz') {
    send(res, 200, { status: 'ok' });
    return;
  }
  const merchant = authenticate(req);
  if (!merchant) {
    refuse(res, 401, 'Unauthenticated');
    return;
  }
  if (req.method === 'POST' && path === '/api/impspayout') return accept(req, res, merchant, 'IMPS');
  if (req.method === 'POST' && path === '/api/payout') return accept(req, res, merchant, 'UPI');
  if (req.method === 'GET' && path === '/api/check_payout_status') {
    return lookUp(res, merchant, new URLSearchParams(url.slice(queryAt + 1)).get('TransactionID'));
  }
  refuse(res, 404, 'not found');
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    process.stderr.write(JSON.stringify({ level: 50, msg: `reference: ${(error as Error).message}` }) + '\n');
    if (!res.headersSent) refuse(res, 500, 'internal error');
    else res.destroy();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, process.env.HOST ?? '127.0.0.1');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  });
}
