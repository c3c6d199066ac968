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
  /** The payout whose result it carries; null for a downtime's delivery. */
  ackNo: string | null;
  transactionId: string | null;
  /** For a downtime's delivery: which event, bank and mode, e.g. "downtime.started primary IMPS". */
  downtime: string | null;
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
      downtime: { select: { bank: true, mode: true } },
      attemptsMade: { orderBy: { attempt: 'desc' }, take: 1 },
    },
  });
  return rows.map((d) => ({
    deliveryId: d.id,
    status: d.status as 'FAILED' | 'HELD',
    mid: d.merchant.mid,
    ackNo: d.payout?.ackNo ?? null,
    transactionId: d.payout?.transactionId ?? null,
    downtime: d.downtime
      ? `${d.cause === 'DOWNTIME_RESOLVED' ? 'downtime.resolved' : 'downtime.started'} ${d.downtime.bank} ${d.downtime.mode}`
      : null,
    attempts: d.attempts,
    lastError: d.attemptsMade[0]?.error ?? null,
    lastStatusCode: d.attemptsMade[0]?.statusCode ?? null,
    finishedAt: d.finishedAt,
  }));
}
