import type { PayoutState } from '@payout/domain';
import type { PlannedStatementAction, ReconBreak, ReconCounts, StatementLine } from '@payout/recon';
import type { PrismaClient, PrismaClientOrTransaction, Transaction } from '../client.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { BreakClosure } from './statement-breaks.js';

// The statement runs as stored (table `statement_runs`) and the books a run is matched against. What a run
// is and how it is applied is the use cases' (packages/use-cases/src/statement-reconciliation.ts,
// docs/reconciliation.md); these are its reads and writes.

/** The business day of a statement is India's: value dates and our settlement dates are both IST. */
export const BANK_TIME_ZONE = 'Asia/Kolkata';

/**
 * SQL: run `r` stands — it took effect, or its request still waits for a second person (not rejected,
 * cancelled, expired or refused). What a run that does not stand found never counts (docs/reconciliation.md,
 * "When a run takes effect").
 */
export const RUN_STANDS = (r: string) => `(${r}.effective_at IS NOT NULL OR EXISTS (
  SELECT 1 FROM approval_requests a
   WHERE a.id = ${r}.approval_request_id AND a.state = 'REQUESTED' AND a.expires_at > now()))`;

/** SQL: run `r` waits for its request's approval (stands, and has not taken effect). */
export const RUN_WAITS = (r: string) => `(${r}.effective_at IS NULL AND ${RUN_STANDS(r)})`;

/** A discrepancy a run found — what the line said of which payout — recorded when the run takes effect. */
export interface RunDiscrepancy {
  payoutId: bigint;
  kind: 'SUCCESS_AFTER_FAILED' | 'REVERSAL_OF_UNPAID';
  line: StatementLine;
}

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
  /**
   * `at-once`: what it found takes effect as it is stored (it asks nothing of a second person);
   * `on-approval`: it waits for the request `holdStatementRunForApproval` (statement-breaks.ts) names.
   */
  takesEffect: 'at-once' | 'on-approval';
  /** The earlier runs' breaks its lines answer (the next-day rule), closed when it takes effect. */
  breakClosures: readonly BreakClosure[];
  /** What it found for a person, recorded when it takes effect (at once, by the caller, for `at-once`). */
  foundDiscrepancies: readonly RunDiscrepancy[];
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
      effectiveAt: run.takesEffect === 'at-once' ? new Date() : null,
      breakClosures: run.breakClosures.map((c) => ({
        ...c,
        runId: c.runId.toString(),
        payoutId: c.payoutId.toString(),
      })),
      foundDiscrepancies: run.foundDiscrepancies.map((d) => ({
        ...d,
        payoutId: d.payoutId.toString(),
        line: { ...d.line, amountPaise: d.line.amountPaise.toString() },
      })),
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
  /** Whether what it found already took effect (a run that asked nothing of a second person, or one stored before runs waited). */
  inEffect: boolean;
  counts: ReconCounts;
  breakList: ReconBreak[];
  plannedActions: StoredStatementAction[];
  breakClosures: BreakClosure[];
  foundDiscrepancies: RunDiscrepancy[];
} | null> {
  const [run] = await tx.$queryRaw<
    {
      applied: boolean;
      in_effect: boolean;
      counts: ReconCounts;
      break_list: ReconBreak[];
      planned_actions: StoredStatementAction[];
      break_closures: (Omit<BreakClosure, 'runId' | 'payoutId'> & { runId: string; payoutId: string })[];
      found_discrepancies: (Omit<RunDiscrepancy, 'payoutId' | 'line'> & {
        payoutId: string;
        line: Omit<StatementLine, 'amountPaise'> & { amountPaise: string };
      })[];
    }[]
  >`
    SELECT applied, effective_at IS NOT NULL AS in_effect, counts, break_list, planned_actions, break_closures,
           found_discrepancies
      FROM statement_runs WHERE id = ${runId} FOR UPDATE`;
  if (!run) return null;
  return {
    applied: run.applied,
    inEffect: run.in_effect,
    counts: run.counts,
    breakList: run.break_list,
    plannedActions: run.planned_actions,
    breakClosures: run.break_closures.map((c) => ({ ...c, runId: BigInt(c.runId), payoutId: BigInt(c.payoutId) })),
    foundDiscrepancies: run.found_discrepancies.map((d) => ({
      ...d,
      payoutId: BigInt(d.payoutId),
      line: { ...d.line, amountPaise: BigInt(d.line.amountPaise) },
    })),
  };
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

/**
 * Marks a run applied, with what it left unresolved, and in effect from now (if it was not already). Its
 * break_list loses the breaks its actions resolved, so a decision already taken on one of the others — a
 * later run's closure, approved while this one waited — follows its break to its new position; one on a
 * break the actions resolved moves past the list's end, where it names no break.
 */
export async function markStatementRunApplied(
  tx: Transaction,
  runId: bigint,
  applied: { by: string; counts: ReconCounts; breaks: readonly ReconBreak[] },
): Promise<void> {
  const breaks = JSON.stringify(applied.breaks);
  // Each decision goes first to its new place plus an offset no break reaches, then back, so no two
  // decisions share a position on the way (one per break, a unique index).
  const moved = await tx.$executeRaw`
    WITH old AS (
      SELECT b.item, b.n::int AS n FROM statement_runs r
       CROSS JOIN LATERAL jsonb_array_elements(r.break_list) WITH ORDINALITY AS b(item, n)
       WHERE r.id = ${runId}
    ), new AS (
      SELECT b.item, b.n::int AS n FROM jsonb_array_elements(${breaks}::jsonb) WITH ORDINALITY AS b(item, n)
    ), kept AS (
      SELECT DISTINCT ON (d.id) d.id, new.n AS to_position
        FROM statement_break_decisions d
        JOIN old ON old.n = d.position AND old.item->>'kind' = d.break_kind
                AND left(old.item->>'reference', 255) = d.reference
        JOIN new ON new.item = old.item
       WHERE d.run_id = ${runId}
       ORDER BY d.id, new.n
    ), moves AS (
      SELECT d.id, coalesce(k.to_position,
                            jsonb_array_length(${breaks}::jsonb)
                              + (row_number() OVER (PARTITION BY k.id IS NULL ORDER BY d.position))::int) AS to_position
        FROM statement_break_decisions d LEFT JOIN kept k ON k.id = d.id
       WHERE d.run_id = ${runId}
    )
    UPDATE statement_break_decisions d SET position = m.to_position + ${POSITION_OFFSET}
      FROM moves m WHERE d.id = m.id AND m.to_position <> d.position`;
  if (moved > 0) {
    await tx.$executeRaw`
      UPDATE statement_break_decisions SET position = position - ${POSITION_OFFSET}
       WHERE run_id = ${runId} AND position > ${POSITION_OFFSET}`;
  }
  await tx.$executeRaw`
    UPDATE statement_runs
       SET applied = true, applied_at = now(), applied_by = ${applied.by.slice(0, 100)},
           counts = ${JSON.stringify(applied.counts)}::jsonb, breaks = ${applied.breaks.length},
           break_list = ${breaks}::jsonb, effective_at = coalesce(effective_at, now())
     WHERE id = ${runId}`;
}

/** Beyond any break's position (the console's paths take at most nine digits). */
const POSITION_OFFSET = 1_000_000_000;
