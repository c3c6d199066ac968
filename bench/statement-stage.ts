import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bankStatementFor,
  renderStatement,
  SETTLEMENT_ACCOUNT,
  type BookedPayout,
  type StatementExportFormat,
} from '@payout/rail-sim';
import type { PrismaClient } from '@payout/db';
import type { BenchEnv } from './bench-env.js';
import { NO_RATIO_INPUTS, RATIO_GOALS } from './ratios.js';
import { ratioFigure, type Figure } from './results-table.js';

/**
 * A day's statement of N payouts reconciled by `payout-cli recon statement` as its own process
 * (docs/reconciliation.md, "Memory"): the payouts are
 * written straight into the bench's database as settled SUCCESS on one day — settling a million through the
 * stack would take longer than the rest of the bench — and rail-sim's export of that day (bankStatementFor,
 * renderStatement) is written as MT940 and as camt.053, each read by the CLI in production mode. Each run's
 * lines per second and peak RSS (the child's own maxRSS, written as it exits) are recorded.
 */

export interface StatementRun {
  format: StatementExportFormat;
  /** The statement's lines of ours (the day's charge besides). */
  lines: number;
  fileMb: number;
  seconds: number;
  linesPerS: number;
  peakRssMb: number;
  /** What the CLI counted as matched: every line, when the statement and the books agree. */
  matched: number;
}

export interface StatementStage {
  runs: StatementRun[];
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('./peak-rss.mjs', import.meta.url));
/** Entries rendered at a time when a statement is written: the file is never one string. */
const SLICE = 10_000;

export async function measureStatementStage(env: BenchEnv, fromSources: boolean): Promise<StatementStage> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-statement-'));
  env.cleanup.push('remove the statement files', () => rm(dir, { recursive: true, force: true }));
  const runs: StatementRun[] = [];
  for (const [index, lines] of env.plan.statementLines.entries()) {
    // One day per size, long before anything else the bench settles: each statement meets only its payouts.
    const day = `2026-01-${String(10 + index).padStart(2, '0')}`;
    env.log(`statement: ${lines} payouts settled on ${day}`);
    const book = await seedSettledDay(env, day, lines, index);
    const statement = bankStatementFor(book, day);
    for (const format of ['mt940', 'camt053'] as const) {
      const file = join(dir, `statement-${day}.${format}`);
      await writeStatement(statement, format, file);
      const fileMb = (await stat(file)).size / 1024 / 1024;
      env.log(`statement: ${lines} lines as ${format} (${fileMb.toFixed(0)} MB), recon statement`);
      const run = await reconcileFile(env, file, fromSources);
      runs.push({ format, lines, fileMb: round(fileMb), ...run, linesPerS: Math.round(lines / run.seconds) });
      env.log(
        `statement: ${lines} ${format} lines in ${run.seconds} s (${Math.round(lines / run.seconds)}/s), peak RSS ${run.peakRssMb} MB`,
      );
      await rm(file, { force: true });
    }
    // Written without their ledger entries: gone before the next stage, whose worker checks the books.
    await removeSeededPayouts(env.db, env.merchants.spread[0]!.id, index);
  }
  return { runs };
}

/** The payouts `seedSettledPayouts` wrote for `index` (or for each of several), removed, and the planner told once. */
export async function removeSeededPayouts(
  db: PrismaClient,
  merchantId: number,
  index: number | readonly number[],
): Promise<void> {
  const patterns = (typeof index === 'number' ? [index] : index).map((each) => `${seededPrefix(each)}%`);
  // One statement, so a merchant's payouts are read once however many batches are removed.
  await db.$executeRawUnsafe(
    `DELETE FROM payouts WHERE merchant_id = $1 AND (${patterns.map((_, n) => `ack_no LIKE $${n + 2}`).join(' OR ')})`,
    merchantId,
    ...patterns,
  );
  await db.$executeRawUnsafe('VACUUM ANALYZE payouts');
}

function seededPrefix(index: number): string {
  return `ST${String(index).padStart(2, '0')}`;
}

