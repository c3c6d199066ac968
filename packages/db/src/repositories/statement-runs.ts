import type { PayoutState } from '@payout/domain';
import type { BookPayout, PlannedStatementAction, ReconBreak, ReconCounts } from '@payout/recon';
import type { PrismaClient, PrismaClientOrTransaction, Transaction } from '../client.js';
import type { Prisma } from '../generated/prisma/client.js';

// The statement runs as stored (table `statement_runs`) and the books a run is matched against. What a run
// is and how it is applied is the use cases' (packages/use-cases/src/statement-reconciliation.ts,
// docs/reconciliation.md); these are its reads and writes.

/** The business day of a statement is India's: value dates and our settlement dates are both IST. */
export const BANK_TIME_ZONE = 'Asia/Kolkata';

/** What a run stores before anything is done, so every change it leads to can name the run and the line. */
export interface NewStatementRun {
  fileDigest: string;
  fileName: string;
  /** Who asked for the run, as the audit log names them ("cli:asha", "console:asha"). */
  operator: string;
  valueDates: readonly string[];
  lines: number;
  counts: ReconCounts;
  breaks: readonly ReconBreak[];
  plannedActions: readonly PlannedStatementAction[];
  startedAt: Date;
}

/** Stores a matched run, not yet applied; answers its id. */
export async function insertStatementRun(db: PrismaClient, run: NewStatementRun): Promise<bigint> {
  const created = await db.statementRun.create({
    data: {
      fileDigest: run.fileDigest,
      fileName: run.fileName.slice(0, 255),
      operator: run.operator.slice(0, 100),
      applied: false,
      valueDates: run.valueDates.join(',').slice(0, 2000),
      lines: run.lines,
      counts: run.counts,
      breaks: run.breaks.length,
      breakList: run.breaks as unknown as Prisma.InputJsonValue,
      plannedActions: run.plannedActions.map((a) => ({
        ...a,
        payoutId: a.payoutId.toString(),
        amountPaise: a.amountPaise.toString(),
      })),
      startedAt: run.startedAt,
    },
    select: { id: true },
  });
  return created.id;
}

/** Earlier runs of the same file (same digest), oldest first. */
export async function findEarlierStatementRuns(
  db: PrismaClientOrTransaction,
  fileDigest: string,
): Promise<{ id: bigint; at: Date; applied: boolean; operator: string }[]> {
  const runs = await db.statementRun.findMany({
    where: { fileDigest },
    orderBy: { id: 'asc' },
    select: { id: true, startedAt: true, applied: true, operator: true },
  });
  return runs.map((r) => ({ id: r.id, at: r.startedAt, applied: r.applied, operator: r.operator }));
}

/** A planned action as the run keeps it in JSON: its bigints as decimal text (no `file` in a run of one file). */
export type StoredStatementAction = Record<Exclude<keyof PlannedStatementAction, 'file'>, string | number> & {
  file?: number;
};

/** A run as its application reads it, locked until the caller's transaction ends; null when there is none. */
export async function lockStatementRun(
  tx: Transaction,
  runId: bigint,
): Promise<{
  applied: boolean;
  counts: ReconCounts;
  breakList: ReconBreak[];
  plannedActions: StoredStatementAction[];
} | null> {
  const [run] = await tx.$queryRaw<
    { applied: boolean; counts: ReconCounts; break_list: ReconBreak[]; planned_actions: StoredStatementAction[] }[]
  >`
    SELECT applied, counts, break_list, planned_actions FROM statement_runs WHERE id = ${runId} FOR UPDATE`;
  return run
    ? { applied: run.applied, counts: run.counts, breakList: run.break_list, plannedActions: run.planned_actions }
    : null;
}

/** Locks the payouts (in id order, as every statement locking several does) and answers each one's state. */
export async function lockPayoutStates(
  tx: Transaction,
  payoutIds: readonly bigint[],
): Promise<Map<string, PayoutState>> {
  const ids = [...new Set(payoutIds.map((id) => id.toString()))];
  const rows = await tx.$queryRaw<{ id: bigint; state: PayoutState }[]>`
    SELECT id, state::text AS state FROM payouts WHERE id = ANY(${ids}::text[]::bigint[]) ORDER BY id FOR NO KEY UPDATE`;
  return new Map(rows.map((r) => [r.id.toString(), r.state]));
}

/** Marks a run applied, with what it left unresolved. */
export async function markStatementRunApplied(
  tx: Transaction,
  runId: bigint,
  applied: { by: string; counts: ReconCounts; breaks: readonly ReconBreak[] },
): Promise<void> {
  await tx.$executeRaw`
    UPDATE statement_runs
       SET applied = true, applied_at = now(), applied_by = ${applied.by.slice(0, 100)},
           counts = ${JSON.stringify(applied.counts)}::jsonb, breaks = ${applied.breaks.length},
           break_list = ${JSON.stringify(applied.breaks)}::jsonb
     WHERE id = ${runId}`;
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
