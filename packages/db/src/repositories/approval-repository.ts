import type { ApprovalAction, ApprovalState } from '@payout/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../client.js';

/** A request for a money action, as the console, the CLI and the approval use cases see it. */
export interface ApprovalRequestView {
  id: bigint;
  action: ApprovalAction;
  state: ApprovalState;
  maker: string;
  makerReason: string;
  merchantId: number | null;
  mid: string | null;
  payoutId: bigint | null;
  ackNo: string | null;
  params: Record<string, unknown>;
  preview: Record<string, unknown>;
  /** The preview's one-line summary ("Credit 4000.00 to …"). */
  summary: string;
  requestedAt: Date;
  expiresAt: Date;
  decidedBy: string | null;
  decidedAt: Date | null;
  decisionNote: string | null;
  outcome: Record<string, unknown> | null;
}

const SELECT = {
  id: true,
  action: true,
  state: true,
  maker: true,
  makerReason: true,
  merchantId: true,
  payoutId: true,
  params: true,
  preview: true,
  requestedAt: true,
  expiresAt: true,
  decidedBy: true,
  decidedAt: true,
  decisionNote: true,
  outcome: true,
  merchant: { select: { mid: true } },
  payout: { select: { ackNo: true } },
} as const;

type Row = Prisma.ApprovalRequestGetPayload<{ select: typeof SELECT }>;

function viewOf({ merchant, payout, ...row }: Row): ApprovalRequestView {
  const preview = row.preview as Record<string, unknown>;
  return {
    ...row,
    summary: typeof preview.summary === 'string' ? preview.summary : row.action,
    action: row.action as ApprovalAction,
    params: row.params as Record<string, unknown>,
    preview: row.preview as Record<string, unknown>,
    outcome: row.outcome as Record<string, unknown> | null,
    mid: merchant?.mid ?? null,
    ackNo: payout?.ackNo ?? null,
  };
}

/** JSON as PostgreSQL stores it: bigints (paise, ids) become strings. */
function jsonOf(value: Record<string, unknown>): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as object;
}

export async function insertApprovalRequest(
  db: PrismaClientOrTransaction,
  input: {
    action: ApprovalAction;
    maker: string;
    makerReason: string;
    merchantId?: number | null;
    payoutId?: bigint | null;
    params: Record<string, unknown>;
    preview: Record<string, unknown>;
    expiresAt: Date;
  },
): Promise<ApprovalRequestView> {
  const row = await db.approvalRequest.create({
    data: {
      action: input.action,
      maker: input.maker,
      makerReason: input.makerReason,
      merchantId: input.merchantId ?? null,
      payoutId: input.payoutId ?? null,
      params: jsonOf(input.params),
      preview: jsonOf(input.preview),
      expiresAt: input.expiresAt,
    },
    select: SELECT,
  });
  return viewOf(row);
}

/** The request, locked for the rest of the transaction, so two deciders take turns. */
export async function lockApprovalRequest(
  tx: PrismaClientOrTransaction,
  id: bigint,
): Promise<ApprovalRequestView | null> {
  const locked = await tx.$queryRaw<{ id: bigint }[]>`SELECT id FROM approval_requests WHERE id = ${id} FOR UPDATE`;
  return locked.length ? findApprovalRequest(tx, id) : null;
}

export async function findApprovalRequest(
  db: PrismaClientOrTransaction,
  id: bigint,
): Promise<ApprovalRequestView | null> {
  const row = await db.approvalRequest.findUnique({ where: { id }, select: SELECT });
  return row ? viewOf(row) : null;
}

/**
 * Ends a request that is still REQUESTED: decided (approved and run, rejected, failed), cancelled or
 * expired. False when it was not REQUESTED any more, so no request is ever decided twice.
 */
export async function closeApprovalRequest(
  db: PrismaClientOrTransaction,
  id: bigint,
  close: {
    state: Exclude<ApprovalState, 'REQUESTED'>;
    decidedBy: string;
    note?: string | null;
    outcome?: Record<string, unknown> | null;
  },
): Promise<boolean> {
  const { count } = await db.approvalRequest.updateMany({
    where: { id, state: 'REQUESTED' },
    data: {
      state: close.state,
      decidedBy: close.decidedBy,
      decidedAt: new Date(),
      decisionNote: close.note ?? null,
      outcome: close.outcome ? jsonOf(close.outcome) : undefined,
    },
  });
  return count === 1;
}

/** Requests, newest first: the open ones (still REQUESTED), or all, optionally of one merchant or payout. */
export async function listApprovalRequests(
  db: PrismaClientOrTransaction,
  filter: { open?: boolean; merchantId?: number; payoutId?: bigint; limit: number; offset?: number },
): Promise<ApprovalRequestView[]> {
  const rows = await db.approvalRequest.findMany({
    where: {
      ...(filter.open ? { state: 'REQUESTED' as const } : {}),
      ...(filter.merchantId === undefined ? {} : { merchantId: filter.merchantId }),
      ...(filter.payoutId === undefined ? {} : { payoutId: filter.payoutId }),
    },
    orderBy: { id: 'desc' },
    take: filter.limit,
    skip: filter.offset ?? 0,
    select: SELECT,
  });
  return rows.map(viewOf);
}
