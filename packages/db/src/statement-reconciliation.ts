import { IN_FLIGHT_STATES, type PayoutState } from '@payout/domain';
import {
  breakOf,
  countItems,
  inApplyingOrder,
  linePlace,
  matchStatement,
  narrationTokens,
  planActions,
  type BookPayout,
  type MatchableLine,
  type PlannedStatementAction,
  type ReconBreak,
  type ReconCounts,
  type ReconItem,
  type StatementLine,
} from '@payout/recon';
import type { PrismaClient, PrismaClientOrTransaction } from './client.js';
import type { Prisma } from './generated/prisma/client.js';
import { recordDiscrepancy } from './repositories/discrepancy-repository.js';
import { resolveBreaksBookedNextDay, type BookedLater } from './repositories/statement-breaks.js';
import { reversePayout, settleSuccess } from './repositories/payout-transitions.js';

/** The business day of a statement is India's: value dates and our settlement dates are both IST. */
const BANK_TIME_ZONE = 'Asia/Kolkata';

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
   * settlements and reversals are only planned; {@link applyStatementActions} carries them out.
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
 * for {@link applyStatementActions} to carry out (after a second person approved them). With
 * `recordDiscrepancies`, what is for a person is recorded as a discrepancy at once. Only a run that is
 * applied is stored: a read is {@link previewStatement}.
 */
