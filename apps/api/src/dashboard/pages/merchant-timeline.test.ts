import { describe, expect, it } from 'vitest';
import type { PayoutStory } from '@payout/db';
import { merchantTimeline, type MerchantTimelineSource } from './merchant-timeline.js';

const t = (ms: number) => new Date(Date.UTC(2026, 11, 7, 10, 0, 0) + ms);

type Event = PayoutStory['events'][number];
const event = (ms: number, from: string | null, to: string, extra: Partial<Event> = {}): Event => ({
  at: t(ms),
  from,
  to,
  reason: `internal note ${to}`,
  attempt: null,
  actor: 'operator:omar',
  railAnswer: null,
  ...extra,
});

/** A payout sent twice (the first bank's answer lost), paid, then returned; its webhooks retried. */
const source: MerchantTimelineSource = {
  payout: {
    scheduledAt: t(500),
    failureReason: 'REVERSED_BY_BENEFICIARY_BANK',
    bankReference: '412345678901',
    bank: 'secondary',
  },
  events: [
    event(0, null, 'ACCEPTED'),
    event(1000, 'ACCEPTED', 'SUBMITTING', { attempt: 1 }),
    event(2000, 'SUBMITTING', 'OUTCOME_UNKNOWN', { railAnswer: { error: 'socket hang up at 10.0.3.7' } }),
    event(3000, 'OUTCOME_UNKNOWN', 'MANUAL_REVIEW'),
    event(4000, 'MANUAL_REVIEW', 'SUBMITTING', { attempt: 2 }),
    event(5000, 'SUBMITTING', 'AWAITING_RAIL', { railAnswer: { routing: 'primary→secondary' } }),
    event(6000, 'AWAITING_RAIL', 'SUCCESS', { railAnswer: { utr: '412345678901' } }),
    event(9000, 'SUCCESS', 'REVERSED'),
  ],
  webhooks: [
    {
      id: 3n,
      cause: 'SETTLEMENT',
      sequence: 1,
      status: 'DELIVERED',
      requestedBy: 'operator:omar',
      createdAt: t(6000),
      nextAttemptAt: null,
      finishedAt: t(7500),
      attempts: [
        {
          attempt: 1,
          url: 'https://hooks.example/x',
          startedAt: t(6100),
          durationMs: 30,
          statusCode: 500,
          error: 'ECONNRESET 10.0.0.9',
        },
        {
          attempt: 2,
          url: 'https://hooks.example/x',
          startedAt: t(7400),
          durationMs: 25,
          statusCode: null,
          error: 'timeout',
        },
      ],
    },
  ],
};

describe('merchantTimeline', () => {
  it('shows accepted, the scheduled time, sent once, paid, returned, and every webhook attempt, in time order', () => {
    expect(merchantTimeline(source)).toEqual([
      { at: t(0), kind: 'payout', title: 'Accepted', detail: 'amount reserved from the main wallet' },
      { at: t(500), kind: 'payout', title: 'Scheduled send time', detail: 'the time asked for in ScheduledAt' },
      { at: t(1000), kind: 'payout', title: 'Sent to the bank', detail: 'bank secondary' },
      { at: t(6000), kind: 'payout', title: 'Paid', detail: 'bank reference 412345678901' },
      { at: t(6000), kind: 'webhook', title: 'Webhook 1 queued', detail: 'now delivered' },
      { at: t(6100), kind: 'webhook', title: 'Webhook 1, attempt 1', detail: 'your endpoint answered HTTP 500' },
      { at: t(7400), kind: 'webhook', title: 'Webhook 1, attempt 2', detail: 'no answer from your endpoint' },
      {
        at: t(9000),
        kind: 'payout',
        title: 'Returned by the beneficiary bank',
        detail: 'bank reference 412345678901; the amount is back in the main wallet',
      },
    ]);
  });

  it('never carries an internal note, actor, rail answer, inside state, webhook error or endpoint address', () => {
    const text = JSON.stringify(merchantTimeline(source));
    for (const secret of [
      'internal note',
      'operator',
      'omar',
      '10.0.',
      'socket',
      'routing',
      'primary',
      'OUTCOME_UNKNOWN',
      'MANUAL_REVIEW',
      'AWAITING_RAIL',
      'ECONNRESET',
      'timeout',
      'hooks.example',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('tells a payout that waited for balance, then failed, with the reason the lookup gives', () => {
    const waited = merchantTimeline({
      payout: { scheduledAt: null, failureReason: 'CANCELLED_BY_MERCHANT', bankReference: null, bank: null },
      events: [event(0, null, 'QUEUED'), event(100, 'QUEUED', 'ACCEPTED'), event(200, 'ACCEPTED', 'FAILED')],
      webhooks: [],
    });
    expect(waited.map((e) => [e.title, e.detail])).toEqual([
      ['Accepted', 'waiting for balance in the main wallet'],
      ['Amount reserved', 'the main wallet was funded'],
      ['Failed', 'cancelled by you'],
    ]);
  });
});
