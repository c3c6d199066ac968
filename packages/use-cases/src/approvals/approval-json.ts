import type { ApprovalRequestView } from '@payout/db';
import { approvalStateAt } from '@payout/domain';

/**
 * A request as the CLI's `--json` and the admin JSON API show it: ids and amounts as strings, times in
 * ISO 8601, and the state it has now (a request past its expiry is EXPIRED before anyone decides it).
 */
export function approvalJson(r: ApprovalRequestView): Record<string, unknown> {
  return {
    id: r.id.toString(),
    action: r.action,
    state: approvalStateAt(r, new Date()),
    maker: r.maker,
    reason: r.makerReason,
    mid: r.mid,
    ackNo: r.ackNo,
    preview: r.preview,
    requestedAt: r.requestedAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    decidedBy: r.decidedBy,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    note: r.decisionNote,
    outcome: r.outcome,
  };
}
