import {
  BANK_TIME_ZONE,
  findEarlierStatementRuns,
  findPayoutsForStatement,
  insertStatementRun,
  recordDiscrepancy,
  resolveBreaksBookedNextDay,
  type BookedLater,
  type PrismaClient,
} from '@payout/db';
import {
  breakOf,
  countItems,
  linePlace,
  matchStatement,
  narrationTokens,
  planActions,
  type MatchableLine,
  type PlannedStatementAction,
  type ReconBreak,
  type ReconCounts,
  type ReconItem,
  type StatementLine,
} from '@payout/recon';

// A statement run (docs/reconciliation.md, "Statement reconciliation"): the lines matched against the books
// by the pure matcher of @payout/recon, the run stored with its breaks, what is for a person recorded as a
// discrepancy. Its settlements and reversals are carried out by statement-actions.ts beside it, once a second
// person approved them (apply-statement.ts); reconcile-statement-run.ts is the person's use case over both.
// The run's rows and the books it reads are packages/db/src/repositories/statement-runs.ts.

export interface StatementRunRequest {
  /** Every line of the run; in a run of several files each line names its file (`file`, 1-based). */
  lines: readonly MatchableLine[];
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
  const { items: _items, startedAt: _startedAt, ...matched } = await matchStatementRun(db, request);
  return { runId: null, ...matched };
}

/**
 * The daily statement reconciliation (docs/reconciliation.md): loads every payout the statement names and
 * every payout settled on its dates, classifies each line and payout (the pure matcher of @payout/recon),
 * stores the run, and answers what it found and what it would do. A statement is evidence, not an order:
 * the settlements and reversals it supports are only planned here, each with the state its payout was in,
 * for `applyStatementActions` (statement-actions.ts) to carry out (after a second person approved them). With
 * `recordDiscrepancies`, what is for a person is recorded as a discrepancy at once. Only a run that is
 * applied is stored: a read is {@link previewStatement}.
 */
export async function reconcileStatement(db: PrismaClient, request: StatementRunRequest): Promise<StatementRunReport> {
  const { items, startedAt, ...matched } = await matchStatementRun(db, request);
  const { counts, breaks, plannedActions } = matched;
  // Stored before anything is done, so every change it leads to can name the run and the line.
  const runId = await insertStatementRun(db, {
    fileDigest: request.fileDigest,
    fileName: request.fileName,
    operator: request.actor,
    valueDates: request.valueDates,
    lines: request.lines.length,
    counts,
    breaks,
    plannedActions,
    startedAt,
  });
  if (request.recordDiscrepancies) await recordStatementDiscrepancies(db, runId, items);
  await resolveBreaksBookedNextDay(db, runId, bookedLater(items));
  return { runId, ...matched };
}

/** Matches the lines against the books and lists earlier runs of the same files: reads only. */
async function matchStatementRun(
  db: PrismaClient,
  request: Omit<StatementRunRequest, 'recordDiscrepancies' | 'actor'>,
) {
  const startedAt = new Date();
  const references = [...new Set(request.lines.map((l) => l.reference))];
  const payouts = await findPayoutsForStatement(db, references, request.valueDates, {
    utrs: [...new Set(request.lines.map((l) => l.utr))],
    amounts: [...new Set(request.lines.map((l) => l.amountPaise))],
    batchIds: [...new Set(request.lines.flatMap((l) => (l.withoutOurReference ? narrationTokens(l.narration) : [])))],
  });
  const items = matchStatement(request.lines, request.valueDates, payouts, {
    today: request.today ?? indiaDate(startedAt),
  });
  const earlierRuns = await findEarlierStatementRuns(db, request.fileDigest);
  return {
    items,
    startedAt,
    fileDigest: request.fileDigest,
    valueDates: request.valueDates,
    applied: false,
    counts: countItems(items, 0),
    breaks: items.filter((i) => !i.resolved).map(breakOf),
    plannedActions: planActions(items),
    earlierRuns,
  };
}

/** The payouts this run found the bank's movement of: each answers an earlier run's break of a missing one. */
function bookedLater(items: readonly ReconItem[]): BookedLater[] {
  return items.flatMap(({ class: kind, line, payout }) =>
    (kind === 'matched' || kind === 'return') && line && payout
      ? [
          {
            ackNo: payout.ackNo,
            lineNumber: line.lineNumber,
            breakKind: line.type === 'DEBIT' ? 'success_here_missing_at_bank' : 'reversed_here_missing_at_bank',
          } as const,
        ]
      : [],
  );
}

/** A payment the bank made of a payout we settled FAILED, money back for one not paid: for a person. */
async function recordStatementDiscrepancies(db: PrismaClient, runId: bigint, items: readonly ReconItem[]) {
  for (const { action, line } of items) {
    if (action?.kind !== 'record-discrepancy' || !line) continue;
    await recordDiscrepancy(db, {
      payoutId: action.payoutId,
      kind: action.discrepancy,
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

function indiaDate(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: BANK_TIME_ZONE }).format(at);
}
