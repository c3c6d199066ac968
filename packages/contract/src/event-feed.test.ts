import { describe, expect, it } from 'vitest';
import { AppError, stringifyJson, type FieldError, type PayoutResultSource } from '@payout/domain';
import {
  EVENT_FEED_DEFAULT_LIMIT,
  eventFeedBody,
  eventFeedSchema,
  parseEventFeedQuery,
  type FeedEventSource,
} from './event-feed.js';
import { downtimeWebhookPayload, webhookPayload } from './webhook-payload.js';

// GET /api/events's query and body (docs/api.md, "Events feed"), without a server.

/** The fields a query is refused for, or [] when it is accepted. */
function refusedFields(query: Record<string, unknown>): string[] {
  try {
    parseEventFeedQuery(query);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).httpStatus).toBe(422);
    return ((error as AppError).details.errors as FieldError[]).map((e) => e.field);
  }
}

describe('parseEventFeedQuery', () => {
  it.each<[Record<string, unknown>, string, number]>([
    [{}, '0', EVENT_FEED_DEFAULT_LIMIT],
    [{ after: '', limit: '' }, '0', EVENT_FEED_DEFAULT_LIMIT],
    [{ after: '4711', limit: '1' }, '4711', 1],
    [{ after: '0', limit: '500' }, '0', 500],
    [{ after: '9223372036854775807' }, '9223372036854775807', EVENT_FEED_DEFAULT_LIMIT],
  ])('when given %j, then it reads after %s and limit %i', (query, after, limit) => {
    expect(parseEventFeedQuery(query)).toEqual({ after: BigInt(after), limit });
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a parameter the feed does not have', { cursor: 'abc' }, ['cursor']],
    ['a misspelt parameter, with a good one', { afer: '5', limit: '10' }, ['afer']],
    ['after twice', { after: ['1', '2'] }, ['after']],
    ['limit twice', { limit: ['1', '1'] }, ['limit']],
    ['after not digits', { after: 'abc' }, ['after']],
    ['after negative', { after: '-1' }, ['after']],
    ['after with a fraction', { after: '1.5' }, ['after']],
    ['after past the largest position', { after: '9223372036854775808' }, ['after']],
    ['after of twenty digits', { after: '10000000000000000000' }, ['after']],
    ['limit 0', { limit: '0' }, ['limit']],
    ['limit 501', { limit: '501' }, ['limit']],
    ['limit not a number', { limit: 'ten' }, ['limit']],
    ['limit with a leading zero', { limit: '010' }, ['limit']],
    ['everything wrong at once', { after: 'x', limit: '9999', page: '2' }, ['page', 'after', 'limit']],
  ])('when given %s, then 422 names it', (_name, query, fields) => {
    expect(refusedFields(query)).toEqual(fields);
  });

  it('when a parameter is given twice, then the message says so', () => {
    try {
      parseEventFeedQuery({ after: ['1', '2'] });
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).details.errors).toEqual([{ field: 'after', message: 'after must be given once' }]);
    }
  });
});

const settled: PayoutResultSource = {
  mode: 'UPI',
  status: 'SUCCESS',
  transactionId: '12345678901234567890123',
  amountPaise: 10100n,
  ackNo: '01KAKX3T5QH4Z8M2N6PR',
  account: 'asha.kumar@okhdfc',
  ifsc: null,
  bankReference: '417712345678',
  failureReason: null,
};
const reversed: PayoutResultSource = {
  ...settled,
  mode: 'IMPS',
  status: 'FAILED',
  account: '123456789012',
  ifsc: 'HDFC0001234',
  failureReason: 'REVERSED_BY_BENEFICIARY_BANK',
};
const downtime = {
  bank: 'primary',
  mode: 'UPI' as const,
  status: 'DOWN' as const,
  since: new Date('2026-11-28T09:15:00Z'),
};

const events: FeedEventSource[] = [
  { position: 7n, sequence: 1, subject: { kind: 'payout', payout: settled } },
  { position: 8n, sequence: 3, subject: { kind: 'downtime', resolved: false, downtime } },
  { position: 9n, sequence: 2, subject: { kind: 'payout', payout: reversed } },
  { position: 10n, sequence: 4, subject: { kind: 'downtime', resolved: true, downtime } },
];

describe('eventFeedBody', () => {
  it('when events are listed, then each is its position then exactly the body its webhook carries, built by the same builder', () => {
    const body = eventFeedBody(events, 6n);

    const asWebhook = (e: FeedEventSource) =>
      e.subject.kind === 'payout'
        ? webhookPayload(e.subject.payout, e.sequence)
        : downtimeWebhookPayload(e.subject.downtime, e.subject.resolved, e.sequence);
    body.events.forEach((item, i) => {
      const { position, ...rest } = item;
      expect(position).toBe(events[i]!.position.toString());
      expect(stringifyJson(rest)).toBe(stringifyJson(asWebhook(events[i]!)));
    });
    // The webhook's own text, after the position: the UPI amount and 23-digit TransactionID as exact literals.
    expect(stringifyJson(body.events[0])).toBe(
      '{"position":"7","error":false,"status_code":200,"status":"SUCCESS","account":"asha.kumar@okhdfc","Amount":101.00,' +
        '"Bankriff":"417712345678","Ack_no":"01KAKX3T5QH4Z8M2N6PR","TransactionID":12345678901234567890123,' +
        '"message":"MP00 - Transaction successful","event":"payout.success","sequence":1}',
    );
    expect(body.events.map((e) => e.event)).toEqual([
      'payout.success',
      'downtime.started',
      'payout.reversed',
      'downtime.resolved',
    ]);
    expect(body.next_after).toBe('10');
  });

  it('when the page is empty, then next_after is the after given, so the next poll asks the same', () => {
    expect(eventFeedBody([], 42n)).toEqual({
      error: false,
      status_code: 200,
      status: 'Success',
      events: [],
      next_after: '42',
    });
  });

  it('when a body is built, then it fits the schema the OpenAPI document publishes', () => {
    for (const body of [eventFeedBody(events, 0n), eventFeedBody([], 0n)]) {
      const result = eventFeedSchema.safeParse(JSON.parse(stringifyJson(body)));
      expect(result.success ? [] : result.error.issues).toEqual([]);
    }
  });
});
