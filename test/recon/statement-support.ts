import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@payout/cli';
import { createPrismaClient, type PayoutSummary } from '@payout/db';
import type { RailSimServer } from '@payout/rail-sim';

/** Sends a payout to the simulated bank as the worker would, and returns the bank's answer. */
export async function sendToBank(
  bank: RailSimServer,
  payout: PayoutSummary,
): Promise<{ status: string; utr?: string }> {
  const response = await fetch(`${bank.url}/v1/payouts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      reference: payout.ackNo,
      mode: payout.mode,
      amount_paise: payout.amountPaise.toString(),
      beneficiary_name: 'Asha Kumar',
      account: payout.account,
      ...(payout.ifsc === null ? {} : { ifsc: payout.ifsc }),
    }),
  });
  if (response.status !== 200) throw new Error(`bank answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { status: string; utr?: string };
}

/** The bank's statement of a day (today, IST, without one), as GET /v1/statement exports it. */
export async function bankStatement(bank: RailSimServer, date?: string): Promise<string> {
  const response = await fetch(`${bank.url}/v1/statement${date ? `?date=${date}` : ''}`);
  if (response.status !== 200) throw new Error(`statement: ${response.status} ${await response.text()}`);
  return response.text();
}

/** Writes a statement file in a fresh temporary directory and returns its path. */
export async function statementFile(text: string, name = 'statement.csv'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'recon-'));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** Today's date in India (the statement's business day). */
export function istToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
}

/** `pnpm cli …` in-process with STATEMENT_MAX_BYTES set to `statementMaxBytes` (the recon commands need no queue). */
export async function cliWithStatementLimit(
  statementMaxBytes: number,
  ...argv: string[]
): Promise<{ status: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, {
    statementMaxBytes,
    openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
    openQueue: () => {
      throw new Error('recon statement needs no queue');
    },
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** What `pnpm cli recon statement --json` answers, as far as the statement tests read it. */
export interface StatementRunJson {
  counts: Record<string, number>;
  breaks: { kind: string; reference: string; candidates?: { ack_no: string; [field: string]: unknown }[] }[];
  plannedActions: { kind: string; ackNo: string; utr: string }[];
  setAside: { why: string }[];
  valueDates: string[];
}
