import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { istDate } from '../../apps/rail-sim/src/statement-export.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One `pnpm cli recon statement --apply` run of the soak. */
export interface StatementRun {
  date: string;
  exitCode: number | null;
  applied: number;
  counts: Record<string, number>;
}

/**
 * The daily job of a payout operator, at the end of the soak: the simulated bank's statement of every day
 * the run touched, matched against our books with `pnpm cli recon statement --apply` — twice, the second
 * run of the same file applying nothing (docs/reconciliation.md). It is what returns the `.99` reversals:
 * the bank took the money back after the worker had settled the payouts SUCCESS.
 */
export async function runStatements(options: {
  railUrl: string;
  databaseUrl: string;
  since: number;
  dir: string;
}): Promise<StatementRun[]> {
  const dates = new Set<string>();
  for (let t = options.since; t < Date.now(); t += 60 * 60 * 1000) dates.add(istDate(t));
  dates.add(istDate(Date.now()));
  const runs: StatementRun[] = [];
  for (const date of dates) {
    const response = await fetch(`${options.railUrl}/v1/statement?date=${date}`);
    if (!response.ok) throw new Error(`rail-sim statement of ${date}: HTTP ${response.status}`);
    const file = path.join(options.dir, `statement-${date}.csv`);
    await writeFile(file, await response.text());
    for (let pass = 0; pass < 2; pass++) runs.push({ date, ...(await reconStatement(file, options.databaseUrl)) });
  }
  return runs;
}

async function reconStatement(file: string, databaseUrl: string): Promise<Omit<StatementRun, 'date'>> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=source',
      '--import',
      'tsx',
      'packages/cli/src/main.ts',
      'recon',
      'statement',
      '--file',
      file,
      '--apply',
      '--json',
      '--operator',
      'soak',
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    const report = JSON.parse(stdout) as { counts: Record<string, number> };
    return { exitCode, applied: report.counts.applied ?? 0, counts: report.counts };
  } catch {
    throw new Error(`recon statement ${file} exited ${exitCode}: ${stderr.trim() || stdout.trim()}`);
  }
}
