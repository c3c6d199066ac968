import type { ReconBreak } from '@payout/recon';
import type { PrismaClientOrTransaction } from '../client.js';

/** One break a statement run left, with its run, for the support console. */
export interface StatementBreakRow {
  run: { id: bigint; fileName: string; operator: string; applied: boolean; startedAt: Date };
  item: ReconBreak;
}

/**
 * One page of the breaks statement runs left, newest run first and in the statement's order within a run:
 * `pageSize` rows of page `page` (1-based), and whether a next page has more.
 */
export async function listStatementBreaks(
  db: PrismaClientOrTransaction,
  options: { page: number; pageSize: number },
): Promise<{ rows: StatementBreakRow[]; hasNextPage: boolean }> {
  const offset = (Math.max(1, options.page) - 1) * options.pageSize;
  const rows = await db.$queryRaw<
    { id: bigint; file_name: string; operator: string; applied: boolean; started_at: Date; item: ReconBreak }[]
  >`
    SELECT r.id, r.file_name, r.operator, r.applied, r.started_at, b.item
      FROM statement_runs r
     CROSS JOIN LATERAL jsonb_array_elements(r.break_list) WITH ORDINALITY AS b(item, n)
     WHERE r.breaks > 0
     ORDER BY r.id DESC, b.n
     LIMIT ${options.pageSize + 1} OFFSET ${offset}`;
  return {
    rows: rows.slice(0, options.pageSize).map((r) => ({
      run: { id: r.id, fileName: r.file_name, operator: r.operator, applied: r.applied, startedAt: r.started_at },
      item: r.item,
    })),
    hasNextPage: rows.length > options.pageSize,
  };
}
