import { recordOperatorAction, type OperatorActionName, type PrismaClientOrTransaction } from '@payout/db';

/** Who asked for an operator action, and why: every action carries both to the audit log. */
export interface Requested {
  actor: string;
  reason: string;
}

/**
 * Writes an action's entry in the audit log — inside the transaction of what the action changed, when it
 * changed anything, so the change and its entry stand or fall together.
 */
export function audit(
  db: PrismaClientOrTransaction,
  requested: Requested,
  action: OperatorActionName,
  entry: { merchantId?: number | null; payoutId?: bigint | null; detail: Record<string, unknown> },
): Promise<void> {
  return recordOperatorAction(db, { actor: requested.actor, reason: requested.reason, action, ...entry });
}
