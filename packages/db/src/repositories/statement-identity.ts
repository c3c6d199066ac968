import type { PrismaClientOrTransaction } from '../client.js';

/**
 * The statement numbers stored per bank account, so a file is checked for a day that never arrived
 * (docs/reconciliation-formats.md, "The file as a whole").
 */
export async function lastStatementSequence(db: PrismaClientOrTransaction, account: string): Promise<number | null> {
  const last = await db.statementRun.aggregate({ where: { account }, _max: { statementSequence: true } });
  return last._max.statementSequence ?? null;
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
