import type { RoutingDecision } from '@payout/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../client.js';
import { listDiscrepancies, type DiscrepancyView } from './discrepancy-repository.js';
import {
  toWebhookDeliveryView,
  WEBHOOK_DELIVERY_INCLUDE,
  type WebhookDeliveryView,
} from './webhook-delivery-repository.js';

/** Everything support needs to answer "where is my money?" about one payout, from PostgreSQL. */
export interface PayoutStory {
  payout: {
    id: bigint;
    mid: string;
    merchantName: string;
    transactionId: string;
    ackNo: string;
    mode: string;
    amountPaise: bigint;
    state: string;
    status: string;
    failureReason: string | null;
    bankReference: string | null;
    beneficiaryAccount: string;
    beneficiaryIfsc: string | null;
    beneficiaryName: string;
    submitAttempts: number;
    inquiryAttempts: number;
    nextCheckAt: Date | null;
    createdAt: Date;
    updatedAt: Date;
    settledAt: Date | null;
    /** The bank it was sent to (docs/banks.md); null until first sent. */
    bank: string | null;
    /** The routing decision that chose that bank; each earlier one is told by the events' reasons. */
    routing: RoutingDecision | null;
    /** Since when it has been held, unsent, for lack of a bank serving its mode. */
    heldSince: Date | null;
  };
  events: {
    at: Date;
    from: string | null;
    to: string;
    reason: string;
    attempt: number | null;
    actor: string;
    railAnswer: unknown;
  }[];
  /** Each leg with the balance of its account (for this merchant) right after it: the running balance. */
  ledger: { at: Date; kind: string; account: string; amountPaise: bigint; balanceAfterPaise: bigint }[];
  /** Notifications of the payout's result to the merchant, each with every attempt. */
  webhooks: WebhookDeliveryView[];
  /** Where the bank contradicted this payout's settlement, open or resolved. */
  discrepancies: DiscrepancyView[];
}

/** A merchant's payout by MID and TransactionID with its events, ledger legs and webhooks, oldest first. */
export function findPayoutStory(
  db: PrismaClientOrTransaction,
  mid: string,
  transactionId: string,
): Promise<PayoutStory | null> {
  return loadStory(db, { transactionId, merchant: { mid } });
}

/** The same story found by our own reference, the Ack_no. */
export function findPayoutStoryByAckNo(db: PrismaClientOrTransaction, ackNo: string): Promise<PayoutStory | null> {
  return loadStory(db, { ackNo });
}

async function loadStory(db: PrismaClientOrTransaction, where: Prisma.PayoutWhereInput): Promise<PayoutStory | null> {
  const p = await db.payout.findFirst({
    where,
    include: {
      merchant: { select: { mid: true, name: true } },
      events: { orderBy: { id: 'asc' } },
      ledgerEntries: { orderBy: { id: 'asc' } },
      webhookDeliveries: { orderBy: { id: 'asc' }, include: WEBHOOK_DELIVERY_INCLUDE },
    },
  });
  if (!p) return null;
  const balances = await balancesAfter(
    db,
    p.merchantId,
    p.ledgerEntries.map((l) => l.id),
  );
  return {
    payout: {
      id: p.id,
      mid: p.merchant.mid,
      merchantName: p.merchant.name,
      transactionId: p.transactionId,
      ackNo: p.ackNo,
      mode: p.mode,
      amountPaise: p.amountPaise,
      state: p.state,
      status: p.status,
      failureReason: p.failureReason,
      bankReference: p.bankReference,
      beneficiaryAccount: p.beneficiaryAccount,
      beneficiaryIfsc: p.beneficiaryIfsc,
      beneficiaryName: p.beneficiaryName,
      submitAttempts: p.submitAttempts,
      inquiryAttempts: p.inquiryAttempts,
      nextCheckAt: p.nextCheckAt,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
      settledAt: p.settledAt,
      bank: p.bank,
      routing: routingDecisionOf(p.routing),
      heldSince: p.heldSince,
    },
    events: p.events.map((e) => ({
      at: e.createdAt,
      from: e.fromState,
      to: e.toState,
      reason: e.reason,
      attempt: e.attempt,
      actor: e.actor,
      railAnswer: e.railAnswer,
    })),
    ledger: p.ledgerEntries.map((l) => ({
      at: l.createdAt,
      kind: l.kind,
      account: l.account,
      amountPaise: l.amountPaise,
      balanceAfterPaise: balances.get(l.id) ?? 0n,
    })),
    webhooks: p.webhookDeliveries.map(toWebhookDeliveryView),
    discrepancies: await listDiscrepancies(db, { payoutId: p.id, includeResolved: true }),
  };
}

/**
 * The balance of each leg's account right after the leg: the sum of the merchant's entries on that account
 * up to and including it (ids grow with commit order closely enough for support's reading).
 */
async function balancesAfter(
  db: PrismaClientOrTransaction,
  merchantId: number,
  legIds: bigint[],
): Promise<Map<bigint, bigint>> {
  if (legIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: bigint; balance: bigint }[]>`
    SELECT l.id, (SELECT sum(e.amount_paise) FROM ledger_entries e
                   WHERE e.merchant_id = ${merchantId} AND e.account = l.account AND e.id <= l.id)::bigint AS balance
      FROM ledger_entries l WHERE l.id = ANY(${legIds}::bigint[])`;
  return new Map(rows.map((r) => [r.id, r.balance]));
}

/** The stored routing decision (`payouts.routing`), when it has the shape routing writes. */
function routingDecisionOf(value: Prisma.JsonValue): RoutingDecision | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { bank, score, reason, at } = value as Record<string, unknown>;
  if (typeof bank !== 'string' || typeof reason !== 'string' || typeof at !== 'string') return null;
  return {
    bank,
    score: typeof score === 'number' ? score : null,
    reason: reason as RoutingDecision['reason'],
    at,
  };
}
