import type { PayoutMode } from '@payout/domain';
import type { PrismaClientOrTransaction } from '../client.js';

/**
 * The age bands the pending payouts are counted in, by their upper bound since acceptance (the last band
 * has none). A band holds the payouts at least as old as the previous bound and younger than its own.
 */
export const PENDING_AGE_BANDS = [
  { age: 'under_1m', belowSeconds: 60 },
  { age: '1m_to_15m', belowSeconds: 15 * 60 },
  { age: '15m_to_2h', belowSeconds: 2 * 60 * 60 },
  { age: '2h_to_24h', belowSeconds: 24 * 60 * 60 },
  { age: 'over_24h' },
] as const;

export type PendingAge = (typeof PENDING_AGE_BANDS)[number]['age'];

/** What the operators' alerts read from PostgreSQL (docs/operations.md, "Alerts: what each means and what to do"). */
export interface OperationsReading {
  /** Pending payouts (PENDING to the merchant, whatever their state) by mode and age band; absent bands hold none. */
  pending: { mode: PayoutMode; age: PendingAge; payouts: number }[];
  /** In-flight payouts accepted longer ago than their mode's schedule ends; absent modes have none. */
  pastSchedule: { mode: PayoutMode; payouts: number }[];
  manualReview: number;
  openDiscrepancies: number;
  /** Breaks of the last statement run, applied or not; 0 before any run. */
  lastStatementBreaks: number;
  /** Breaks of every statement run still open: no decision, or waiting for the bank (as the breaks page lists them). */
  openStatementBreaks: number;
  disabledWebhookEndpoints: number;
  /** Approvers made with the database credential in the last 24 hours (docs/operations.md, "Break-glass"). */
  breakGlassActions: number;
  /** Pending webhook deliveries that have failed at least once, waiting for their next attempt. */
  retryingWebhookDeliveries: number;
  /** Webhook deliveries held while their merchant's endpoint is disabled. */
  heldWebhookDeliveries: number;
  /**
   * The server's connections: those open now, from every client to every database (through PgBouncer, the
   * server connections it holds), and its `max_connections` (docs/scaling.md, "PostgreSQL connections").
   */
  postgresConnections: { inUse: number; max: number };
}

export interface OperationsReadingOptions {
  /**
   * For each mode, how long after acceptance its inquiry schedule has run out: by then a payout is settled,
   * or handed to manual review (docs/bank-boundary.md). One still in flight later is not being moved.
   */
  scheduleEndsAfterMs: Record<PayoutMode, number>;
}

interface PendingRow {
  mode: PayoutMode;
  band: number;
  payouts: number;
  past_schedule: number;
  manual_review: number;
}

interface BacklogRow {
  open_discrepancies: number;
  last_statement_breaks: number | null;
  open_statement_breaks: number;
  disabled_webhook_endpoints: number;
  break_glass_actions: number;
  retrying_webhook_deliveries: number;
  held_webhook_deliveries: number;
  connections_in_use: number;
  max_connections: number;
}

/**
 * Reads the operations gauges in two statements, cheap enough for every scrape: one pass over the pending
 * payouts (the partial index on `state, created_at WHERE status = 'PENDING'`), then small counts, each
 * through a partial index or a small table: open discrepancies, the last statement run (by primary key),
 * the webhook endpoints (one per merchant), and the pending and held webhook deliveries; and the server's
 * connections, from its statistics in memory (pg_stat_database's backends, which any role may read whole,
 * where pg_stat_activity hides other roles' sessions' details).
 */