/** The payouts of one day in our books, settled SUCCESS, and the same payouts in rail-sim's book. */
async function seedSettledDay(env: BenchEnv, day: string, count: number, index: number): Promise<BookedPayout[]> {
  return seedSettledPayouts(env.db, { merchantId: env.merchants.spread[0]!.id, day, count, index });
}

/**
 * `count` payouts of one merchant settled SUCCESS on `day` (IST), written straight into `payouts`, and the
 * same payouts as rail-sim's book records them, for its statement of the day. `index` keeps the references,
 * UTRs and TransactionIDs of one call apart from another's (0…99).
 */
export async function seedSettledPayouts(
  db: PrismaClient,
  batch: { merchantId: number; day: string; count: number; index: number },
): Promise<BookedPayout[]> {
  const { day, count, index } = batch;
  const noon = Date.parse(`${day}T12:00:00+05:30`);
  const prefix = seededPrefix(index);
  // Amounts in whole rupees: a `.83` payout is booked in bulk by rail-sim, which this day has none of.
  await db.$executeRawUnsafe(
    `INSERT INTO payouts (merchant_id, transaction_id, mode, amount_paise, ack_no, state, status, bank_reference,
                          beneficiary_account, beneficiary_ifsc, beneficiary_name, description, settled_at, created_at,
                          next_check_at, bank)
     SELECT $1, (90000000000 + $3::bigint * 10000000 + i)::text, 'IMPS', (100 + i % 5000) * 100, $2 || lpad(i::text, 14, '0'), 'SUCCESS', 'SUCCESS',
            (100000000000 + $3::bigint * 10000000 + i)::text, '123456789012', 'HDFC0001234', 'Asha Kumar', 'bench',
            to_timestamp(($4::bigint + i) / 1000.0), to_timestamp(($4::bigint + i) / 1000.0), NULL, 'primary'
       FROM generate_series(1, $5::int) AS i`,
    batch.merchantId,
    prefix,
    index,
    noon,
    count,
  );
  // As autovacuum would soon after: the planner sees the table as it now is.
  await db.$executeRawUnsafe('ANALYZE payouts');
  return Array.from({ length: count }, (_, n): BookedPayout => {
    const i = n + 1;
    return {
      reference: `${prefix}${String(i).padStart(14, '0')}`,
      amountPaise: BigInt((100 + (i % 5000)) * 100),
      status: 'SUCCESS',
      utr: String(100000000000 + index * 10000000 + i),
      mode: 'IMPS',
      beneficiaryName: 'Asha Kumar',
      acceptedAt: noon + i,
      paidAt: noon + i,
    };
  });
}

/**
 * rail-sim's rendering of the statement, written a slice of entries at a time: the envelope (balances,
 * numbers) rendered without entries, and each slice's entries cut from a rendering of that slice alone.
 */
