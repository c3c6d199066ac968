import type { PayoutState } from '@payout/domain';
import type { PlannedStatementAction, ReconBreak, ReconCounts } from '@payout/recon';
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