export async function readOperationsGauges(
  db: PrismaClientOrTransaction,
  options: OperationsReadingOptions,
): Promise<OperationsReading> {
  const modes = Object.keys(options.scheduleEndsAfterMs) as PayoutMode[];
  const endsAfterSeconds = modes.map((mode) => options.scheduleEndsAfterMs[mode] / 1000);
  const bounds = PENDING_AGE_BANDS.flatMap((band) => ('belowSeconds' in band ? [band.belowSeconds] : []));
  const pendingRows = await db.$queryRaw<PendingRow[]>`
    WITH schedule AS (
      SELECT * FROM unnest(${modes}::text[], ${endsAfterSeconds}::float8[]) AS s(mode, ends_after_seconds)
    )
    SELECT p.mode::text AS mode,
           width_bucket(extract(epoch FROM now() - p.created_at)::float8, ${bounds}::float8[]) AS band,
           count(*)::int AS payouts,
           count(*) FILTER (
             WHERE p.state NOT IN ('MANUAL_REVIEW', 'QUEUED')
               AND p.created_at < now() - make_interval(secs => s.ends_after_seconds)
           )::int AS past_schedule,
           count(*) FILTER (WHERE p.state = 'MANUAL_REVIEW')::int AS manual_review
      FROM payouts p
      LEFT JOIN schedule s ON s.mode = p.mode::text
     WHERE p.status = 'PENDING'
     GROUP BY 1, 2`;
  const [backlog] = await db.$queryRaw<BacklogRow[]>`
    SELECT (SELECT count(*)::int FROM discrepancies WHERE status = 'OPEN') AS open_discrepancies,
           (SELECT breaks FROM statement_runs WHERE effective_at IS NOT NULL ORDER BY id DESC LIMIT 1)
             AS last_statement_breaks,
           (SELECT count(*)::int
              FROM statement_runs r
             CROSS JOIN LATERAL jsonb_array_elements(r.break_list) WITH ORDINALITY AS b(item, n)
              LEFT JOIN statement_break_decisions d
                     ON d.run_id = r.id AND d.position = b.n
                    AND d.break_kind = b.item->>'kind' AND d.reference = left(b.item->>'reference', 255)
             WHERE r.breaks > 0 AND r.effective_at IS NOT NULL
               AND (d.decision IS NULL OR d.decision = 'needs_bank')) AS open_statement_breaks,
           (SELECT count(*)::int FROM webhook_endpoints WHERE disabled_at IS NOT NULL) AS disabled_webhook_endpoints,
           (SELECT count(*)::int FROM operator_actions
             WHERE created_at > now() - interval '24 hours'
               AND action = 'break-glass.approver') AS break_glass_actions,
           (SELECT count(*)::int FROM webhook_deliveries
             WHERE status = 'PENDING' AND attempts > 0) AS retrying_webhook_deliveries,
           (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'HELD') AS held_webhook_deliveries,
           (SELECT coalesce(sum(numbackends), 0)::int FROM pg_stat_database) AS connections_in_use,
           current_setting('max_connections')::int AS max_connections`;

  const pastSchedule = new Map<PayoutMode, number>();
  for (const row of pendingRows) pastSchedule.set(row.mode, (pastSchedule.get(row.mode) ?? 0) + row.past_schedule);
  return {
    pending: pendingRows.map((row) => ({
      mode: row.mode,
      age: PENDING_AGE_BANDS[row.band]!.age,
      payouts: row.payouts,
    })),
    pastSchedule: [...pastSchedule].map(([mode, payouts]) => ({ mode, payouts })),
    manualReview: pendingRows.reduce((sum, row) => sum + row.manual_review, 0),
    openDiscrepancies: backlog?.open_discrepancies ?? 0,
    lastStatementBreaks: backlog?.last_statement_breaks ?? 0,
    openStatementBreaks: backlog?.open_statement_breaks ?? 0,
    disabledWebhookEndpoints: backlog?.disabled_webhook_endpoints ?? 0,
    breakGlassActions: backlog?.break_glass_actions ?? 0,
    retryingWebhookDeliveries: backlog?.retrying_webhook_deliveries ?? 0,
    heldWebhookDeliveries: backlog?.held_webhook_deliveries ?? 0,
    postgresConnections: { inUse: backlog?.connections_in_use ?? 0, max: backlog?.max_connections ?? 0 },
  };
}

/**
 * For each mode, the payouts whose expected time since acceptance ended in the interval (`from`, `to`] and
 * that were still pending then and now: the bad events of the payout-timeliness objective, counted once per
 * interval (docs/operations.md, "Service level objectives"). A payout that settled after its deadline but
 * before it was counted is missed; the scrape interval (seconds) is small beside the expected times (an
 * hour and more). Read through the partial index on pending payouts.
 */
export async function countPayoutsPastExpectedTime(
  db: PrismaClientOrTransaction,
  options: { from: Date; to: Date; expectedAfterMs: Record<PayoutMode, number> },
): Promise<{ mode: PayoutMode; payouts: number }[]> {
  const modes = Object.keys(options.expectedAfterMs) as PayoutMode[];
  const expectedSeconds = modes.map((mode) => options.expectedAfterMs[mode] / 1000);
  return db.$queryRaw<{ mode: PayoutMode; payouts: number }[]>`
    WITH expected AS (
      SELECT * FROM unnest(${modes}::text[], ${expectedSeconds}::float8[]) AS e(mode, after_seconds)
    )
    SELECT e.mode, count(p.id)::int AS payouts
      FROM expected e
      LEFT JOIN payouts p
             ON p.mode::text = e.mode
            AND p.status = 'PENDING'
            AND p.created_at >  ${options.from}::timestamptz - make_interval(secs => e.after_seconds)
            AND p.created_at <= ${options.to}::timestamptz - make_interval(secs => e.after_seconds)
     GROUP BY e.mode`;
}
