import type { PayoutState } from '@payout/domain';
import type { ReconBreak } from '@payout/recon';
import type { PrismaClientOrTransaction } from '../client.js';
import { BANK_TIME_ZONE } from './statement-runs.js';

/** More payouts near a line than this are not shown: a person could not tell them apart anyway. */
export const MAX_PAYOUTS_NEAR_LINE = 5;

/**
 * What was decided about a break (docs/reconciliation.md, "The breaks page"). `needs_bank` leaves it open,
 * marked waiting for the bank; the others close it.
 */
export type BreakDecisionKind = 'matched' | 'not_ours' | 'needs_bank' | 'booked_next_day';
export const FINAL_BREAK_DECISIONS: readonly BreakDecisionKind[] = ['matched', 'not_ours', 'booked_next_day'];

export interface BreakDecisionView {
  decision: BreakDecisionKind;
  decidedBy: string;
  decidedAt: Date;
  note: string;
  /** The payout the line was matched to (matched, booked_next_day). */
  payoutAckNo: string | null;
  approvalRequestId: bigint | null;
}

/** One break a statement run left, with its run, its place in the run, and what was decided about it. */
export interface StatementBreakRow {
  run: { id: bigint; fileName: string; operator: string; applied: boolean; startedAt: Date };
  /** 1-based, in the run's break_list: with the run, what names the break. */
  position: number;
  item: ReconBreak;
  decision: BreakDecisionView | null;
}

interface BreakRow {
  id: bigint;
  file_name: string;
  operator: string;
  applied: boolean;
  started_at: Date;
  position: number;
  item: ReconBreak;
  decision: BreakDecisionKind | null;
  decided_by: string | null;
  decided_at: Date | null;
  note: string | null;
  payout_ack_no: string | null;
  approval_request_id: bigint | null;
}

// A decision belongs to a break only while the break at its position is still the one decided (same kind
// and reference): applying a run rewrites its break_list without the breaks it resolved.
const DECISION_JOIN = `
  LEFT JOIN statement_break_decisions d
         ON d.run_id = r.id AND d.position = b.n
        AND d.break_kind = b.item->>'kind' AND d.reference = left(b.item->>'reference', 255)
  LEFT JOIN payouts dp ON dp.id = d.payout_id`;

const BREAK_COLUMNS = `
  r.id, r.file_name, r.operator, r.applied, r.started_at, b.n::int AS position, b.item,
  d.decision::text AS decision, d.decided_by, d.decided_at, d.note, dp.ack_no AS payout_ack_no, d.approval_request_id`;

function rowOf(r: BreakRow): StatementBreakRow {
  return {
    run: { id: r.id, fileName: r.file_name, operator: r.operator, applied: r.applied, startedAt: r.started_at },
    position: r.position,
    item: r.item,
    decision:
      r.decision === null
        ? null
        : {
            decision: r.decision,
            decidedBy: r.decided_by!,
            decidedAt: r.decided_at!,
            note: r.note!,
            payoutAckNo: r.payout_ack_no,
            approvalRequestId: r.approval_request_id,
          },
  };
}

/**
 * One page of the breaks statement runs left, newest run first and in the statement's order within a run:
 * `pageSize` rows of page `page` (1-based), and whether a next page has more. Only the open ones (no
 * decision, or waiting for the bank) unless `includeDecided`.
 */
export async function listStatementBreaks(
  db: PrismaClientOrTransaction,
  options: { page: number; pageSize: number; includeDecided?: boolean },
): Promise<{ rows: StatementBreakRow[]; hasNextPage: boolean }> {
  const offset = (Math.max(1, options.page) - 1) * options.pageSize;
  const rows = await db.$queryRawUnsafe<BreakRow[]>(
    `SELECT ${BREAK_COLUMNS}
       FROM statement_runs r
      CROSS JOIN LATERAL jsonb_array_elements(r.break_list) WITH ORDINALITY AS b(item, n)
      ${DECISION_JOIN}
      WHERE r.breaks > 0 AND ($1 OR d.decision IS NULL OR d.decision = 'needs_bank')
      ORDER BY r.id DESC, b.n
      LIMIT $2 OFFSET $3`,
    options.includeDecided ?? false,
    options.pageSize + 1,
    offset,
  );
  return { rows: rows.slice(0, options.pageSize).map(rowOf), hasNextPage: rows.length > options.pageSize };
}

/**
 * The break at `position` of run `runId`, with its decision, or null. With `lock`, inside a transaction,
 * the run is share-locked, so its break_list cannot be rewritten (applied) until the caller commits.
 */