export async function writeStatement(
  statement: ReturnType<typeof bankStatementFor>,
  format: 'mt940' | 'camt053',
  path: string,
): Promise<void> {
  const out = createWriteStream(path);
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => out.write(text, (error) => (error ? reject(error) : resolve())));
  const envelope = renderStatement({ ...statement, entries: [] }, format).text;
  const cut = format === 'mt940' ? envelope.indexOf('\n:62F:') + 1 : envelope.indexOf('    </Stmt>');
  await write(envelope.slice(0, cut));
  for (let from = 0; from < statement.entries.length; from += SLICE) {
    const text = renderStatement({ ...statement, entries: statement.entries.slice(from, from + SLICE) }, format).text;
    const start = format === 'mt940' ? text.indexOf('\n:61:') + 1 : text.indexOf('      <Ntry>');
    const end = format === 'mt940' ? text.indexOf('\n:62F:') + 1 : text.indexOf('    </Stmt>');
    await write(text.slice(start, end));
  }
  await write(envelope.slice(cut));
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** `payout-cli recon statement --file F --json` in production mode, timed, with its peak RSS. */
async function reconcileFile(
  env: BenchEnv,
  file: string,
  fromSources: boolean,
): Promise<{ seconds: number; peakRssMb: number; matched: number }> {
  const rssFile = `${file}.rss`;
  const entry = fromSources
    ? ['--conditions=source', '--import', 'tsx', 'packages/cli/src/main.ts']
    : ['packages/cli/bin/payout-cli.js'];
  const started = performance.now();
  const child = spawn(
    process.execPath,
    // The production image's heap budget (Dockerfile, NODE_OPTIONS), as the statement Job runs it.
    ['--max-old-space-size=128', '--import', PEAK_RSS, ...entry, 'recon', 'statement', '--file', file, '--json'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: env.databaseUrl,
        REDIS_URL: env.redisUrl,
        STATEMENT_MAX_BYTES: String(4 * 1024 * 1024 * 1024),
        STATEMENT_SETTLEMENT_ACCOUNT: SETTLEMENT_ACCOUNT.number,
        PEAK_RSS_FILE: rssFile,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = round((performance.now() - started) / 1000);
  if (status !== 0) {
    throw new Error(`recon statement exited ${status}: ${Buffer.concat(stderr).toString().slice(0, 2000)}`);
  }
  const report = JSON.parse(Buffer.concat(stdout).toString()) as { counts: { matched: number } };
  const peakRssMb = round(Number(await readFile(rssFile, 'utf8')) / 1024);
  await rm(rssFile, { force: true });
  return { seconds, peakRssMb, matched: report.counts.matched };
}

const round = (n: number) => Math.round(n * 10) / 10;

/** The largest run of a format (by lines), and the smallest. */
function sized(stage: StatementStage, format: StatementExportFormat) {
  const runs = stage.runs.filter((r) => r.format === format).sort((a, b) => a.lines - b.lines);
  return { smallest: runs[0], largest: runs.at(-1) };
}

/** Lines per second of the largest MT940 run. */
export function statementLinesPerS(stage: StatementStage): number | null {
  return sized(stage, 'mt940').largest?.linesPerS ?? null;
}

/** The highest peak RSS of any run. */
export function statementPeakRssMb(stage: StatementStage): number | null {
  return stage.runs.length === 0 ? null : Math.max(...stage.runs.map((r) => r.peakRssMb));
}

/** Peak RSS of the largest run ÷ the smallest's, the higher of the two formats: 1 when memory does not grow. */
export function statementRssGrowth(stage: StatementStage): number | null {
  const growths = (['mt940', 'camt053'] as const).flatMap((format) => {
    const { smallest, largest } = sized(stage, format);
    return smallest && largest && largest.lines > smallest.lines ? [largest.peakRssMb / smallest.peakRssMb] : [];
  });
  return growths.length === 0 ? null : Math.round(Math.max(...growths) * 100) / 100;
}

/** The stage's figures as the ratios read them (bench/ratios.ts). */
export function statementRatioInputs(stage: StatementStage) {
  return {
    ...NO_RATIO_INPUTS,
    statement: {
      linesPerS: statementLinesPerS(stage),
      peakRssMb: statementPeakRssMb(stage),
      rssGrowth: statementRssGrowth(stage),
    },
  };
}

// A stage run alone measures nothing of the API: its ratios come out unmeasured (null).
export function statementFigures(stage: StatementStage): Figure[] {
  const sizes = [...new Set(stage.runs.map((r) => r.lines))].sort((a, b) => a - b);
  return stage.runs.map((run) => {
    const smallest = stage.runs.find((r) => r.format === run.format && r.lines === sizes[0]);
    const figure: Omit<Figure, 'ratio' | 'target' | 'ceiling'> = {
      section: 'memory',
      name: `recon statement, ${run.lines.toLocaleString('en-US')} ${run.format} lines (${run.fileMb} MB): peak RSS`,
      value: run.peakRssMb,
      unit: 'MB',
      detail: `(${run.seconds} s, ${run.linesPerS.toLocaleString('en-US')} lines/s)`,
    };
    // Each larger run beside the smallest: memory that does not grow with the file stays near 1.
    return smallest && smallest !== run
      ? ratioFigure(
          figure,
          { name: `${smallest.lines.toLocaleString('en-US')} lines`, value: smallest.peakRssMb, unit: 'MB' },
          RATIO_GOALS.statementRssGrowth,
        )
      : ratioFigure(figure, undefined);
  });
}
