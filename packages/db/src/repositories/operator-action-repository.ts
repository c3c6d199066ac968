import type { PrismaClientOrTransaction } from '../client.js';

/** One entry of the audit log: who did what, to which merchant or payout, why, and the details. */
export interface OperatorActionInput {
  /** "console:<username>", "cli:<name>", or "merchant:<MID>" for a merchant's own token work. */
  actor: string;
  action: OperatorActionName;
  merchantId?: number | null;
  payoutId?: bigint | null;
  reason: string;
  detail: Record<string, unknown>;
}

/** Every kind of operator action the audit log records. */
export type OperatorActionName =
  | 'payout.resolve'
  | 'statement.decide-break'
  | 'payout.resolve-refused'
  | 'webhook.replay'
  | 'webhook.enable'
  | 'payout.bulk'
  | 'inquiry.requeue'
  | 'wallet.credit'
  | 'token.rotate'
  | 'token.revoke'
  | 'merchant.ip-allowlist'
  | 'discrepancy.resolve'
  | 'statement.apply'
  | 'approval.request'
  | 'approval.approve'
  | 'approval.reject'
  | 'approval.cancel'
  | 'approval.expire'
  | 'approval.fail'
  | 'merchant.create'
  /**
   * A merchant's dashboard people (docs/dashboard.md): its owner bound to their enrollment on approval, and a
   * person disabled by staff for an incident.
   */
  | 'merchant-owner.enroll'
  | 'merchant-user.disable'
  | 'merchant.suspend'
  | 'merchant.activate'
  | 'merchant.queue-settings'
  /** A merchant pinned to a bank or unpinned, or its downtime hold window changed (docs/banks.md). */
  | 'merchant.routing'
  /** An operator's hold on a sponsor bank (docs/operations.md, "Banks: pausing, draining, pinning"). */
  | 'bank.pause'
  | 'bank.drain'
  | 'bank.resume'
  | 'webhook.register'
  /** People (docs/operations.md, "Security model"): added, role changed, password reset on approval; disabled. */
  | 'user.add'
  | 'user.role'
  | 'user.password-reset'
  | 'user.disable'
  /** A person opened an enrollment for themselves, and finished it: their own password and second factor. */
  | 'user.enrollment-open'
  | 'user.enroll'
  /** A sign-in proved a password hashed at an older cost: it is stored again at today's. */
  | 'user.password-rehash'
  /** A wrong or replayed second-factor code. */
  | 'second-factor.refused'
  /**
   * The installation's first approver (`pnpm cli setup`), a person changed by an approver alone while the
   * installation is in setup, setup done, and an approver made with the database credential when none is left
   * (docs/operations.md, "A new installation" and "Break-glass").
   */
  | 'setup.first-approver'
  | 'setup.people-change'
  | 'setup.complete'
  | 'break-glass.approver'
  /** A person made or revoked one of their own API keys, signed in or out of the CLI. */
  | 'credential.create'
  | 'credential.revoke'
  | 'credential.sign-in'
  | 'credential.sign-out'
  /** A person reached for something their role does not allow, or posted to no action at all. */
  | 'access.refused';

export interface OperatorActionView {
  id: bigint;
  at: Date;
  actor: string;
  action: string;
  mid: string | null;
  payoutAckNo: string | null;
  payoutTransactionId: string | null;
  reason: string;
  detail: unknown;
}

export async function recordOperatorAction(db: PrismaClientOrTransaction, input: OperatorActionInput): Promise<void> {
  await db.operatorAction.create({
    data: {
      actor: input.actor,
      action: input.action,
      merchantId: input.merchantId ?? null,
      payoutId: input.payoutId ?? null,
      reason: input.reason,
      detail: JSON.parse(
        JSON.stringify(input.detail, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
      ) as object,
    },
  });
}

/** The audit log, newest first, optionally of one merchant or one payout. */
export async function listOperatorActions(
  db: PrismaClientOrTransaction,
  filter: { merchantId?: number; payoutId?: bigint; limit: number },
): Promise<OperatorActionView[]> {
  const rows = await db.operatorAction.findMany({
    where: {
      ...(filter.merchantId === undefined ? {} : { merchantId: filter.merchantId }),
      ...(filter.payoutId === undefined ? {} : { payoutId: filter.payoutId }),
    },
    orderBy: { id: 'desc' },
    take: filter.limit,
    include: { merchant: { select: { mid: true } }, payout: { select: { ackNo: true, transactionId: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    at: r.createdAt,
    actor: r.actor,
    action: r.action,
    mid: r.merchant?.mid ?? null,
    payoutAckNo: r.payout?.ackNo ?? null,
    payoutTransactionId: r.payout?.transactionId ?? null,
    reason: r.reason,
    detail: r.detail,
  }));
}
