import {
  BANK_TIME_ZONE,
  findBreaksBookedLater,
  findEarlierStatementRuns,
  insertStatementRun,
  recordDiscrepancy,
  resolveBreaksBookedNextDay,
  type BreakClosure,
  type PrismaClient,
  type PrismaClientOrTransaction,
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
// in the database and classified by the matcher of @payout/recon (statement-matching.ts), the run stored with
// its breaks, what is for a person kept as discrepancies, the earlier breaks its lines answer found. What it
// found takes effect ("When a run takes effect") at once when it asks nothing of a second person, else on
// approval: statement-actions.ts beside it carries out its settlements and reversals and its other effects
// then (apply-statement.ts); reconcile-statement-run.ts is the person's use case over both. The run's rows
// and the books it reads are packages/db/src/repositories/statement-runs.ts.

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
   * Record what the statement says that is for a person (a discrepancy) when the run takes effect: no money
   * moves. The settlements and reversals are only planned; `applyStatementActions` (statement-actions.ts)
   * carries them out.
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
  /**
   * Whether what the run found took effect as it was stored: its breaks listed, its statement number
   * counted, its discrepancies recorded. False while it waits for a second person's approval.
   */
  inEffect: boolean;
  counts: ReconCounts;
  breaks: ReconBreak[];
  /** The settlements and reversals the run would carry out, payments before returns. */
  plannedActions: PlannedStatementAction[];
  /**
   * The earlier runs' breaks its lines answer, the bank having booked the movement the next day: closed as
   * `booked_next_day` when the run takes effect, if still open then.
   */
  closesEarlierBreaks: BreakClosure[];
  /** Earlier runs of the same file (same digest), oldest first. */
  earlierRuns: { id: bigint; at: Date; applied: boolean; operator: string }[];
}

/** What a statement read without being stored answers: the same report, with no run behind it. */
export type StatementRunPreview = Omit<StatementRunReport, 'runId' | 'inEffect'> & { runId: null; inEffect: false };

/**
 * How a stored run takes effect (docs/reconciliation.md, "When a run takes effect"). `four-eyes`, a person's
 * run: on a second person's approval when it asks one for anything — a settlement, a reversal, or closing an
 * earlier break that says money is missing, which no one does alone (docs/operations.md, "Approvals") — and
 * at once when it asks nothing. `at-once`: as it is stored, whatever it finds, for a caller holding the
 * database's credentials (a test, a script), outside the four-eyes rule as the credentials are.
 */
export type RunEffect = 'four-eyes' | 'at-once';

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
 * The daily statement reconciliation (docs/reconciliation.md) as a caller holding the database's credentials
 * runs it: matches every line of the statement and every payout of its dates against each other in the
 * database (statement-matching.ts), stores the run, and answers what it found and what it would do. A
 * statement is evidence, not an order: the settlements and reversals it supports are only planned here, each
 * with the state its payout was in, for `applyStatementActions` (statement-actions.ts) to carry out. The run
 * takes effect at once ({@link RunEffect}): its breaks are listed, the earlier breaks it answers closed, and
 * with `recordDiscrepancies` what is for a person recorded. A person's run is `reconcileStatementRun`
 * (reconcile-statement-run.ts), whose effects wait for a second person; a read is {@link previewStatement}.
 */
export async function reconcileStatement(db: PrismaClient, request: StatementRunRequest): Promise<StatementRunReport> {
  const matched = await matchLines(db, request);
  return storeStatementRun(db, matched, request, 'at-once');
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
    inEffect: false,
    counts: matched.counts,
    breaks: matched.breaks,
    plannedActions: matched.plannedActions,
    closesEarlierBreaks: await findBreaksBookedLater(db, null, matched.bookedLater),
    earlierRuns: await findEarlierStatementRuns(db, run.fileDigest),
  };
}

/**
 * Stores a matched run — before anything is done, so every change it leads to can name the run and the
 * line — with the earlier breaks its lines answer and the discrepancies it found (when asked to record
 * them). Taking effect at once, it records those discrepancies and closes those breaks now; waiting for a
 * second person, it keeps them in the run until the approval (statement-actions.ts).
 */
export async function storeStatementRun(
  db: PrismaClient,
  matched: MatchedStatement,
  request: Pick<StatementRunRequest, 'fileDigest' | 'fileName' | 'actor' | 'valueDates' | 'recordDiscrepancies'>,
  effect: RunEffect,
): Promise<StatementRunReport> {
  const earlierRuns = await findEarlierStatementRuns(db, request.fileDigest);
  const closures = await findBreaksBookedLater(db, null, matched.bookedLater);
  const asksASecondPerson = matched.plannedActions.length > 0 || closures.length > 0;
  const inEffect = effect === 'at-once' || !asksASecondPerson;
  const discrepancies = request.recordDiscrepancies ? matched.discrepancies : [];
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
    takesEffect: inEffect ? 'at-once' : 'on-approval',
    breakClosures: closures,
    foundDiscrepancies: discrepancies,
  });
  if (inEffect) await recordStatementDiscrepancies(db, runId, discrepancies);
  // A person's run in effect answers no open break: closing one would have asked a second person.
  if (effect === 'at-once') await resolveBreaksBookedNextDay(db, runId, matched.bookedLater);
  return {
    runId,
    fileDigest: request.fileDigest,
    valueDates: request.valueDates,
    applied: false,
    inEffect,
    counts: matched.counts,
    breaks: matched.breaks,
    plannedActions: matched.plannedActions,
    closesEarlierBreaks: closures,
    earlierRuns,
  };
}

/**
 * A payment the bank made of a payout we settled FAILED, money back for one not paid: for a person. Recorded
 * when the run takes effect — as it is stored, or in the approver's transaction.
 */
export async function recordStatementDiscrepancies(
  db: PrismaClientOrTransaction,
  runId: bigint,
  found: readonly FoundDiscrepancy[],
) {
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
