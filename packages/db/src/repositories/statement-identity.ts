import type { PrismaClientOrTransaction } from '../client.js';
import { RUN_WAITS } from './statement-runs.js';

/**
 * The statement numbers stored per bank account, so a file is checked for a day that never arrived
 * (docs/reconciliation-formats.md, "The file as a whole"). Only a run in effect counts: a statement whose
 * run waits for a second person, or was not approved, has not arrived as far as the next one is concerned
 * (docs/reconciliation.md, "When a run takes effect").
 */
export async function lastStatementSequence(db: PrismaClientOrTransaction, account: string): Promise<number | null> {
  const last = await db.statementRun.aggregate({
    where: { account, effectiveAt: { not: null } },
    _max: { statementSequence: true },
  });
  return last._max.statementSequence ?? null;
}

/** The runs of an account's statements that wait for a second person: their run, number and request. */
export async function statementRunsWaiting(
  db: PrismaClientOrTransaction,
  account: string,
): Promise<{ runId: bigint; sequence: number | null; approvalRequestId: bigint }[]> {
  const rows = await db.$queryRawUnsafe<
    { id: bigint; statement_sequence: number | null; approval_request_id: bigint }[]
  >(
    `SELECT r.id, r.statement_sequence, r.approval_request_id FROM statement_runs r
      WHERE r.account = $1 AND ${RUN_WAITS('r')} ORDER BY r.id`,
    account.slice(0, 64),
  );
  return rows.map((r) => ({ runId: r.id, sequence: r.statement_sequence, approvalRequestId: r.approval_request_id }));
}

/** Records which account and statement number a run read. */
export async function recordStatementIdentity(
  db: PrismaClientOrTransaction,
  runId: bigint,
  identity: { account: string; sequence: number | null },
): Promise<void> {
  await db.statementRun.update({
    where: { id: runId },
    data: { account: identity.account.slice(0, 64), statementSequence: identity.sequence },
  });
}