export async function findStatementBreak(
  db: PrismaClientOrTransaction,
  runId: bigint,
  position: number,
  options: { lock?: boolean } = {},
): Promise<StatementBreakRow | null> {
  if (options.lock) await db.$queryRaw`SELECT id FROM statement_runs WHERE id = ${runId} FOR SHARE`;
  const [row] = await db.$queryRawUnsafe<BreakRow[]>(
    `SELECT ${BREAK_COLUMNS}
       FROM statement_runs r
      CROSS JOIN LATERAL jsonb_array_elements(r.break_list) WITH ORDINALITY AS b(item, n)
      ${DECISION_JOIN}
      WHERE r.id = $1 AND b.n = $2`,
    runId,
    position,
  );
  return row ? rowOf(row) : null;
}

/** A payout a statement line may be, as the breaks page shows it beside the line. */
export interface LineCandidate {
  id: bigint;
  ackNo: string;
  amountPaise: bigint;
  beneficiaryName: string;
  state: PayoutState;
  /** Its (IST) settlement date, else the date it was accepted. */
  date: string;
}

interface CandidateRow {
  id: bigint;
  ack_no: string;
  amount_paise: bigint;
  beneficiary_name: string;
  state: PayoutState;
  date: string;
}

const candidateOf = (r: CandidateRow): LineCandidate => ({
  id: r.id,
  ackNo: r.ack_no,
  amountPaise: r.amount_paise,
  beneficiaryName: r.beneficiary_name,
  state: r.state,
  date: r.date,
});

/** The payouts of these Ack_nos (a `suggested_match`'s stored candidates), as they stand now. */
export async function findLineCandidates(
  db: PrismaClientOrTransaction,
  ackNos: readonly string[],
): Promise<LineCandidate[]> {
  if (ackNos.length === 0) return [];
  const rows = await db.$queryRaw<CandidateRow[]>`
    SELECT id, ack_no, amount_paise, beneficiary_name, state::text AS state,
           to_char(coalesce(settled_at, created_at) AT TIME ZONE ${BANK_TIME_ZONE}, 'YYYY-MM-DD') AS date
      FROM payouts WHERE ack_no = ANY(${[...ackNos]}::text[]) ORDER BY id`;
  return rows.map(candidateOf);
}

/**
 * The payouts a line without a usable reference may be: the line's amount, settled or accepted within one
 * (IST) day of its value date — the same window the matcher's suggestions use (docs/reconciliation.md,
 * "Matching beyond the reference") — at most {@link MAX_PAYOUTS_NEAR_LINE}, the closest in time first.
 */
export async function findPayoutsNearLine(
  db: PrismaClientOrTransaction,
  line: { amountPaise: bigint; valueDate: string },
): Promise<LineCandidate[]> {
  const rows = await db.$queryRaw<CandidateRow[]>`
    WITH day AS (
      SELECT (${line.valueDate}::date::timestamp AT TIME ZONE ${BANK_TIME_ZONE}) AS day_start
    )
    SELECT p.id, p.ack_no, p.amount_paise, p.beneficiary_name, p.state::text AS state,
           to_char(coalesce(p.settled_at, p.created_at) AT TIME ZONE ${BANK_TIME_ZONE}, 'YYYY-MM-DD') AS date
      FROM day JOIN payouts p
        ON coalesce(p.settled_at, p.created_at) >= day.day_start - interval '1 day'
       AND coalesce(p.settled_at, p.created_at) < day.day_start + interval '2 days'
     WHERE p.amount_paise = ${line.amountPaise}
     ORDER BY abs(extract(epoch FROM coalesce(p.settled_at, p.created_at) - (day.day_start + interval '12 hours'))), p.id
     LIMIT ${MAX_PAYOUTS_NEAR_LINE}`;
  return rows.map(candidateOf);
}

export interface BreakDecisionInput {
  runId: bigint;
  position: number;
  /** The break as it was when decided: its kind and reference. */
  item: Pick<ReconBreak, 'kind' | 'reference'>;
  decision: BreakDecisionKind;
  decidedBy: string;
  note: string;
  payoutId?: bigint | null;
  approvalRequestId?: bigint | null;
}

/**
 * Records the current decision on a break: one row per break, replaced only while it is `needs_bank` (the
 * bank answered) or belongs to a break no longer at that position. The table keeps the current decision,
 * not its history, because the audit log (operator_actions) already keeps every step with who and why.
 * False, changing nothing, when the break already has a final decision.
 */
