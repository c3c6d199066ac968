import type { PrismaClientOrTransaction } from '../client.js';
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
  ledger: { at: Date; kind: string; account: string; amountPaise: bigint }[];
  /** Notifications of the payout's result to the merchant, each with every attempt. */
  webhooks: WebhookDeliveryView[];
}

/** A merchant's payout by MID and TransactionID with its events, ledger legs and webhooks, oldest first. */
export async function findPayoutStory(
  db: PrismaClientOrTransaction,
  mid: string,
  transactionId: string,
): Promise<PayoutStory | null> {
  const p = await db.payout.findFirst({
    where: { transactionId, merchant: { mid } },
    include: {
      merchant: { select: { mid: true } },
      events: { orderBy: { id: 'asc' } },
      ledgerEntries: { orderBy: { id: 'asc' } },
      webhookDeliveries: { orderBy: { id: 'asc' }, include: WEBHOOK_DELIVERY_INCLUDE },
    },
  });
  if (!p) return null;
  return {
    payout: {
      id: p.id,
      mid: p.merchant.mid,
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
    })),
    webhooks: p.webhookDeliveries.map(toWebhookDeliveryView),
  };
}
