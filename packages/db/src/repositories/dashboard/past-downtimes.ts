import type { BankDowntime, DowntimeStatus } from '@payout/domain';
import type { PrismaClientOrTransaction } from '../../client.js';

/** A sponsor bank's downtime that has ended. */
export type PastBankDowntime = BankDowntime & { resolvedAt: Date };

/**
 * The downtimes resolved since `since`, newest end first, at most `limit`: the dashboard's downtimes page
 * shows them under the open ones GET /api/downtimes lists (docs/api.md, "Downtimes"). The same for every
 * merchant: a downtime names a sponsor bank's alias and a mode, never a merchant.
 */
export async function listPastBankDowntimes(
  db: PrismaClientOrTransaction,
  options: { since: Date; limit: number },
): Promise<PastBankDowntime[]> {
  const rows = await db.bankDowntime.findMany({
    where: { resolvedAt: { gte: options.since } },
    orderBy: [{ resolvedAt: 'desc' }, { id: 'desc' }],
    take: options.limit,
  });
  return rows.map((row) => ({
    bank: row.bank,
    mode: row.mode,
    status: row.status as DowntimeStatus,
    since: row.since,
    resolvedAt: row.resolvedAt!,
  }));
}