export async function recordBreakDecision(db: PrismaClientOrTransaction, input: BreakDecisionInput): Promise<boolean> {
  const rows = await db.$queryRaw<{ id: bigint }[]>`
    INSERT INTO statement_break_decisions
           (run_id, position, break_kind, reference, decision, decided_by, note, payout_id, approval_request_id)
    VALUES (${input.runId}, ${input.position}, ${input.item.kind}, ${input.item.reference.slice(0, 255)},
            ${input.decision}::statement_break_decision, ${input.decidedBy.slice(0, 100)}, ${input.note.slice(0, 500)},
            ${input.payoutId ?? null}::bigint, ${input.approvalRequestId ?? null}::bigint)
    ON CONFLICT (run_id, position) DO UPDATE
       SET break_kind = EXCLUDED.break_kind, reference = EXCLUDED.reference, decision = EXCLUDED.decision,
           decided_by = EXCLUDED.decided_by, decided_at = now(), note = EXCLUDED.note,
           payout_id = EXCLUDED.payout_id, approval_request_id = EXCLUDED.approval_request_id
     WHERE statement_break_decisions.decision = 'needs_bank'
        OR statement_break_decisions.break_kind <> EXCLUDED.break_kind
        OR statement_break_decisions.reference <> EXCLUDED.reference
    RETURNING id`;
  return rows.length === 1;
}

/** A payout a run matched to a line, and the break of an earlier run that line answers. */
export interface BookedLater {
  ackNo: string;
  lineNumber: number;
  breakKind: 'success_here_missing_at_bank' | 'reversed_here_missing_at_bank';
}

/**
 * The next-day rule (docs/reconciliation.md, "The breaks page"): a payout settled (or reversed) late in the
 * day that the bank books the next day is `success_here_missing_at_bank` (or `reversed_here_missing_at_bank`)
 * on the first statement and matched by the next. For each payout run `runId` matched to a line, every
 * open such break of an earlier run is decided `booked_next_day`, by "statement run N line L". A run does
 * not store its matched lines, so reconcileStatement, which has them, passes them. Answers how many
 * breaks it decided.
 */
export async function resolveBreaksBookedNextDay(
  db: PrismaClientOrTransaction,
  runId: bigint,
  matched: readonly BookedLater[],
): Promise<number> {
  if (matched.length === 0) return 0;
  const rows = await db.$queryRaw<{ id: bigint }[]>`
    WITH m AS (
      SELECT DISTINCT ON (ack_no, break_kind) ack_no, line_number, break_kind
        FROM unnest(${matched.map((m) => m.ackNo)}::text[], ${matched.map((m) => m.lineNumber)}::int[],
                    ${matched.map((m) => m.breakKind)}::text[])
             AS m(ack_no, line_number, break_kind)
       ORDER BY ack_no, break_kind, line_number
    ), open_breaks AS (
      SELECT DISTINCT ON (r.id, b.n) r.id AS run_id, b.n::int AS position, m.ack_no, m.line_number, m.break_kind,
             p.id AS payout_id
        FROM m
        JOIN payouts p ON p.ack_no = m.ack_no
        JOIN statement_runs r
          ON r.id < ${runId} AND r.breaks > 0
         AND r.break_list @> jsonb_build_array(
               jsonb_build_object('kind', m.break_kind, 'reference', m.ack_no))
       CROSS JOIN LATERAL jsonb_array_elements(r.break_list) WITH ORDINALITY AS b(item, n)
       WHERE b.item->>'kind' = m.break_kind AND b.item->>'reference' = m.ack_no
       ORDER BY r.id, b.n
    )
    INSERT INTO statement_break_decisions
           (run_id, position, break_kind, reference, decision, decided_by, note, payout_id)
    SELECT run_id, position, break_kind, ack_no, 'booked_next_day',
           'statement run ' || ${runId}::text || ' line ' || line_number,
           'the bank booked it the next day: statement run ' || ${runId}::text || ' line ' || line_number
             || ' is its movement',
           payout_id
      FROM open_breaks
    ON CONFLICT (run_id, position) DO UPDATE
       SET break_kind = EXCLUDED.break_kind, reference = EXCLUDED.reference, decision = EXCLUDED.decision,
           decided_by = EXCLUDED.decided_by, decided_at = now(), note = EXCLUDED.note,
           payout_id = EXCLUDED.payout_id, approval_request_id = NULL
     WHERE statement_break_decisions.decision = 'needs_bank'
        OR statement_break_decisions.break_kind <> EXCLUDED.break_kind
        OR statement_break_decisions.reference <> EXCLUDED.reference
    RETURNING id`;
  return rows.length;
}
