import type { PrismaClientOrTransaction } from '../../client.js';

/**
 * The Description a merchant sent with its payout (docs/api.md, "Request members"), for the dashboard's
 * payout page; undefined when the merchant has no such payout (another merchant's is never found), null
 * when it sent none. The status lookup's body does not carry it, so this is the page's one read beyond it.
 */
export async function findPayoutDescription(
  db: PrismaClientOrTransaction,
  merchantId: number,
  transactionId: string,
): Promise<string | null | undefined> {
  const row = await db.payout.findUnique({
    where: { merchantId_transactionId: { merchantId, transactionId } },
    select: { description: true },
  });
  return row === null ? undefined : row.description;
}
