import {
  BANK_TIME_ZONE,
  findEarlierStatementRuns,
  insertStatementRun,
  recordDiscrepancy,
  resolveBreaksBookedNextDay,
  type PrismaClient,
} from '@payout/db';
import {
  linePlace,
  type MatchableLine,
  type PlannedStatementAction,
  type ReconBreak,
  type ReconCounts,
  type StatementLine,
} from '@payout/recon';
import { matchInDatabase, type FoundDiscrepancy, type MatchedStatement } from './statement-matching.js';

// A statement run (docs/reconciliation.md, "Statement reconciliation"): the lines matched against the books
// in the database and classified by the matcher of @payout/recon (statement-matching.ts), the run stored with its breaks, what is for a person recorded as a
// discrepancy. Its settlements and reversals are carried out by statement-actions.ts beside it, once a second
// person approved them (apply-statement.ts); reconcile-statement-run.ts is the person's use case over both.
// The run's rows and the books it reads are packages/db/src/repositories/statement-runs.ts.

export interface StatementRunRequest {
  /** Every line of the run; in a run of several files each line names its file (`file`, 1-based). */
  lines: Iterable<MatchableLine>;
  valueDates: readonly string[];
  /** Hex SHA-256 of the file as read (of a run of several files: of their digests, in order). */
  fileDigest: string;
  /** The file's name (of a run of several: their names, in order, joined with ", "). */
  fileName: string;
  /** Who asked for the run, as the audit log names them ("cli:asha", "console:asha"). */
  actor: string;
  /**
   * Record at once what the statement says that is for a person (a discrepancy): no money moves. The
   * settlements and reversals are only planned; `applyStatementActions` (statement-actions.ts) carries them out.
   */
  recordDiscrepancies: boolean;
  /** Today in India, YYYY-MM-DD (default: now): a line dated after it is a break. */
  today?: string;
  /** Only this bank's payouts are matched (docs/reconciliation.md, "Several banks"); absent: every payout. */
  bank?: string | null;
}

export interface StatementRunReport {
  runId: bigint;
  fileDigest: string;
  valueDates: readonly string[];
  /** Whether the planned actions were carried out (never by reconcileStatement itself). */
  applied: boolean;
  counts: ReconCounts;
  breaks: ReconBreak[];
  /** The settlements and reversals the run would carry out, payments before returns. */
  plannedActions: PlannedStatementAction[];
  /** Earlier runs of the same file (same digest), oldest first. */
  earlierRuns: { id: bigint; at: Date; applied: boolean; operator: string }[];
}

/** What a statement read without being stored answers: the same report, with no run behind it. */
export type StatementRunPreview = Omit<StatementRunReport, 'runId'> & { runId: null };

/**
 * Reads a statement against our books and answers what a run would find, storing nothing
 * (docs/reconciliation.md, "Statement reconciliation"): no run row, no breaks, no discrepancies, and no
 * earlier break decided by the next-day rule. `recon statement` without `--apply` is this.
 */
export async function previewStatement(
  db: PrismaClient,
  request: Omit<StatementRunRequest, 'recordDiscrepancies' | 'actor'>,
): Promise<StatementRunPreview> {
  const matched = await matchLines(db, request);
  return previewOf(db, matched, { fileDigest: request.fileDigest, valueDates: request.valueDates });
}

/**
 * The daily statement reconciliation (docs/reconciliation.md): matches every line of the statement and
 * every payout of its dates against each other in the database (statement-matching.ts), stores the run, and
 * answers what it found and what it would do. A statement is evidence, not an order: the settlements and
 * reversals it supports are only planned here, each with the state its payout was in, for
 * `applyStatementActions` (statement-actions.ts) to carry out (after a second person approved them). With
 * `recordDiscrepancies`, what is for a person is recorded as a discrepancy at once. Only a run that is
 * applied is stored: a read is {@link previewStatement}.
 */
