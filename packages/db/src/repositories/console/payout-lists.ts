import type { PayoutState, PayoutStatus } from '@payout/domain';
import type { Prisma } from '../../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../../client.js';

// The support console's payout lists: the search page, the waiting list and a merchant's payouts
// (docs/operations.md, "Support console"). Each list is bounded by `limit` and ordered newest first, so a
// page never scans more than it shows.

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

export const LIST_SELECT = {
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

export function toListRow(p: Prisma.PayoutGetPayload<{ select: typeof LIST_SELECT }>): PayoutListRow {
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
