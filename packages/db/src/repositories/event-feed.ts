import { sql, sqlRows, type PrismaClientOrTransaction, type SqlStatement } from '../client.js';
import { webhookSubjectOf, type WebhookSubject, type WebhookSubjectRow } from './webhook-delivery-repository.js';

// A merchant's events feed (GET /api/events; docs/api.md, "Events feed"): every event a webhook carries, in the
// order they were recorded. An event is a delivery (webhook_deliveries) or, when there was nowhere to send it, an
// unsent event (unsent_webhook_events); both get their `position` in the merchant's feed from the same counter,
// locked until the recording commits (packages/db/sql/functions/assign_webhook_event_position.sql), so positions
// become visible in order: reading past position n never skips an event that commits later below it. A page is
// a range read of (merchant_id, position) in both tables. A replay has no position: it sends an event already in
// the feed again.

/** One event of the feed: its place, its number among its subject's events, and what it tells. */
export interface FeedEvent {
  /** Its place in the merchant's feed: 1, 2, 3, … in the order the events were recorded. */
  position: bigint;
  /** The webhook's `sequence`: per payout, or per merchant across its downtime events (docs/webhooks.md). */
  sequence: number;
  /** The payout as it is now, or the downtime it tells of: what the webhook body is built from. */
  subject: WebhookSubject;
}

export interface EventPageQuery {
  merchantId: number;
  /** The page starts just after this position (0: from the first event). */
  after: bigint;
  limit: number;
}

interface EventRow extends WebhookSubjectRow {
  position: bigint;
  sequence: number;
}

/**
 * The merchant's events after position `after`, at most `limit`, oldest first. Read from the primary: a merchant
 * may have been told of an event by webhook a moment ago, and the feed must hold it.
 */
export async function findEventPage(db: PrismaClientOrTransaction, query: EventPageQuery): Promise<FeedEvent[]> {
  const rows = await sqlRows<EventRow>(db, eventPageStatement(query));
  return rows.map((row) => ({ position: row.position, sequence: row.sequence, subject: webhookSubjectOf(row) }));
}

/**
 * The statement of {@link findEventPage}: the first `limit` positions after `after` in each of the two tables,
 * the first `limit` of those, then the payout or downtime each tells of. The payout's columns are those the
 * webhook deliverer reads when it sends (claimWebhookAttempt), so an item carries exactly the members its webhook
 * does. Exported for the test that shows its plan (event-feed.test.ts).
 */
export function eventPageStatement({ merchantId, after, limit }: EventPageQuery): SqlStatement {
  return sql`
    SELECT e.position, e.sequence, e.cause::text AS cause,
           p.id AS payout_id, p.mode::text AS mode, p.status::text AS status, p.transaction_id, p.amount_paise,
           p.ack_no, p.beneficiary_account AS account, p.beneficiary_ifsc AS ifsc, p.bank_reference,
           p.failure_reason::text AS failure_reason,
           b.id AS downtime_id, b.bank AS downtime_bank, b.mode::text AS downtime_mode, b.status AS downtime_status,
           b.since AS downtime_since
      FROM (SELECT *
              FROM ((SELECT d.position, d.sequence, d.cause, d.payout_id, d.downtime_id
                       FROM webhook_deliveries d
                      WHERE d.merchant_id = ${merchantId}::int AND d.position > ${after}::bigint
                      ORDER BY d.position
                      LIMIT ${limit}::int)
                    UNION ALL
                    (SELECT u.position, u.sequence, u.cause, u.payout_id, u.downtime_id
                       FROM unsent_webhook_events u
                      WHERE u.merchant_id = ${merchantId}::int AND u.position > ${after}::bigint
                      ORDER BY u.position
                      LIMIT ${limit}::int)) both_tables
             ORDER BY position
             LIMIT ${limit}::int) e
      LEFT JOIN payouts p ON p.id = e.payout_id
      LEFT JOIN bank_downtimes b ON b.id = e.downtime_id
     ORDER BY e.position`;
}
