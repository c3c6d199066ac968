import type { PrismaClientOrTransaction } from '../../client.js';
import { LIST_SELECT, toListRow, type PayoutListRow } from './payout-lists.js';

// The merchant's statement page: its CSV of payouts (docs/operations.md, "Support console").

/**
 * A merchant's payouts created in [from, to), oldest first, `batch` at a time: for the CSV statement,
 * which may be long, so it is read in pages by id rather than all at once.
 */
export async function* payoutsForStatement(
  db: PrismaClientOrTransaction,
  merchantId: number,
  from: Date,
  to: Date,
  batch = 1_000,
): AsyncGenerator<
  PayoutListRow & { beneficiaryAccount: string; beneficiaryIfsc: string | null; beneficiaryName: string }
> {
  let after = 0n;
  for (;;) {
    const rows = await db.payout.findMany({
      where: { merchantId, createdAt: { gte: from, lt: to }, id: { gt: after } },
      select: { ...LIST_SELECT, beneficiaryAccount: true, beneficiaryIfsc: true, beneficiaryName: true },
      orderBy: { id: 'asc' },
      take: batch,
    });
    for (const row of rows)
      yield {
        ...toListRow(row),
        beneficiaryAccount: row.beneficiaryAccount,
        beneficiaryIfsc: row.beneficiaryIfsc,
        beneficiaryName: row.beneficiaryName,
      };
    if (rows.length < batch) return;
    after = rows.at(-1)!.id;
  }
}
