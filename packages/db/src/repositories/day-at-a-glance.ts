import { PAYOUT_STATES, type PayoutMode, type PayoutState } from '@payout/domain';
import type { PrismaClientOrTransaction } from '../client.js';

// The support console's day page (docs/operations.md, "The day at a glance"): what came in and what went
// out over a window of hours, how fast, what is still waiting and how long, and which webhooks did not get
// through. Each count is one statement through an index, so the page is cheap however busy the day was.

export const DAY_MODES: readonly PayoutMode[] = ['IMPS', 'UPI'];

/** The age buckets pending payouts are counted in, by their upper bound since acceptance (the last has none). */
export const PENDING_AGE_BUCKETS = [
  { label: 'under 1 min', belowSeconds: 60 },
  { label: '1–5 min', belowSeconds: 5 * 60 },
  { label: '5–30 min', belowSeconds: 30 * 60 },
  { label: '30 min–2 h', belowSeconds: 2 * 60 * 60 },
  { label: 'over 2 h' },
] as const;

export type PendingAgeLabel = (typeof PENDING_AGE_BUCKETS)[number]['label'];

/** The states a payout waits in while its merchant sees PENDING. */
export const PENDING_STATES: readonly PayoutState[] = PAYOUT_STATES.filter(
  (s) => s !== 'SUCCESS' && s !== 'FAILED' && s !== 'REVERSED',
);

/** The hours [from, to) the page looks at, counted in buckets of `bucketMinutes`. */
export interface DayWindow {
  from: Date;
  to: Date;
  bucketMinutes: number;
}

/**
 * How wide a bucket is for a window of `hours`: about a hundred points or fewer on a chart. Every width
 * divides the IST offset (5 h 30 min), so buckets start on IST minutes as well as UTC ones.
 */
export function bucketMinutesFor(hours: number): number {
  return hours <= 2 ? 1 : hours <= 8 ? 5 : hours <= 24 ? 10 : 30;
}

/** The last `hours` up to `at`, in the buckets {@link bucketMinutesFor} gives. */
export function lastHours(hours: number, at: Date): DayWindow {
  return { from: new Date(at.getTime() - hours * 3_600_000), to: at, bucketMinutes: bucketMinutesFor(hours) };
}

/** One bucket of one mode: payouts accepted in it, and payouts settled (SUCCESS or FAILED) in it. */
export interface FlowPoint {
  at: Date;
  accepted: number;
  settled: number;
}

/** Settled payouts of one mode (or of all, `mode` null) in the window, and how long they took. */
export interface SettledSummary {
  mode: PayoutMode | null;
  settled: number;
  success: number;
  /** SUCCESS / settled; null when nothing settled. */
  successRate: number | null;
  /** Median and 99th percentile of acceptance to settlement (settled_at − created_at), in milliseconds. */
  p50Ms: number | null;
  p99Ms: number | null;
}

export interface PendingCount {
  state: PayoutState;
  age: PendingAgeLabel;
  payouts: number;
}

export interface DayAtAGlance {
  window: DayWindow;
  /** Every bucket of the window for each mode, empty ones as zeros, oldest first. */
  flow: { mode: PayoutMode; points: FlowPoint[] }[];
  /** One line per mode, then the total (mode null). */
  settled: SettledSummary[];
  /** Payouts pending now, by state and age; absent pairs hold none. */
  pending: PendingCount[];
  /** Webhook deliveries of the payouts settled in the window that have not got through. */
  webhooks: { failing: number; held: number; givenUp: number };
}

interface BucketRow {
  mode: PayoutMode;
  bucket: number;
  payouts: number;
}

interface SettledRow {
  mode: PayoutMode | null;
  settled: number;
  success: number;
  p50_ms: number | null;
  p99_ms: number | null;
}

interface PendingRow {
  state: PayoutState;
  band: number;
  payouts: number;
}

interface WebhookRow {
  failing: number;
  held: number;
  given_up: number;
}

/**
 * Reads the day page's numbers in five statements:
 * - accepted payouts per bucket: per merchant through `payouts (merchant_id, created_at)` (a lateral join
 *   over the merchants, so no statement scans the whole table for one day);
 * - settled payouts per bucket, and their outcome and latency: through the partial index on `settled_at`;
 * - pending payouts by state and age: through the partial index on `state, created_at WHERE status = 'PENDING'`;
 * - webhook deliveries of the window's settled payouts: `settled_at`, then `webhook_deliveries (payout_id)`.
 */
