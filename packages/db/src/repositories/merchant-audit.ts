import type { PrismaClientOrTransaction } from '../client.js';
import type { Prisma } from '../generated/prisma/client.js';

/**
 * What was changed of a merchant's access (team, tokens, webhook endpoint, allow-list) and by whom: the one
 * writer of `merchant_audit_events`, called in the transaction of the change it records.
 */
export interface MerchantAuditEntry {
  merchantId: number;
  /** "merchant-user:<id> <email>" for a merchant's person, "console:<username>" for staff. */
  actor: string;
  /** e.g. "team.add", "team.role", "team.disable", "token.rotate", "token.revoke", "webhook.url", "allowlist.set". */
  action: string;
  detail?: Prisma.InputJsonObject;
}

export async function recordMerchantAudit(db: PrismaClientOrTransaction, entry: MerchantAuditEntry): Promise<void> {
  await db.merchantAuditEvent.create({
    data: {
      merchantId: entry.merchantId,
      actor: entry.actor,
      action: entry.action,
      detail: entry.detail ?? {},
    },
  });
}

export interface MerchantAuditRow {
  id: bigint;
  actor: string;
  action: string;
  detail: unknown;
  createdAt: Date;
}

/** A merchant's audit, newest first, a page at a time (`before`: the last id of the previous page). */
export async function listMerchantAudit(
  db: PrismaClientOrTransaction,
  merchantId: number,
  page: { limit: number; before?: bigint },
): Promise<MerchantAuditRow[]> {
  return db.merchantAuditEvent.findMany({
    where: { merchantId, ...(page.before !== undefined && { id: { lt: page.before } }) },
    orderBy: { id: 'desc' },
    take: page.limit,
    select: { id: true, actor: true, action: true, detail: true, createdAt: true },
  });
}

/** The actor string of a merchant user. */
export function merchantUserActor(user: { id: number; email: string }): string {
  return `merchant-user:${user.id} ${user.email}`;
}
