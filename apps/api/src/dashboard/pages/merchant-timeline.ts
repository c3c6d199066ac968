import type { PayoutStory } from '@payout/db';
import { FAILURE_REASON_TEXT, type FailureReason, type PayoutState } from '@payout/domain';

/** One line of a payout's timeline as its merchant sees it on the dashboard. */
export interface MerchantTimelineEntry {
  at: Date;
  kind: 'payout' | 'webhook';
  title: string;
  /** Empty when the title says it all. */
  detail: string;
}

/** What the merchant's timeline is built from: the staff's story of the payout, and its lookup's facts. */
export interface MerchantTimelineSource {
  events: PayoutStory['events'];
  webhooks: PayoutStory['webhooks'];
  payout: {
    scheduledAt: Date | null;
    failureReason: FailureReason | null;
    bankReference: string | null;
    bank: string | null;
  };
}

type Milestone = (
  event: PayoutStory['events'][number],
  payout: MerchantTimelineSource['payout'],
) => { title: string; detail: string } | null;

/**
 * What a merchant is shown when the payout enters each state; null shows nothing. Keyed by every state, so a
 * state added to the machine does not compile until someone decides what a merchant may see of it. Only what
 * the lookup already tells a merchant is said (docs/api.md, "Response bodies": status, reason, bank alias,
 * Bankriff): never an event's reason text, its actor, the rail's answer, the routing decision or the inside
 * states a merchant's lookup keeps as Pending (waiting on the bank, outcome unknown, manual review).
 */
const MILESTONES: Record<PayoutState, Milestone> = {
  QUEUED: (e) => (e.from === null ? { title: 'Accepted', detail: 'waiting for balance in the main wallet' } : null),
  ACCEPTED: (e) =>
    e.from === null
      ? { title: 'Accepted', detail: 'amount reserved from the main wallet' }
      : e.from === 'QUEUED'
        ? { title: 'Amount reserved', detail: 'the main wallet was funded' }
        : null,
  SUBMITTING: (_e, p) => ({ title: 'Sent to the bank', detail: p.bank ? `bank ${p.bank}` : '' }),
  AWAITING_RAIL: () => null,
  OUTCOME_UNKNOWN: () => null,
  MANUAL_REVIEW: () => null,
  SUCCESS: (_e, p) => ({ title: 'Paid', detail: p.bankReference ? `bank reference ${p.bankReference}` : '' }),
  FAILED: (_e, p) => ({ title: 'Failed', detail: p.failureReason ? FAILURE_REASON_TEXT[p.failureReason] : '' }),
  REVERSED: (_e, p) => ({
    title: 'Returned by the beneficiary bank',
    detail: p.bankReference ? `bank reference ${p.bankReference}; the amount is back in the main wallet` : '',
  }),
};

/**
 * A payout's timeline for its merchant (docs/dashboard.md), from the same story the staff's timeline is built
 * from (admin/console/payout-timeline.ts), filtered explicitly: accepted, scheduled, sent to the bank (once,
 * however many times it was retried), paid or failed or reversed, and each webhook delivery with each
 * attempt's time and HTTP status. Ledger legs, jobs, operator actions and webhook errors are left out:
 * they are about our systems, not the merchant's payout. Entries at the same instant keep this order.
 */
export function merchantTimeline(source: MerchantTimelineSource): MerchantTimelineEntry[] {
  const entries: MerchantTimelineEntry[] = [];
  const shown = new Set<string>();
  for (const event of source.events) {
    const milestone = MILESTONES[event.to as PayoutState](event, source.payout);
    if (!milestone || shown.has(milestone.title)) continue;
    shown.add(milestone.title);
    entries.push({ at: event.at, kind: 'payout', ...milestone });
  }
  if (source.payout.scheduledAt) {
    entries.push({
      at: source.payout.scheduledAt,
      kind: 'payout',
      title: 'Scheduled send time',
      detail: 'the time asked for in ScheduledAt',
    });
  }
  for (const delivery of source.webhooks) {
    entries.push({
      at: delivery.createdAt,
      kind: 'webhook',
      title: `Webhook ${delivery.sequence} queued`,
      detail: `now ${delivery.status.toLowerCase()}`,
    });
    for (const attempt of delivery.attempts) {
      entries.push({
        at: attempt.startedAt,
        kind: 'webhook',
        title: `Webhook ${delivery.sequence}, attempt ${attempt.attempt}`,
        detail:
          attempt.statusCode === null
            ? 'no answer from your endpoint'
            : `your endpoint answered HTTP ${attempt.statusCode}`,
      });
    }
  }
  return entries.sort((x, y) => x.at.getTime() - y.at.getTime());
}
