import type { OperatorActionView, PayoutStory } from '@payout/db';
import { formatRupees } from '@payout/domain';
import type { PayoutJobView } from '@payout/queue';

/** One line of a payout's timeline. */
export interface TimelineEntry {
  at: Date;
  kind: 'state' | 'rail' | 'ledger' | 'webhook' | 'job' | 'operator';
  /** A short headline: "AWAITING_RAIL → SUCCESS", "PAYOUT_SETTLE RESERVED −10.22". */
  title: string;
  /** Who or what, and the detail: the reason, the rail's answer, the running balance. */
  detail: string;
  /** What the rail said, verbatim, when it said something. */
  raw?: string;
}

/**
 * Everything that happened to a payout, in time order: state changes (with what the rail answered),
 * ledger legs with each account's balance after them, webhook attempts, queue jobs, and operator actions.
 * Entries at the same instant keep this order, so a state change comes before the legs it wrote.
 */
export function payoutTimeline(
  story: PayoutStory,
  jobs: PayoutJobView[],
  actions: OperatorActionView[],
): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  for (const e of story.events) {
    entries.push({
      at: e.at,
      kind: e.railAnswer === null ? 'state' : 'rail',
      title: e.from ? `${e.from} → ${e.to}` : e.to,
      detail: `${e.reason} (${e.actor}${e.attempt === null ? '' : `, attempt ${e.attempt}`})`,
      ...(e.railAnswer !== null && { raw: JSON.stringify(e.railAnswer) }),
    });
  }
  for (const l of story.ledger) {
    entries.push({
      at: l.at,
      kind: 'ledger',
      title: `${l.kind} ${l.account} ${l.amountPaise < 0n ? '−' : '+'}${formatRupees(l.amountPaise < 0n ? -l.amountPaise : l.amountPaise)}`,
      detail: `${l.account} balance after: ${formatRupees(l.balanceAfterPaise)}`,
    });
  }
  for (const d of story.webhooks) {
    entries.push({
      at: d.createdAt,
      kind: 'webhook',
      title: `webhook delivery ${d.id} queued (${d.cause.toLowerCase()}, sequence ${d.sequence})`,
      detail: `requested by ${d.requestedBy}; now ${d.status}${
        d.status === 'HELD' ? ": kept while the merchant's endpoint is disabled (pnpm cli webhook enable)" : ''
      }`,
    });
    for (const a of d.attempts) {
      entries.push({
        at: a.startedAt,
        kind: 'webhook',
        title: `webhook attempt ${a.attempt}: ${a.statusCode === null ? (a.error ?? 'no answer recorded') : `HTTP ${a.statusCode}`}`,
        detail: `${a.url}${a.durationMs === null ? '' : ` in ${a.durationMs} ms`}`,
      });
    }
  }
  for (const j of jobs) {
    const at = j.finishedAt ?? j.processedAt ?? j.dueAt;
    if (!at) continue;
    entries.push({
      at,
      kind: 'job',
      title: `job ${j.id}: ${j.state}`,
      detail: `${j.attemptsMade} attempt(s)${j.failedReason ? `; last error: ${j.failedReason}` : ''}${
        j.returnValue === null ? '' : `; result: ${JSON.stringify(j.returnValue)}`
      }`,
    });
  }
  for (const a of actions) {
    entries.push({ at: a.at, kind: 'operator', title: `${a.action} by ${a.actor}`, detail: a.reason });
  }
  // A stable sort keeps the order above for entries at the same instant.
  return entries.sort((x, y) => x.at.getTime() - y.at.getTime());
}
