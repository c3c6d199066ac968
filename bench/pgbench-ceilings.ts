import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// The machine's own ceilings: pgbench running, on the bench's database, the statements the service's hot
// paths run, with nothing between the client and PostgreSQL. Every payout gets a TransactionID and Ack_no
// no other can have: a per-run base, the pgbench client's number, and a random part within the client.

/** One payout instruction, shaped as packages/db's acceptPayouts sends it to accept_payouts($1::jsonb). */
const ACCEPT_SCRIPT = String.raw`\set mid random(:first_mid, :last_mid)
\set tx :tx_base + :client_id * 100000000000000 + random(0, 99999999999999)
SELECT * FROM accept_payouts('[{"merchant_id": :mid, "transaction_id": ":tx", "mode": "IMPS", "amount_paise": "10100", "ack_no": "P:tx", "account": "123456789012", "ifsc": "HDFC0001234", "name": "Asha Kumar", "bank_name": "HDFC Bank", "mobile": "9876543210", "email": "asha@example.com", "description": "Salary"}]'::jsonb);
`;

/** The naive design: one transaction per payout, each step its own statement, the wallet locked first. */
const NAIVE_SCRIPT = String.raw`\set mid random(:first_mid, :last_mid)
\set tx :tx_base + :client_id * 100000000000000 + random(0, 99999999999999)
BEGIN;
UPDATE wallets SET available_paise = available_paise - 10100, reserved_paise = reserved_paise + 10100, updated_at = now() WHERE merchant_id = :mid AND available_paise >= 10100;
INSERT INTO payouts (merchant_id, transaction_id, mode, amount_paise, ack_no, state, status, beneficiary_account, beneficiary_ifsc, beneficiary_name, beneficiary_bank_name, beneficiary_mobile, beneficiary_email, description, next_check_at) VALUES (:mid, (:tx)::text, 'IMPS', 10100, 'P' || (:tx)::text, 'ACCEPTED', 'PENDING', '123456789012', 'HDFC0001234', 'Asha Kumar', 'HDFC Bank', '9876543210', 'asha@example.com', 'Salary', now());
INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, payout_id) VALUES (:mid, 'PAYOUT_RESERVE', 'MAIN_WALLET', -10100, currval('payouts_id_seq'));
INSERT INTO ledger_entries (merchant_id, kind, account, amount_paise, payout_id) VALUES (:mid, 'PAYOUT_RESERVE', 'RESERVED', 10100, currval('payouts_id_seq'));
COMMIT;
`;

/** The status lookup's query (findPayoutByTransactionId) on payouts that exist: TransactionIDs 1…keys. */
const LOOKUP_SCRIPT = String.raw`\set mid random(:first_mid, :last_mid)
\set k random(1, :keys)
SELECT id, merchant_id, transaction_id, mode, amount_paise, ack_no, state, status, failure_reason, bank_reference, beneficiary_account, beneficiary_ifsc, beneficiary_name FROM payouts WHERE merchant_id = :mid AND transaction_id = (:k)::text LIMIT 1;
`;

export type CeilingScript = 'accept' | 'naive' | 'lookup';

const SCRIPTS: Record<CeilingScript, string> = { accept: ACCEPT_SCRIPT, naive: NAIVE_SCRIPT, lookup: LOOKUP_SCRIPT };

/**
 * pgbench's query mode per script. The accept script carries its JSON as a literal (pgbench variables
 * cannot be text), which only the simple protocol substitutes; the others are prepared, the cheapest a
 * client can make them, so their ceilings are as high as they get.
 */
const QUERY_MODE: Record<CeilingScript, 'simple' | 'prepared'> = {
  accept: 'simple',
  naive: 'prepared',
  lookup: 'prepared',
};

export interface PgbenchRun {
  script: CeilingScript;
  databaseUrl: string;
  /** Where the script file is written. */
  workDir: string;
  clients: number;
  threads: number;
  durationS: number;
  /** Merchant ids are drawn uniformly from this range (one id: every transaction on one wallet). */
  merchantIds: { first: number; last: number };
  /** Distinct for every run on one database, so no two runs' TransactionIDs meet. */
  runIndex: number;
  /** lookup: TransactionIDs 1…keys exist for every merchant. */
  lookupKeys?: number;
  /** Called with the running process, so an interrupted bench can stop it. */
  onStart?: (stop: () => void) => void;
}

export interface PgbenchResult {
  script: CeilingScript;
  queryMode: string;
  clients: number;
  tps: number;
  latencyAvgMs: number;
  transactions: number;
  failed: number;
  /** The first aborted client's complaint, if any. */
  problem: string | null;
}

export async function runPgbench(run: PgbenchRun): Promise<PgbenchResult> {
  const scriptFile = join(run.workDir, `${run.script}.sql`);
  await writeFile(scriptFile, SCRIPTS[run.script]);
  const url = new URL(run.databaseUrl);
  const queryMode = QUERY_MODE[run.script];
  const args = [
    '--no-vacuum',
    `--protocol=${queryMode}`,
    `--client=${run.clients}`,
    `--jobs=${run.threads}`,
    `--time=${Math.max(1, Math.round(run.durationS))}`,
    `--file=${scriptFile}`,
    `--define=first_mid=${run.merchantIds.first}`,
    `--define=last_mid=${run.merchantIds.last}`,
    `--define=tx_base=${100_000_000_000_000_000n + BigInt(run.runIndex) * 10_000_000_000_000_000n}`,
    `--define=keys=${run.lookupKeys ?? 1}`,
    `--host=${url.hostname}`,
    `--port=${url.port || '5432'}`,
    `--username=${decodeURIComponent(url.username || 'postgres')}`,
    decodeURIComponent(url.pathname.slice(1)),
  ];
  const env = { ...process.env, ...(url.password && { PGPASSWORD: decodeURIComponent(url.password) }) };
  const child = spawn('pgbench', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  run.onStart?.(() => child.kill('SIGTERM'));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  const tps = /^tps = ([\d.]+)/m.exec(stdout);
  if (!tps) throw new Error(`pgbench ${run.script} failed (exit ${code}):\n${stderr || stdout}`);
  const number = (pattern: RegExp) => Number(pattern.exec(stdout)?.[1] ?? NaN);
  return {
    script: run.script,
    queryMode,
    clients: run.clients,
    tps: Number(tps[1]),
    latencyAvgMs: number(/^latency average = ([\d.]+) ms/m),
    transactions: number(/^number of transactions actually processed: (\d+)/m),
    failed: number(/^number of failed transactions: (\d+)/m) || 0,
    problem: /^.*aborted.*$/m.exec(stderr)?.[0] ?? null,
  };
}
