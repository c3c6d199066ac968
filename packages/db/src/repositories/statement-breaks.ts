import type { PayoutState } from '@payout/domain';
import { linePlace, type ReconBreak } from '@payout/recon';
import type { PrismaClientOrTransaction, Transaction } from '../client.js';
import { BANK_TIME_ZONE, RUN_STANDS, RUN_WAITS } from './statement-runs.js';

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
  run: {
    id: bigint;
    fileName: string;
    operator: string;
    applied: boolean;
    startedAt: Date;
    /** Whether what the run found took effect: only then are its breaks listed and decided. */
    inEffect: boolean;
    /** The request the run waits for, while it waits (docs/reconciliation.md, "When a run takes effect"). */
    waitingFor: bigint | null;
  };
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
  in_effect: boolean;
  waiting_for: bigint | null;
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
  r.id, r.file_name, r.operator, r.applied, r.started_at, r.effective_at IS NOT NULL AS in_effect,
  CASE WHEN ${RUN_WAITS('r')} THEN r.approval_request_id END AS waiting_for, b.n::int AS position, b.item,
  d.decision::text AS decision, d.decided_by, d.decided_at, d.note, dp.ack_no AS payout_ack_no, d.approval_request_id`;

function rowOf(r: BreakRow): StatementBreakRow {
  return {
    run: {
      id: r.id,
      fileName: r.file_name,
      operator: r.operator,
      applied: r.applied,
      startedAt: r.started_at,
      inEffect: r.in_effect,
      waitingFor: r.waiting_for,
    },
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
 * One page of the breaks statement runs in effect left, newest run first and in the statement's order within
 * a run: `pageSize` rows of page `page` (1-based), and whether a next page has more. Only the open ones (no
 * decision, or waiting for the bank) unless `includeDecided`. A run waiting for a second person's approval
 * has no breaks here yet ({@link listWaitingStatementRuns}); one that was not approved never has.
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
      WHERE r.breaks > 0 AND r.effective_at IS NOT NULL AND ($1 OR d.decision IS NULL OR d.decision = 'needs_bank')
      ORDER BY r.id DESC, b.n
      LIMIT $2 OFFSET $3`,
    options.includeDecided ?? false,
    options.pageSize + 1,
    offset,
  );
  return { rows: rows.slice(0, options.pageSize).map(rowOf), hasNextPage: rows.length > options.pageSize };
}

/**
 * Names the request a stored run waits for (docs/reconciliation.md, "When a run takes effect"): until it is
 * approved nothing the run found counts — its breaks are not listed, its statement number does not count, the
 * discrepancies it found are not recorded and the earlier breaks it answers stay open.
 */
export async function holdStatementRunForApproval(
  db: PrismaClientOrTransaction,
  runId: bigint,
  approvalRequestId: bigint,
): Promise<void> {
  await db.statementRun.update({ where: { id: runId }, data: { approvalRequestId } });
}

/** A statement run waiting for a second person: what it found counts once its request is approved. */
export interface WaitingStatementRun {
  id: bigint;
  fileName: string;
  operator: string;
  startedAt: Date;
  breaks: number;
  /** How many earlier breaks it closes once approved (the next-day rule). */
  closes: number;
  approvalRequestId: bigint;
}

