import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { istDate } from '../../apps/rail-sim/src/statement-export.js';
import type { SoakOperators } from './four-eyes.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Each day's statement, read twice: as MT940 (SWIFT), then as camt.053 (ISO 20022). */
const STATEMENT_FORMATS = [
  ['mt940', 'sta'],
  ['camt053', 'xml'],
] as const;

/** One `pnpm cli recon statement --apply` run of the soak. */
export interface StatementRun {
  /** The bank whose statement it is. */
  bank: string;
  date: string;
  /** The layout the bank sent it in: the same day is read as MT940, then again as camt.053. */
  format: string;
  exitCode: number | null;
  applied: number;
  counts: Record<string, number>;
}

/**
 * The daily job of a payout operator, at the end of the soak: the simulated bank's statement of every day
 * the run touched, matched against our books with `pnpm cli recon statement --apply` — twice, as the two
 * files a bank sends (MT940, then camt.053), the second reading of the day applying nothing
 * (docs/reconciliation.md, docs/reconciliation-formats.md). It is what returns the `.99` reversals:
 * the bank took the money back after the worker had settled the payouts SUCCESS. Each application is
 * asked for by one operator and approved by another.
 */
export async function runStatements(options: {
  /** The bank whose statements are read, and where it answers. */
  bank: string;
  railUrl: string;
  /** The banks as the apps know them (BANKS), so `recon statement` knows whose statement it reads. */
  appEnv: Record<string, string>;
  databaseUrl: string;
  /** An admin listener of the soak's APIs: the application and its approval are sent there. */
  adminUrl: string;
  operators: SoakOperators;
  since: number;
  dir: string;
}): Promise<StatementRun[]> {
  const dates = new Set<string>();
  for (let t = options.since; t < Date.now(); t += 60 * 60 * 1000) dates.add(istDate(t));
  dates.add(istDate(Date.now()));
  const runs: StatementRun[] = [];
  for (const date of dates) {
    for (const [format, extension] of STATEMENT_FORMATS) {
      const response = await fetch(`${options.railUrl}/v1/statement?date=${date}&format=${format}`);
      if (!response.ok) throw new Error(`rail-sim ${format} statement of ${date}: HTTP ${response.status}`);
      const file = path.join(options.dir, `statement-${options.bank}-${date}.${extension}`);
      await writeFile(file, await response.text());
      runs.push({ bank: options.bank, date, format, ...(await reconStatement(file, options)) });
    }
  }
  return runs;
}

/** Where each run of the CLI goes, and as whom. */
interface CliTarget {
  appEnv: Record<string, string>;
  databaseUrl: string;
  adminUrl: string;
  operators: SoakOperators;
}

/**
 * `pnpm cli recon statement --apply` with the soak's finance operator's key, then — when it asked for
 * settlements or reversals — `pnpm cli approval approve` with its approver's: what the approval applied.
 */
async function reconStatement(
  file: string,
  target: CliTarget,
): Promise<Omit<StatementRun, 'bank' | 'date' | 'format'>> {
  const asked = await cli(target, target.operators.makerKey, [
    'recon',
    'statement',
    '--file',
    file,
    '--apply',
    '--json',
  ]);
  const report = asked.json as { counts: Record<string, number>; approvalId?: string };
  if (report.approvalId === undefined) return { exitCode: asked.exitCode, applied: 0, counts: report.counts };
  const approved = await cli(target, target.operators.approverKey, [
    'approval',
    'approve',
    '--id',
    report.approvalId,
    '--note',
    'statement checked',
    '--code',
    await target.operators.approverCode(),
    '--json',
  ]);
  const outcome = (approved.json as { outcome?: { settled?: number; reversed?: number } }).outcome;
  if (approved.exitCode !== 0 || !outcome) {
    throw new Error(`approval ${report.approvalId} of ${file} exited ${approved.exitCode}: ${approved.stderr}`);
  }
  const applied = (outcome.settled ?? 0) + (outcome.reversed ?? 0);
  return { exitCode: asked.exitCode, applied, counts: { ...report.counts, applied } };
}

/**
 * One run of `pnpm cli … --json` against the soak's database and admin listener, as the person whose key
 * is given: its exit code, JSON answer and errors.
 */
async function cli(
  target: CliTarget,
  key: string,
  argv: string[],
): Promise<{ exitCode: number | null; json: unknown; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'packages/cli/src/main.ts', ...argv],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...target.appEnv,
        DATABASE_URL: target.databaseUrl,
        ADMIN_URL: target.adminUrl,
        PAYOUT_ADMIN_KEY: key,
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    return { exitCode, json: JSON.parse(stdout) as unknown, stderr };
  } catch {
    throw new Error(`pnpm cli ${argv.join(' ')} exited ${exitCode}: ${stderr.trim() || stdout.trim()}`);
  }
}
