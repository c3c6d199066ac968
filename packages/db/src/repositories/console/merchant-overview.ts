import type { PrismaClientOrTransaction } from '../../client.js';
import { LIST_SELECT, toListRow, type PayoutListRow } from './payout-lists.js';

/** Everything the merchant page shows. */
export interface MerchantOverview {
  id: number;
  mid: string;
  name: string;
  status: string;
  createdAt: Date;
  availablePaise: bigint;
  reservedPaise: bigint;
  /** Paid out (SUCCESS) since `dayStart`. */
  settledTodayPaise: bigint;
  settledTodayCount: number;
  recentPayouts: PayoutListRow[];
  recentCredits: { at: Date; kind: string; amountPaise: bigint; reference: string | null }[];
  tokens: { id: number; prefix: string; createdAt: Date; revokedAt: Date | null; lastUsedAt: Date | null }[];
  /** CIDRs the merchant's tokens work from; empty for anywhere. */
  ipAllowlist: string[];
  /** How its payouts are routed (docs/banks.md): the bank it is pinned to, if any, and its downtime hold window. */
  routing: { pinnedBank: string | null; downtimeHoldSeconds: number };
  webhook: {
    url: string;
    /** Null until the merchant fetches its signing secret (docs/webhooks.md): its deliveries are held meanwhile. */
    secretPrefix: string | null;
    /** Deliveries finished or pending since `dayStart`, by status. */
    health: { delivered: number; failed: number; pending: number; held: number };
    /** Set while the endpoint is disabled for failing a whole retry window. */
    disabled: { at: Date; reason: string | null } | null;
    lastAttempt: { at: Date; statusCode: number | null; error: string | null } | null;
  } | null;
}

/** The merchant page: balances, today's settlements, recent payouts and credits, tokens and webhook health. */
export async function findMerchantOverview(
  db: PrismaClientOrTransaction,
  mid: string,
  dayStart: Date,
  recent = 20,
): Promise<MerchantOverview | null> {
  const merchant = await db.merchant.findUnique({
    where: { mid },
    include: {
      wallet: true,
      webhookEndpoint: true,
      tokens: { orderBy: { id: 'asc' } },
    },
  });
  if (!merchant) return null;
  const [settled, recentPayouts, credits, webhook] = await Promise.all([
    db.payout.aggregate({
      where: { merchantId: merchant.id, status: 'SUCCESS', settledAt: { gte: dayStart } },
      _sum: { amountPaise: true },
      _count: true,
    }),
    db.payout.findMany({
      where: { merchantId: merchant.id },
      select: LIST_SELECT,
      orderBy: { createdAt: 'desc' },
      take: recent,
    }),
    db.ledgerEntry.findMany({
      where: { merchantId: merchant.id, account: 'MAIN_WALLET', kind: { in: ['WALLET_CREDIT', 'COLLECTION_CREDIT'] } },
      orderBy: { id: 'desc' },
      take: recent,
    }),
    merchant.webhookEndpoint ? webhookOverview(db, merchant.id, merchant.webhookEndpoint, dayStart) : null,
  ]);
  return {
    id: merchant.id,
    mid: merchant.mid,
    name: merchant.name,
    routing: { pinnedBank: merchant.pinnedBank, downtimeHoldSeconds: merchant.downtimeHoldSeconds },
    status: merchant.status,
    createdAt: merchant.createdAt,
    availablePaise: merchant.wallet?.availablePaise ?? 0n,
    reservedPaise: merchant.wallet?.reservedPaise ?? 0n,
    settledTodayPaise: settled._sum.amountPaise ?? 0n,
    settledTodayCount: settled._count,
    recentPayouts: recentPayouts.map(toListRow),
    recentCredits: credits.map((c) => ({
      at: c.createdAt,
      kind: c.kind,
      amountPaise: c.amountPaise,
      reference: c.reference,
    })),
    ipAllowlist: merchant.ipAllowlist,
    tokens: merchant.tokens.map((t) => ({
      id: t.id,
      prefix: t.tokenPrefix,
      createdAt: t.createdAt,
      revokedAt: t.revokedAt,
      lastUsedAt: t.lastUsedAt,
    })),
    webhook,
  };
}

/** A registered endpoint's health since `dayStart`, whether it is disabled, and its last attempt. */
async function webhookOverview(
  db: PrismaClientOrTransaction,
  merchantId: number,
  endpoint: { url: string; secretPrefix: string | null; disabledAt: Date | null; disabledReason: string | null },
  dayStart: Date,
): Promise<NonNullable<MerchantOverview['webhook']>> {
  const [deliveries, lastAttempt] = await Promise.all([
    db.webhookDelivery.groupBy({
      by: ['status'],
      where: { merchantId, OR: [{ finishedAt: { gte: dayStart } }, { status: { in: ['PENDING', 'HELD'] } }] },
      _count: true,
    }),
    db.webhookAttempt.findFirst({ where: { delivery: { merchantId } }, orderBy: { id: 'desc' } }),
  ]);
  const count = (status: string) => deliveries.find((d) => d.status === status)?._count ?? 0;
  return {
    url: endpoint.url,
    secretPrefix: endpoint.secretPrefix,
    health: { delivered: count('DELIVERED'), failed: count('FAILED'), pending: count('PENDING'), held: count('HELD') },
    disabled: endpoint.disabledAt ? { at: endpoint.disabledAt, reason: endpoint.disabledReason } : null,
    lastAttempt: lastAttempt
      ? { at: lastAttempt.startedAt, statusCode: lastAttempt.statusCode, error: lastAttempt.error }
      : null,
  };
}
