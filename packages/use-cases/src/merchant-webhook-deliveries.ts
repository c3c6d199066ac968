import type { PrismaClientOrTransaction } from '@payout/db';

/** One webhook delivery as the merchant's dashboard shows it: what it told, how it went, never a secret. */
export interface MerchantWebhookDelivery {
  id: bigint;
  cause: string;
  /** The payout's TransactionID; null for a downtime's delivery. */
  transactionId: string | null;
  status: string;
  attempts: number;
  /** The HTTP status the endpoint answered the latest attempt with; null before one, or if it did not answer. */
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  nextAttemptAt: Date | null;
  finishedAt: Date | null;
}

/**
 * A merchant's webhook deliveries, newest first, a page at a time (`before`: the last id of the previous
 * page), each with its latest attempt: the dashboard's Webhook page (docs/dashboard.md, "Webhook").
 * Only `merchantId`'s rows are read.
 */
export async function listMerchantWebhookDeliveries(
  db: PrismaClientOrTransaction,
  merchantId: number,
  page: { limit: number; before?: bigint | undefined },
): Promise<MerchantWebhookDelivery[]> {
  const rows = await db.webhookDelivery.findMany({
    where: { merchantId, ...(page.before !== undefined && { id: { lt: page.before } }) },
    orderBy: { id: 'desc' },
    take: page.limit,
    select: {
      id: true,
      cause: true,
      status: true,
      attempts: true,
      createdAt: true,
      nextAttemptAt: true,
      finishedAt: true,
      payout: { select: { transactionId: true } },
      attemptsMade: { orderBy: { attempt: 'desc' }, take: 1, select: { statusCode: true, error: true } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    cause: r.cause,
    transactionId: r.payout?.transactionId ?? null,
    status: r.status,
    attempts: r.attempts,
    lastStatusCode: r.attemptsMade[0]?.statusCode ?? null,
    lastError: r.attemptsMade[0]?.error ?? null,
    createdAt: r.createdAt,
    nextAttemptAt: r.nextAttemptAt,
    finishedAt: r.finishedAt,
  }));
}

/** The TransactionID of the merchant's delivery `id`, for sending its payout's result again; null if none. */
export async function findMerchantDeliveryPayout(
  db: PrismaClientOrTransaction,
  merchantId: number,
  deliveryId: bigint,
): Promise<string | null> {
  const row = await db.webhookDelivery.findFirst({
    where: { id: deliveryId, merchantId },
    select: { payout: { select: { transactionId: true } } },
  });
  return row?.payout?.transactionId ?? null;
}
