import type { PrismaClientOrTransaction } from '../../client.js';

// The list of failed webhook deliveries (docs/webhooks.md), newest first and bounded by `limit`.

/**
 * A webhook delivery that did not get through: given up (FAILED, no endpoint), or held while its endpoint
 * is disabled (HELD, docs/webhooks.md), for the list of failed deliveries.
 */
export interface FailedWebhookRow {
  deliveryId: bigint;
  status: 'FAILED' | 'HELD';
  mid: string;
  ackNo: string;
  transactionId: string;
  attempts: number;
  lastError: string | null;
  lastStatusCode: number | null;
  finishedAt: Date | null;
}

export async function listFailedWebhookDeliveries(
  db: PrismaClientOrTransaction,
  limit: number,
): Promise<FailedWebhookRow[]> {
  const rows = await db.webhookDelivery.findMany({
    where: { status: { in: ['FAILED', 'HELD'] } },
    orderBy: { id: 'desc' },
    take: limit,
    include: {
      merchant: { select: { mid: true } },
      payout: { select: { ackNo: true, transactionId: true } },
      attemptsMade: { orderBy: { attempt: 'desc' }, take: 1 },
    },
  });
  return rows.map((d) => ({
    deliveryId: d.id,
    status: d.status as 'FAILED' | 'HELD',
    mid: d.merchant.mid,
    ackNo: d.payout.ackNo,
    transactionId: d.payout.transactionId,
    attempts: d.attempts,
    lastError: d.attemptsMade[0]?.error ?? null,
    lastStatusCode: d.attemptsMade[0]?.statusCode ?? null,
    finishedAt: d.finishedAt,
  }));
}
