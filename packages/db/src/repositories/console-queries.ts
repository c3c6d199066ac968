import type { Paise, PayoutState, PayoutStatus } from '@payout/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../client.js';

// The support console's reads (docs/operations.md, "Support console"). Each list is bounded by `limit`
// and ordered newest first, so a page never scans more than it shows.

/** One of the three keys support is given: MID + TransactionID, an Ack_no, or a UTR (Bankriff). */
export type PayoutSearch =
  { by: 'transaction'; mid: string; transactionId: string } | { by: 'ack'; ackNo: string } | { by: 'utr'; utr: string };

/** A payout as a line of a list. */
export interface PayoutListRow {
  id: bigint;
  ackNo: string;
  mid: string;
  transactionId: string;
  mode: string;
  amountPaise: bigint;
  state: PayoutState;
  status: PayoutStatus;
  bankReference: string | null;
  failureReason: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

const LIST_SELECT = {
  id: true,
  ackNo: true,
  transactionId: true,
  mode: true,
  amountPaise: true,
  state: true,
  status: true,
  bankReference: true,
  failureReason: true,
  createdAt: true,
  settledAt: true,
  merchant: { select: { mid: true } },
} as const satisfies Prisma.PayoutSelect;

function toListRow(p: Prisma.PayoutGetPayload<{ select: typeof LIST_SELECT }>): PayoutListRow {
  const { merchant, ...rest } = p;
  return { ...rest, mid: merchant.mid };
}

/** The payouts a search key names (a UTR could in principle name more than one), newest first. */
export async function searchPayouts(db: PrismaClientOrTransaction, search: PayoutSearch): Promise<PayoutListRow[]> {
  const where: Prisma.PayoutWhereInput =
    search.by === 'transaction'
      ? { transactionId: search.transactionId, merchant: { mid: search.mid } }
      : search.by === 'ack'
        ? { ackNo: search.ackNo }
        : { bankReference: search.utr };
  const rows = await db.payout.findMany({ where, select: LIST_SELECT, orderBy: { id: 'desc' }, take: 20 });
  return rows.map(toListRow);
}

export interface PayoutListFilter {
  merchantId?: number;
  status?: PayoutStatus;
  state?: PayoutState;
  /** Created at or after. */
  from?: Date;
  /** Created before. */
  to?: Date;
  /** Only PENDING payouts accepted more than this many minutes ago. */
  pendingForMinutes?: number;
  limit: number;
}

/** Payouts matching every given filter, newest first. */
export async function listPayouts(db: PrismaClientOrTransaction, filter: PayoutListFilter): Promise<PayoutListRow[]> {
  const createdAt: Prisma.DateTimeFilter = {};
  if (filter.from) createdAt.gte = filter.from;
  if (filter.to) createdAt.lt = filter.to;
  if (filter.pendingForMinutes !== undefined) {
    const cutoff = new Date(Date.now() - filter.pendingForMinutes * 60_000);
    createdAt.lt = filter.to && filter.to < cutoff ? filter.to : cutoff;
  }
  const rows = await db.payout.findMany({
    where: {
      ...(filter.merchantId === undefined ? {} : { merchantId: filter.merchantId }),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.pendingForMinutes !== undefined ? { status: 'PENDING' as const } : {}),
      ...(filter.state ? { state: filter.state } : {}),
      ...(Object.keys(createdAt).length ? { createdAt } : {}),
    },
    select: LIST_SELECT,
    orderBy: { createdAt: 'desc' },
    take: filter.limit,
  });
  return rows.map(toListRow);
}

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
  webhook: {
    url: string;
    secretPrefix: string;
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
  endpoint: { url: string; secretPrefix: string; disabledAt: Date | null; disabledReason: string | null },
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

/** The payout an operator action is about: found by Ack_no, or by MID and TransactionID. */
export interface PayoutSubject {
  id: bigint;
  merchantId: number;
  mid: string;
  ackNo: string;
  transactionId: string;
  state: PayoutState;
  status: PayoutStatus;
  inquiryAttempts: number;
  amountPaise: Paise;
  beneficiaryName: string;
}

export async function findPayoutSubject(
  db: PrismaClientOrTransaction,
  key: { ackNo: string } | { mid: string; transactionId: string },
): Promise<PayoutSubject | null> {
  const p = await db.payout.findFirst({
    where: 'ackNo' in key ? { ackNo: key.ackNo } : { transactionId: key.transactionId, merchant: { mid: key.mid } },
    select: {
      id: true,
      merchantId: true,
      ackNo: true,
      transactionId: true,
      state: true,
      status: true,
      inquiryAttempts: true,
      amountPaise: true,
      beneficiaryName: true,
      merchant: { select: { mid: true } },
    },
  });
  if (!p) return null;
  const { merchant, ...rest } = p;
  return { ...rest, mid: merchant.mid };
}