export async function readDayAtAGlance(db: PrismaClientOrTransaction, window: DayWindow): Promise<DayAtAGlance> {
  const { from, to } = window;
  const bucketSeconds = window.bucketMinutes * 60;
  const bounds = PENDING_AGE_BUCKETS.flatMap((b) => ('belowSeconds' in b ? [b.belowSeconds] : []));
  const [accepted, settledBuckets, settled, pending, webhooks] = await Promise.all([
    db.$queryRaw<BucketRow[]>`
      SELECT p.mode::text AS mode, floor(extract(epoch FROM p.created_at) / ${bucketSeconds}::int)::int AS bucket,
             count(*)::int AS payouts
      FROM merchants m
      CROSS JOIN LATERAL (
        SELECT mode, created_at FROM payouts
        WHERE merchant_id = m.id AND created_at >= ${from} AND created_at < ${to}
      ) p
      GROUP BY 1, 2`,
    db.$queryRaw<BucketRow[]>`
      SELECT mode::text AS mode, floor(extract(epoch FROM settled_at) / ${bucketSeconds}::int)::int AS bucket,
             count(*)::int AS payouts
      FROM payouts
      WHERE settled_at >= ${from} AND settled_at < ${to} AND status <> 'PENDING'
      GROUP BY 1, 2`,
    db.$queryRaw<SettledRow[]>`
      SELECT mode::text AS mode, count(*)::int AS settled,
             count(*) FILTER (WHERE status = 'SUCCESS')::int AS success,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM settled_at - created_at))::float8 * 1000
               AS p50_ms,
             percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM settled_at - created_at))::float8 * 1000
               AS p99_ms
      FROM payouts
      WHERE settled_at >= ${from} AND settled_at < ${to} AND status <> 'PENDING'
      GROUP BY GROUPING SETS ((mode), ())`,
    db.$queryRaw<PendingRow[]>`
      SELECT state::text AS state,
             width_bucket(extract(epoch FROM ${to}::timestamptz - created_at)::float8, ${bounds}::float8[]) AS band,
             count(*)::int AS payouts
      FROM payouts
      WHERE status = 'PENDING'
      GROUP BY 1, 2`,
    db.$queryRaw<WebhookRow[]>`
      SELECT count(*) FILTER (WHERE d.status = 'PENDING' AND d.attempts > 0)::int AS failing,
             count(*) FILTER (WHERE d.status = 'HELD')::int AS held,
             count(*) FILTER (WHERE d.status = 'FAILED')::int AS given_up
      FROM payouts p
      JOIN webhook_deliveries d ON d.payout_id = p.id
      WHERE p.settled_at >= ${from} AND p.settled_at < ${to}`,
  ]);
  return {
    window,
    flow: flowOf(window, accepted, settledBuckets),
    settled: settledSummaries(settled),
    pending: pending.map((r) => ({ state: r.state, age: PENDING_AGE_BUCKETS[r.band]!.label, payouts: r.payouts })),
    webhooks: {
      failing: webhooks[0]?.failing ?? 0,
      held: webhooks[0]?.held ?? 0,
      givenUp: webhooks[0]?.given_up ?? 0,
    },
  };
}

/** Every bucket of the window for each mode, with the counts the statements found (zero elsewhere). */
function flowOf(
  window: DayWindow,
  accepted: readonly BucketRow[],
  settled: readonly BucketRow[],
): DayAtAGlance['flow'] {
  const bucketMs = window.bucketMinutes * 60_000;
  const first = Math.floor(window.from.getTime() / bucketMs);
  const last = Math.floor((window.to.getTime() - 1) / bucketMs);
  const byKey = (rows: readonly BucketRow[]) => new Map(rows.map((r) => [`${r.mode} ${r.bucket}`, r.payouts]));
  const [acceptedBy, settledBy] = [byKey(accepted), byKey(settled)];
  return DAY_MODES.map((mode) => {
    const points: FlowPoint[] = [];
    for (let bucket = first; bucket <= last; bucket++) {
      points.push({
        at: new Date(bucket * bucketMs),
        accepted: acceptedBy.get(`${mode} ${bucket}`) ?? 0,
        settled: settledBy.get(`${mode} ${bucket}`) ?? 0,
      });
    }
    return { mode, points };
  });
}

function settledSummaries(rows: readonly SettledRow[]): SettledSummary[] {
  const summary = (mode: PayoutMode | null): SettledSummary => {
    const row = rows.find((r) => r.mode === mode);
    const settled = row?.settled ?? 0;
    const success = row?.success ?? 0;
    return {
      mode,
      settled,
      success,
      successRate: settled ? success / settled : null,
      p50Ms: row?.p50_ms ?? null,
      p99Ms: row?.p99_ms ?? null,
    };
  };
  return [...DAY_MODES.map(summary), summary(null)];
}