export async function reconcileStatement(db: PrismaClient, request: StatementRunRequest): Promise<StatementRunReport> {
  const { items, startedAt, ...matched } = await matchStatementRun(db, request);
  const { counts, breaks, plannedActions } = matched;
  // Stored before anything is done, so every change it leads to can name the run and the line.
  const run = await db.statementRun.create({
    data: {
      fileDigest: request.fileDigest,
      fileName: request.fileName.slice(0, 255),
      operator: request.actor.slice(0, 100),
      applied: false,
      valueDates: request.valueDates.join(',').slice(0, 2000),
      lines: request.lines.length,
      counts,
      breaks: breaks.length,
      breakList: breaks as unknown as Prisma.InputJsonValue,
      plannedActions: plannedActions.map((a) => ({
        ...a,
        payoutId: a.payoutId.toString(),
        amountPaise: a.amountPaise.toString(),
      })),
      startedAt,
    },
    select: { id: true },
  });
  if (request.recordDiscrepancies) await recordStatementDiscrepancies(db, run.id, items);
  await resolveBreaksBookedNextDay(db, run.id, bookedLater(items));
  return { runId: run.id, ...matched };
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
  const earlierRuns = await db.statementRun.findMany({
    where: { fileDigest: request.fileDigest },
    orderBy: { id: 'asc' },
    select: { id: true, startedAt: true, applied: true, operator: true },
  });
  return {
    items,
    startedAt,
    fileDigest: request.fileDigest,
    valueDates: request.valueDates,
    applied: false,
    counts: countItems(items, 0),
    breaks: items.filter((i) => !i.resolved).map(breakOf),
    plannedActions: planActions(items),
    earlierRuns: earlierRuns.map((r) => ({ id: r.id, at: r.startedAt, applied: r.applied, operator: r.operator })),
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

export interface StatementApplyRequest {
  runId: bigint;
  /** The run's planned actions (its report's `plannedActions`), in any order. */
  actions: readonly PlannedStatementAction[];
  /** Who carries them out: "operator:<name>", or whoever approved them. */
  actor: string;
}

export type StatementApplyOutcome =
  /** Every action was carried out; the run now records what it left unresolved. */
  | { kind: 'applied'; settled: number; reversed: number; counts: ReconCounts; breaks: ReconBreak[] }
  /** Some payouts are no longer in the state they were planned from: nothing was carried out. */
  | { kind: 'moved'; payouts: { ackNo: string; expected: PayoutState; now: PayoutState | null }[] };

/**
 * Carries out a run's planned settlements and reversals, all or none, inside the caller's transaction
 * (docs/reconciliation.md, "Planning and applying"). Each payout is locked and must still be in the state
 * it was planned from: if one has moved since the statement was matched (the worker settled it, another
 * run reversed it), nothing is applied and the answer names them, so an approval can be refused with that
 * reason. Otherwise every action goes through the ordinary guarded statements, payments before returns,
 * each event naming the run and the line it came from, and the run is marked applied with what it left.
 */
export async function applyStatementActions(
  tx: Prisma.TransactionClient,
  request: StatementApplyRequest,
): Promise<StatementApplyOutcome> {
  // On a bare client every statement would commit on its own, and the locks would not hold to the end. A
  // transaction's client is the one that cannot disconnect.
  if (typeof (tx as { $disconnect?: unknown }).$disconnect === 'function') {
    throw new Error('applyStatementActions runs inside a transaction: pass the client db.$transaction gives');
  }
  const [run] = await tx.$queryRaw<
    { applied: boolean; counts: ReconCounts; break_list: ReconBreak[]; planned_actions: StoredAction[] }[]
  >`
    SELECT applied, counts, break_list, planned_actions FROM statement_runs WHERE id = ${request.runId} FOR UPDATE`;
  if (!run) throw new Error(`statement run ${request.runId} does not exist`);
  if (run.applied) throw new Error(`statement run ${request.runId} was already applied`);
  // Only what the statement supported when it was matched: nothing a caller adds or changes on the way.
  const planned = new Set(run.planned_actions.map(planKey));
  const unplanned = request.actions.find((a) => !planned.has(planKey(a)));
  if (unplanned) {
    throw new Error(`statement run ${request.runId} planned no such action for ${linePlace(unplanned)}`);
  }

  const actions = inApplyingOrder(request.actions);
  const moved = await payoutsMovedSincePlanned(tx, actions);
  if (moved.length > 0) return { kind: 'moved', payouts: moved };

  let settled = 0;
  let reversed = 0;
  for (const action of actions) {
    const changed = await applyAction(tx, request.runId, action, request.actor);
    // Under the row lock, in the state it was planned from: a guarded statement that still refuses means
    // the plan does not fit the payout, and the caller's transaction must not commit half of it.
    if (!changed) {
      throw new Error(`statement run ${request.runId} ${linePlace(action)}: ${action.ackNo} did not move`);
    }
    if (action.kind === 'settle-success') settled++;
    else reversed++;
  }

  // A break is its line's, in its file: line 7 of one day's file is not line 7 of the next day's.
  const appliedLines = new Set(actions.map(linePlace));
  const breaks = run.break_list.filter((b) => b.bank === null || !appliedLines.has(linePlace(b.bank)));
  const counts = { ...run.counts, applied: settled + reversed };
  await tx.$executeRaw`
    UPDATE statement_runs
       SET applied = true, applied_at = now(), applied_by = ${request.actor.slice(0, 100)},
           counts = ${JSON.stringify(counts)}::jsonb, breaks = ${breaks.length},
           break_list = ${JSON.stringify(breaks)}::jsonb
     WHERE id = ${request.runId}`;
  return { kind: 'applied', settled, reversed, counts, breaks };
}

/** Locks the planned payouts (in id order, as every statement locking several does) and compares their states. */
async function payoutsMovedSincePlanned(tx: Prisma.TransactionClient, actions: readonly PlannedStatementAction[]) {
  const ids = [...new Set(actions.map((a) => a.payoutId.toString()))];
  const rows = await tx.$queryRaw<{ id: bigint; state: PayoutState }[]>`
    SELECT id, state::text AS state FROM payouts WHERE id = ANY(${ids}::text[]::bigint[]) ORDER BY id FOR NO KEY UPDATE`;
  const now = new Map(rows.map((r) => [r.id.toString(), r.state]));
  return actions
    .filter((a) => now.get(a.payoutId.toString()) !== a.expectedState)
    .map((a) => ({ ackNo: a.ackNo, expected: a.expectedState, now: now.get(a.payoutId.toString()) ?? null }));
}

/** Carries out one planned action; true when it moved the payout. */
async function applyAction(
  tx: Prisma.TransactionClient,
  runId: bigint,
  action: PlannedStatementAction,
  actor: string,
): Promise<boolean> {
  const line = {
    lineNumber: action.lineNumber,
    ...(action.file !== undefined && { file: action.file }),
    reference: action.ackNo,
    utr: action.utr,
    amountPaise: action.amountPaise,
    type: action.kind === 'settle-success' ? ('DEBIT' as const) : ('RETURN' as const),
    valueDate: action.valueDate,
  };
  const from = `statement run ${runId} ${linePlace(action)}`;
  switch (action.kind) {
    case 'settle-success': {
      const note = {
        reason: `${from}: the bank paid it (UTR ${action.utr})`,
        actor,
        railAnswer: provenance(runId, line),
      };
      return (await settleSuccess(tx, action.payoutId, action.utr, note, { onlyFrom: IN_FLIGHT_STATES })).moved;
    }
    case 'reverse': {
      const note = {
        reason: `${from}: the money came back (UTR ${action.utr})`,
        actor,
        railAnswer: provenance(runId, line),
      };
      return (await reversePayout(tx, action.payoutId, { source: 'statement', bankReference: action.utr, note })).moved;
    }
  }
}

/** A planned action as the run keeps it in JSON: its bigints as decimal text (no `file` in a run of one file). */
type StoredAction = Record<Exclude<keyof PlannedStatementAction, 'file'>, string | number> & { file?: number };

/**
 * Every field of a planned action, as one text: an action given back is applied only if the run planned it.
 * An action of a run of one file has no `file`, as those stored before runs could read several.
 */
function planKey(a: PlannedStatementAction | StoredAction): string {
  const { kind, payoutId, ackNo, utr, amountPaise, lineNumber, valueDate, expectedState } = a;
  return [kind, payoutId, ackNo, utr, amountPaise, a.file ?? '', lineNumber, valueDate, expectedState].join(' ');
}

/** What a payout's event or discrepancy keeps of the statement: the run, the line, and what the line said. */
function provenance(
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

/**
 * Every payout the statement names — by our reference, or by its UTR — and every payout settled (IST) on
 * one of its dates, each with the (IST) day it was first sent to the rail — its first move to SUBMITTING,
 * or its acceptance if it never was sent — before which none of its money can have come back. For matching
 * beyond the reference (docs/reconciliation.md), also every payout of a line's amount settled or accepted
 * within a day of the statement's dates, and every payout of a bulk batch a line names (as its reference or
 * a word of its narration) or that was recorded on those dates, with its beneficiary's name and its batch;
 * and every payout reversed here on those dates, with the day, unless a statement line made the reversal.
 * Longer than a function should be because it is one SQL statement, which reads best whole.
 */
export async function findPayoutsForStatement(
  db: PrismaClientOrTransaction,
  references: readonly string[],
  valueDates: readonly string[],
  beyond: { utrs?: readonly string[]; amounts?: readonly bigint[]; batchIds?: readonly string[] } = {},
): Promise<BookPayout[]> {
  const utrs = [...(beyond.utrs ?? [])];
  // A bulk debit may name its batch as its reference or in its narration.
  const batchIds = [...new Set([...references, ...(beyond.batchIds ?? [])])];
  const amounts = (beyond.amounts ?? []).map((a) => a.toString());
  const rows = await db.$queryRaw<
    {
      id: bigint;
      ack_no: string;
      state: PayoutState;
      amount_paise: bigint;
      bank_reference: string | null;
      settled_on: string | null;
      reversed_on: string | null;
      sent_on: string;
      beneficiary_name: string;
      batch_key: bigint | null;
      batch_id: string | null;
      batch_payouts: number | null;
    }[]
  >`
    WITH days AS (
      SELECT (d::timestamp AT TIME ZONE ${BANK_TIME_ZONE}) AS day_start,
             ((d + 1)::timestamp AT TIME ZONE ${BANK_TIME_ZONE}) AS day_end
        FROM unnest(${[...valueDates]}::date[]) AS d
    ), wanted AS (
      SELECT id FROM payouts WHERE ack_no = ANY(${[...references]}::text[])
      UNION
      SELECT id FROM payouts WHERE bank_reference = ANY(${utrs}::text[])
      UNION
      SELECT p.id FROM days JOIN payouts p ON p.settled_at >= days.day_start AND p.settled_at < days.day_end
       WHERE p.state IN ('SUCCESS', 'REVERSED')
      UNION
      SELECT e.payout_id FROM days JOIN payout_events e
          ON e.to_state = 'REVERSED' AND e.created_at >= days.day_start AND e.created_at < days.day_end
      UNION
      SELECT p.id FROM days JOIN payouts p
          ON (p.settled_at >= days.day_start - interval '1 day' AND p.settled_at < days.day_end + interval '1 day')
          OR (p.created_at >= days.day_start - interval '2 days' AND p.created_at < days.day_end + interval '1 day')
       WHERE p.amount_paise = ANY(${amounts}::bigint[])
      UNION
      SELECT i.payout_id FROM bulk_batches b JOIN bulk_batch_items i ON i.batch_id = b.id
       WHERE i.payout_id IS NOT NULL
         AND (b.batch_id = ANY(${batchIds}::text[])
              OR EXISTS (SELECT 1 FROM days
                          WHERE b.created_at >= days.day_start - interval '1 day' AND b.created_at < days.day_end))
    )
    SELECT p.id, p.ack_no, p.state::text AS state, p.amount_paise, p.bank_reference, p.beneficiary_name,
           to_char(p.settled_at AT TIME ZONE ${BANK_TIME_ZONE}, 'YYYY-MM-DD') AS settled_on,
           to_char(reversed.at AT TIME ZONE ${BANK_TIME_ZONE}, 'YYYY-MM-DD') AS reversed_on,
           to_char(coalesce(sent.at, p.created_at) AT TIME ZONE ${BANK_TIME_ZONE}, 'YYYY-MM-DD') AS sent_on,
           b.id AS batch_key, b.batch_id,
           (SELECT count(*)::int FROM bulk_batch_items m WHERE m.batch_id = b.id AND m.payout_id IS NOT NULL)
             AS batch_payouts
      FROM wanted JOIN payouts p ON p.id = wanted.id
      LEFT JOIN bulk_batch_items bi ON bi.payout_id = p.id
      LEFT JOIN bulk_batches b ON b.id = bi.batch_id
      LEFT JOIN LATERAL (
        SELECT min(e.created_at) AS at FROM payout_events e WHERE e.payout_id = p.id AND e.to_state = 'SUBMITTING'
      ) sent ON true
      LEFT JOIN LATERAL (
        -- A reversal a statement line made is proven already; one on the rail's or a person's word is not.
        SELECT min(e.created_at) AS at FROM payout_events e
         WHERE e.payout_id = p.id AND e.to_state = 'REVERSED' AND NOT coalesce(e.rail_answer ? 'statementRunId', false)
      ) reversed ON true`;
  return rows.map((r) => ({
    id: r.id,
    ackNo: r.ack_no,
    state: r.state,
    amountPaise: r.amount_paise,
    bankReference: r.bank_reference,
    settledOn: r.settled_on,
    reversedOn: r.reversed_on,
    sentOn: r.sent_on,
    beneficiaryName: r.beneficiary_name,
    batch:
      r.batch_key === null
        ? null
        : { key: r.batch_key.toString(), batchId: r.batch_id!, payouts: r.batch_payouts ?? 0 },
  }));
}