export async function reconcileStatement(db: PrismaClient, request: StatementRunRequest): Promise<StatementRunReport> {
  const matched = await matchLines(db, request);
  return storeStatementRun(db, matched, request);
}

/** Lines already in memory (a test's, a caller's own) matched as a file's would be. */
async function matchLines(
  db: PrismaClient,
  request: Pick<StatementRunRequest, 'lines' | 'valueDates' | 'today' | 'bank'>,
): Promise<MatchedStatement> {
  const matched = await matchInDatabase(
    db,
    { bank: () => request.bank ?? null, today: request.today ?? indiaDate(new Date()) },
    async (sink) => {
      for (const line of request.lines) sink.line(line);
      await sink.drain();
      return { ok: true, valueDates: request.valueDates };
    },
  );
  if (!matched.ok) throw new Error(matched.reason);
  return matched.matched;
}

/** A matched run as a report that stores nothing, with the earlier runs of the same files. */
export async function previewOf(
  db: PrismaClient,
  matched: MatchedStatement,
  run: { fileDigest: string; valueDates: readonly string[] },
): Promise<StatementRunPreview> {
  return {
    runId: null,
    fileDigest: run.fileDigest,
    valueDates: run.valueDates,
    applied: false,
    counts: matched.counts,
    breaks: matched.breaks,
    plannedActions: matched.plannedActions,
    earlierRuns: await findEarlierStatementRuns(db, run.fileDigest),
  };
}

/**
 * Stores a matched run — before anything is done, so every change it leads to can name the run and the
 * line — records its discrepancies when asked, and decides the earlier breaks its movements answer.
 */
export async function storeStatementRun(
  db: PrismaClient,
  matched: MatchedStatement,
  request: Pick<StatementRunRequest, 'fileDigest' | 'fileName' | 'actor' | 'valueDates' | 'recordDiscrepancies'>,
): Promise<StatementRunReport> {
  const earlierRuns = await findEarlierStatementRuns(db, request.fileDigest);
  const runId = await insertStatementRun(db, {
    fileDigest: request.fileDigest,
    fileName: request.fileName,
    operator: request.actor,
    valueDates: request.valueDates,
    lines: matched.lines,
    counts: matched.counts,
    breaks: matched.breaks,
    plannedActions: matched.plannedActions,
    startedAt: matched.startedAt,
  });
  if (request.recordDiscrepancies) await recordStatementDiscrepancies(db, runId, matched.discrepancies);
  await resolveBreaksBookedNextDay(db, runId, matched.bookedLater);
  return {
    runId,
    fileDigest: request.fileDigest,
    valueDates: request.valueDates,
    applied: false,
    counts: matched.counts,
    breaks: matched.breaks,
    plannedActions: matched.plannedActions,
    earlierRuns,
  };
}

/** A payment the bank made of a payout we settled FAILED, money back for one not paid: for a person. */
async function recordStatementDiscrepancies(db: PrismaClient, runId: bigint, found: readonly FoundDiscrepancy[]) {
  for (const { payoutId, kind, line } of found) {
    await recordDiscrepancy(db, {
      payoutId,
      kind,
      source: 'statement',
      railAnswer: provenance(runId, line),
      note: `statement run ${runId} ${linePlace(line)}`,
    });
  }
}

/** What a payout's event or discrepancy keeps of the statement: the run, the line, and what the line said. */
export function provenance(
  runId: bigint,
  line: Pick<StatementLine, 'lineNumber' | 'file' | 'reference' | 'utr' | 'amountPaise' | 'type' | 'valueDate'>,
) {
  return {
    statementRunId: runId.toString(),
    lineNumber: line.lineNumber,
    ...(line.file !== undefined && { file: line.file }),
    reference: line.reference,
    utr: line.utr,
    amountPaise: line.amountPaise.toString(),
    type: line.type,
    valueDate: line.valueDate,
  };
}

export function indiaDate(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: BANK_TIME_ZONE }).format(at);
}