/** The statement runs waiting for a second person's approval, newest first (at most `limit`). */
export async function listWaitingStatementRuns(
  db: PrismaClientOrTransaction,
  limit = 50,
): Promise<WaitingStatementRun[]> {
  const rows = await db.$queryRawUnsafe<
    {
      id: bigint;
      file_name: string;
      operator: string;
      started_at: Date;
      breaks: number;
      closes: number;
      approval_request_id: bigint;
    }[]
  >(
    `SELECT r.id, r.file_name, r.operator, r.started_at, r.breaks, jsonb_array_length(r.break_closures) AS closes,
            r.approval_request_id
       FROM statement_runs r WHERE ${RUN_WAITS('r')} ORDER BY r.id DESC LIMIT $1`,
    limit,
  );
  return rows.map((r) => ({
    id: r.id,
    fileName: r.file_name,
    operator: r.operator,
    startedAt: r.started_at,
    breaks: r.breaks,
    closes: r.closes,
    approvalRequestId: r.approval_request_id,
  }));
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

/** A payout a run matched to a line, and the kind of earlier break that line answers. */
export interface BookedLater {
  ackNo: string;
  lineNumber: number;
  /** The line's file, in a run of several files. */
  file?: number;
  breakKind: 'success_here_missing_at_bank' | 'reversed_here_missing_at_bank';
}

/**
 * An earlier run's open break that a later run's line answers (the next-day rule): the break as the later
 * run found it, the payout, and the line. Closed when the later run takes effect, if it is still open then.
 */
export interface BreakClosure {
  /** The earlier run, and the break's position in it when found. */
  runId: bigint;
  position: number;
  kind: BookedLater['breakKind'];
  /** The payout's Ack_no: a run has at most one break of each of these kinds per payout. */
  reference: string;
  payoutId: bigint;
  /** The later run's line that is the payout's movement. */
  lineNumber: number;
  file?: number;
}

// The open breaks (no decision, or waiting for the bank) of runs before $5 (any run when null) that still
// stand — in effect, or waiting for their approval — which the movements ($1–$4: Ack_no, line, file, kind)
// answer: each payout's break of each kind, answered by the first line that names it.
const OPEN_BREAKS_ANSWERED = `
  m AS (
    SELECT DISTINCT ON (ack_no, break_kind) ack_no, line_number, file, break_kind
      FROM unnest($1::text[], $2::int[], $3::int[], $4::text[]) AS m(ack_no, line_number, file, break_kind)
     ORDER BY ack_no, break_kind, file NULLS FIRST, line_number
  ), open_breaks AS (
    SELECT DISTINCT ON (r.id, b.n) r.id AS run_id, b.n::int AS position, m.ack_no, m.line_number, m.file,
           m.break_kind, p.id AS payout_id
      FROM m
      JOIN payouts p ON p.ack_no = m.ack_no
      JOIN statement_runs r
        ON ($5::bigint IS NULL OR r.id < $5::bigint) AND r.breaks > 0 AND ${RUN_STANDS('r')}
       AND r.break_list @> jsonb_build_array(jsonb_build_object('kind', m.break_kind, 'reference', m.ack_no))
     CROSS JOIN LATERAL jsonb_array_elements(r.break_list) WITH ORDINALITY AS b(item, n)
      LEFT JOIN statement_break_decisions d
             ON d.run_id = r.id AND d.position = b.n
            AND d.break_kind = b.item->>'kind' AND d.reference = left(b.item->>'reference', 255)
     WHERE b.item->>'kind' = m.break_kind AND b.item->>'reference' = m.ack_no
       AND (d.decision IS NULL OR d.decision = 'needs_bank')
     ORDER BY r.id, b.n
  )`;

function movementParams(matched: readonly BookedLater[], before: bigint | null) {
  return [
    matched.map((m) => m.ackNo),
    matched.map((m) => m.lineNumber),
    matched.map((m) => m.file ?? null),
    matched.map((m) => m.breakKind),
    before,
  ];
}

/**
 * The next-day rule (docs/reconciliation.md, "The breaks page"): a payout settled (or reversed) late in the
 * day that the bank books the next day is `success_here_missing_at_bank` (or `reversed_here_missing_at_bank`)
 * on the first statement and matched by the next. For each payout a run matched to a line, the open such
 * breaks of runs before `before` (every run when null: a report that stores nothing) that still stand. A run
 * does not store its matched lines, so the matching passes them. Nothing is decided here: the run closes
 * them when it takes effect ({@link checkBreaksStillOpen}, {@link closeBreaksBookedLater}).
 */
export async function findBreaksBookedLater(
  db: PrismaClientOrTransaction,
  before: bigint | null,
  matched: readonly BookedLater[],
): Promise<BreakClosure[]> {
  if (matched.length === 0) return [];
  const rows = await db.$queryRawUnsafe<
    {
      run_id: bigint;
      position: number;
      ack_no: string;
      line_number: number;
      file: number | null;
      break_kind: BookedLater['breakKind'];
      payout_id: bigint;
    }[]
  >(
    `WITH ${OPEN_BREAKS_ANSWERED} SELECT * FROM open_breaks ORDER BY run_id, position`,
    ...movementParams(matched, before),
  );
  return rows.map((r) => ({
    runId: r.run_id,
    position: r.position,
    kind: r.break_kind,
    reference: r.ack_no,
    payoutId: r.payout_id,
    lineNumber: r.line_number,
    ...(r.file !== null && { file: r.file }),
  }));
}

export type BreaksStillOpen =
  /** Every break is open as the run found it; `closures` hold each one's position now. */
  | { kind: 'open'; closures: BreakClosure[] }
  /** Some breaks are no longer open as the run found them, each with why. */
  | { kind: 'not-open'; breaks: { closure: BreakClosure; why: string }[] };

/**
 * Whether the earlier breaks a run answers are still open as it found them, inside the caller's transaction:
 * the earlier runs are locked until it ends, so no person decides one of these breaks meanwhile. Each break's
 * run must still stand (in effect, or waiting for its own approval), the break must still be in it (found by
 * kind and payout, since applying a run moves its breaks up) and have no final decision.
 */
export async function checkBreaksStillOpen(
  tx: Transaction,
  closures: readonly BreakClosure[],
): Promise<BreaksStillOpen> {
  if (closures.length === 0) return { kind: 'open', closures: [] };
  const runIds = [...new Set(closures.map((c) => c.runId.toString()))];
  await tx.$queryRawUnsafe(
    'SELECT id FROM statement_runs WHERE id = ANY($1::text[]::bigint[]) ORDER BY id FOR UPDATE',
    runIds,
  );
  const now = await tx.$queryRawUnsafe<
    {
      stands: boolean;
      position: number | null;
      decision: BreakDecisionKind | null;
      decided_by: string | null;
    }[]
  >(
    `SELECT coalesce(${RUN_STANDS('r')}, false) AS stands, b.n::int AS position,
            d.decision::text AS decision, d.decided_by
       FROM unnest($1::text[]::bigint[], $2::text[], $3::text[]) WITH ORDINALITY AS c(run_id, kind, reference, i)
       LEFT JOIN statement_runs r ON r.id = c.run_id
       LEFT JOIN LATERAL (
         SELECT x.n FROM jsonb_array_elements(r.break_list) WITH ORDINALITY AS x(item, n)
          WHERE x.item->>'kind' = c.kind AND x.item->>'reference' = c.reference ORDER BY x.n LIMIT 1
       ) b ON true
       LEFT JOIN statement_break_decisions d
              ON d.run_id = r.id AND d.position = b.n AND d.break_kind = c.kind AND d.reference = left(c.reference, 255)
      ORDER BY c.i`,
    closures.map((c) => c.runId.toString()),
    closures.map((c) => c.kind),
    closures.map((c) => c.reference),
  );
  const notOpen: { closure: BreakClosure; why: string }[] = [];
  const open = closures.map((closure, index) => {
    const found = now[index]!;
    const why = !found.stands
      ? `statement run ${closure.runId} was not approved: its breaks never counted`
      : found.position === null
        ? `statement run ${closure.runId} has no ${closure.kind} break of ${closure.reference} any more`
        : found.decision !== null && FINAL_BREAK_DECISIONS.includes(found.decision)
          ? `the ${closure.kind} break of ${closure.reference} in statement run ${closure.runId} was decided meanwhile (${found.decision.replace(/_/g, ' ')} by ${found.decided_by})`
          : undefined;
    if (why !== undefined) notOpen.push({ closure, why });
    return { ...closure, position: found.position ?? closure.position };
  });
  return notOpen.length > 0 ? { kind: 'not-open', breaks: notOpen } : { kind: 'open', closures: open };
}

/**
 * Closes the earlier breaks run `runId` answers, `booked_next_day`, naming its line (and the approval it took
 * effect on), in the caller's transaction, after {@link checkBreaksStillOpen} found them open at these
 * positions under its locks. Answers how many it closed.
 */
export async function closeBreaksBookedLater(
  tx: Transaction,
  runId: bigint,
  open: readonly BreakClosure[],
  approval?: { id: bigint; maker: string; approver: string },
): Promise<number> {
  if (open.length === 0) return 0;
  const approved = approval
    ? ` — requested by ${approval.maker}, approved by ${approval.approver} (approval ${approval.id})`
    : '';
  const place = (c: BreakClosure) => `statement run ${runId} ${linePlace(c)}`;
  const inserted = await tx.$queryRawUnsafe<{ id: bigint }[]>(
    `INSERT INTO statement_break_decisions
            (run_id, position, break_kind, reference, decision, decided_by, note, payout_id)
     SELECT run_id, position, kind, reference, 'booked_next_day', decided_by, note, payout_id
       FROM unnest($1::text[]::bigint[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]::bigint[])
            AS c(run_id, position, kind, reference, decided_by, note, payout_id)
     ON CONFLICT (run_id, position) DO UPDATE
        SET break_kind = EXCLUDED.break_kind, reference = EXCLUDED.reference, decision = EXCLUDED.decision,
            decided_by = EXCLUDED.decided_by, decided_at = now(), note = EXCLUDED.note,
            payout_id = EXCLUDED.payout_id, approval_request_id = NULL
      WHERE statement_break_decisions.decision = 'needs_bank'
         OR statement_break_decisions.break_kind <> EXCLUDED.break_kind
         OR statement_break_decisions.reference <> EXCLUDED.reference
     RETURNING id`,
    open.map((c) => c.runId.toString()),
    open.map((c) => c.position),
    open.map((c) => c.kind),
    open.map((c) => c.reference.slice(0, 255)),
    open.map((c) => place(c).slice(0, 100)),
    open.map((c) => `the bank booked it the next day: ${place(c)} is its movement${approved}`.slice(0, 500)),
    open.map((c) => c.payoutId.toString()),
  );
  // Under the earlier runs' locks, every break found open is closed: anything less is a fault.
  if (inserted.length !== open.length) {
    throw new Error(`statement run ${runId} closed ${inserted.length} of ${open.length} earlier breaks`);
  }
  return inserted.length;
}

/**
 * The next-day rule at once, for a run that takes effect as it is stored (reconcileStatement in
 * @payout/use-cases, whose caller holds the database's credentials): every open break of an earlier standing
 * run that run `runId`'s movements answer is decided `booked_next_day`, by "statement run N line L". Answers
 * how many breaks it decided. A person's run closes them only on a second person's approval
 * ({@link findBreaksBookedLater}, {@link checkBreaksStillOpen}).
 */
export async function resolveBreaksBookedNextDay(
  db: PrismaClientOrTransaction,
  runId: bigint,
  matched: readonly BookedLater[],
): Promise<number> {
  if (matched.length === 0) return 0;
  const rows = await db.$queryRawUnsafe<{ id: bigint }[]>(
    `WITH ${OPEN_BREAKS_ANSWERED}, placed AS (
       SELECT open_breaks.*, 'statement run ' || $5::bigint::text || ' '
              || CASE WHEN file IS NULL THEN '' ELSE 'file ' || file || ' ' END || 'line ' || line_number AS place
         FROM open_breaks
     )
     INSERT INTO statement_break_decisions
            (run_id, position, break_kind, reference, decision, decided_by, note, payout_id)
     SELECT run_id, position, break_kind, ack_no, 'booked_next_day', place,
            'the bank booked it the next day: ' || place || ' is its movement', payout_id
       FROM placed
     ON CONFLICT (run_id, position) DO UPDATE
        SET break_kind = EXCLUDED.break_kind, reference = EXCLUDED.reference, decision = EXCLUDED.decision,
            decided_by = EXCLUDED.decided_by, decided_at = now(), note = EXCLUDED.note,
            payout_id = EXCLUDED.payout_id, approval_request_id = NULL
      WHERE statement_break_decisions.decision = 'needs_bank'
         OR statement_break_decisions.break_kind <> EXCLUDED.break_kind
         OR statement_break_decisions.reference <> EXCLUDED.reference
     RETURNING id`,
    ...movementParams(matched, runId),
  );
  return rows.length;
}
