import type {
  BankDowntime,
  DowntimeStatus,
  FailureReason,
  PayoutMode,
  PayoutResultSource,
  PayoutStatus,
} from '@payout/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { PrismaClientOrTransaction } from '../client.js';

/** Why a delivery was recorded: a payout's result (settled, replayed, reversed) or a downtime's start or end. */
export type WebhookDeliveryCause = 'SETTLEMENT' | 'REPLAY' | 'REVERSAL' | 'DOWNTIME_STARTED' | 'DOWNTIME_RESOLVED';

/** What a delivery tells: a payout's result as it is now, or a bank downtime's start or resolution. */
export type WebhookSubject =
  | { kind: 'payout'; payoutId: bigint; payout: PayoutResultSource }
  | { kind: 'downtime'; downtimeId: bigint; resolved: boolean; downtime: BankDowntime };

/** One attempt at a delivery, claimed: where to send it, how to sign it and what to say. */
export interface ClaimedWebhookAttempt {
  deliveryId: bigint;
  attempt: number;
  /** When the delivery was recorded, or its endpoint enabled again: its retry window runs from here. */
  windowStartsAt: Date;
  /** Rises with each event of the payout, or each downtime event of the merchant; given when recorded. */
  sequence: number;
  /** Null when the merchant's endpoint has gone: there is nowhere to deliver to. */
  url: string | null;
  /** The current secret first, then the one it replaced while that is still honoured. */
  secrets: string[];
  subject: WebhookSubject;
}

/**
 * The columns a webhook's subject is read from: the payout as it is now, or the downtime it tells of. Shared by
 * the delivery's claim and the events feed (event-feed.ts), which build the same bodies.
 */
export interface WebhookSubjectRow {
  cause: WebhookDeliveryCause;
  payout_id: bigint | null;
  mode: PayoutMode;
  status: PayoutStatus;
  transaction_id: string;
  amount_paise: bigint;
  ack_no: string;
  account: string;
  ifsc: string | null;
  bank_reference: string | null;
  failure_reason: FailureReason | null;
  downtime_id: bigint | null;
  downtime_bank: string;
  downtime_mode: PayoutMode;
  downtime_status: DowntimeStatus;
  downtime_since: Date;
}

interface ClaimRow extends WebhookSubjectRow {
  delivery_id: bigint;
  window_starts_at: Date;
  sequence: number;
  url: string | null;
  signing_secret: string | null;
  previous_secret: string | null;
}

/**
 * Claims attempt number `attempt` of a pending delivery — only while it has had exactly `attempt` − 1, so
 * a job delivered twice, or re-queued by the sweeper while the first still runs, sends nothing the second
 * time — records the attempt as started, and pushes the delivery's due time to `leaseUntil`, after which
 * the sweeper takes an attempt that never reported back as lost. While the merchant's endpoint is
 * disabled nothing is claimed: the delivery is held instead, kept for when it is enabled again
 * (docs/webhooks.md). One statement. Null when not claimed.
 */
export async function claimWebhookAttempt(
  db: PrismaClientOrTransaction,
  deliveryId: bigint,
  attempt: number,
  leaseUntil: Date,
): Promise<ClaimedWebhookAttempt | null> {
  const [row] = await db.$queryRaw<ClaimRow[]>`
    WITH candidate AS (
      SELECT d.id, EXISTS (SELECT 1 FROM webhook_endpoints e
                            WHERE e.merchant_id = d.merchant_id AND e.disabled_at IS NOT NULL) AS disabled
        FROM webhook_deliveries d
       WHERE d.id = ${deliveryId} AND d.status = 'PENDING' AND d.attempts = ${attempt - 1}
    ), held AS (
      UPDATE webhook_deliveries d
         SET status = 'HELD', next_attempt_at = NULL, updated_at = now()
        FROM candidate c
       WHERE d.id = c.id AND c.disabled AND d.status = 'PENDING' AND d.attempts = ${attempt - 1}
    ), claimed AS (
      UPDATE webhook_deliveries d
         SET attempts = ${attempt}, next_attempt_at = ${leaseUntil}, updated_at = now()
        FROM candidate c
       WHERE d.id = c.id AND NOT c.disabled AND d.status = 'PENDING' AND d.attempts = ${attempt - 1}
      RETURNING d.id, d.merchant_id, d.payout_id, d.downtime_id, d.cause, d.window_starts_at, d.sequence
    ), target AS (
      SELECT c.id, c.payout_id, c.downtime_id, c.cause, c.window_starts_at, c.sequence, e.url, e.signing_secret,
             CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret
        FROM claimed c LEFT JOIN webhook_endpoints e ON e.merchant_id = c.merchant_id
    ), logged AS (
      INSERT INTO webhook_attempts (delivery_id, attempt, url)
      SELECT id, ${attempt}, url FROM target WHERE url IS NOT NULL
    )
    SELECT t.id AS delivery_id, t.window_starts_at, t.sequence, t.cause::text AS cause, t.url, t.signing_secret,
           t.previous_secret,
           p.id AS payout_id, p.mode::text AS mode, p.status::text AS status, p.transaction_id, p.amount_paise,
           p.ack_no, p.beneficiary_account AS account, p.beneficiary_ifsc AS ifsc, p.bank_reference,
           p.failure_reason::text AS failure_reason,
           b.id AS downtime_id, b.bank AS downtime_bank, b.mode::text AS downtime_mode, b.status AS downtime_status,
           b.since AS downtime_since
      FROM target t
      LEFT JOIN payouts p ON p.id = t.payout_id
      LEFT JOIN bank_downtimes b ON b.id = t.downtime_id`;
  if (!row) return null;
  return {
    deliveryId: row.delivery_id,
    attempt,
    windowStartsAt: row.window_starts_at,
    sequence: row.sequence,
    url: row.url,
    secrets: [row.signing_secret, row.previous_secret].filter((s): s is string => s !== null),
    subject: webhookSubjectOf(row),
  };
}

/** The subject a webhook's body is built from, out of its row. */
export function webhookSubjectOf(row: WebhookSubjectRow): WebhookSubject {
  if (row.downtime_id !== null) {
    return {
      kind: 'downtime',
      downtimeId: row.downtime_id,
      resolved: row.cause === 'DOWNTIME_RESOLVED',
      downtime: {
        bank: row.downtime_bank,
        mode: row.downtime_mode,
        status: row.downtime_status,
        since: row.downtime_since,
      },
    };
  }
  return {
    kind: 'payout',
    payoutId: row.payout_id!,
    payout: {
      mode: row.mode,
      status: row.status,
      transactionId: row.transaction_id,
      amountPaise: row.amount_paise,
      ackNo: row.ack_no,
      account: row.account,
      ifsc: row.ifsc,
      bankReference: row.bank_reference,
      failureReason: row.failure_reason,
    },
  };
}

/** What came back from one attempt: a status code, or an error (time-out, refused connection, …). */
export interface WebhookAttemptOutcome {
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

/**
 * What becomes of the delivery after an attempt: delivered, due again, given up (no endpoint), or — its
 * retry window over — held, with the merchant's endpoint disabled and every other pending delivery of the
 * merchant held too.
 */
export type WebhookDeliveryNext =
  | { status: 'DELIVERED' }
  | { status: 'PENDING'; nextAttemptAt: Date }
  | { status: 'FAILED' }
  | { status: 'HELD'; disabledReason: string };

/**
 * Records what attempt `attempt` got and moves the delivery on (delivered, due again at a time, or given
 * up), in one statement. False when the delivery moved on without this attempt (its lease ran out and a
 * later attempt was claimed): the answer is still recorded, but the later attempt decides.
 */
export async function finishWebhookAttempt(
  db: PrismaClientOrTransaction,
  deliveryId: bigint,
  attempt: number,
  outcome: WebhookAttemptOutcome,
  next: WebhookDeliveryNext,
): Promise<boolean> {
  const nextAttemptAt = next.status === 'PENDING' ? next.nextAttemptAt : null;
  const disabledReason = next.status === 'HELD' ? next.disabledReason.slice(0, 500) : null;
  const error = outcome.error === null ? null : outcome.error.slice(0, 500);
  const [row] = await db.$queryRaw<{ moved: boolean }[]>`
    WITH logged AS (
      UPDATE webhook_attempts
         SET duration_ms = ${Math.max(0, Math.round(outcome.durationMs))}, status_code = ${outcome.statusCode}::int,
             error = ${error}
       WHERE delivery_id = ${deliveryId} AND attempt = ${attempt}
    ), moved AS (
      UPDATE webhook_deliveries
         SET status = ${next.status}::webhook_delivery_status, next_attempt_at = ${nextAttemptAt},
             finished_at = CASE WHEN ${next.status}::text IN ('DELIVERED', 'FAILED') THEN now() END,
             updated_at = now()
       WHERE id = ${deliveryId} AND attempts = ${attempt} AND status = 'PENDING'
      RETURNING id, merchant_id
    ), disabled AS (
      UPDATE webhook_endpoints e
         SET disabled_at = now(), disabled_reason = ${disabledReason}, updated_at = now()
        FROM moved m
       WHERE ${disabledReason}::text IS NOT NULL AND e.merchant_id = m.merchant_id AND e.disabled_at IS NULL
    ), others_held AS (
      UPDATE webhook_deliveries d
         SET status = 'HELD', next_attempt_at = NULL, updated_at = now()
        FROM moved m
       WHERE ${disabledReason}::text IS NOT NULL AND d.merchant_id = m.merchant_id AND d.id <> m.id
         AND d.status = 'PENDING'
    )
    SELECT EXISTS (SELECT 1 FROM moved) AS moved`;
  return row?.moved ?? false;
}

/** A pending delivery whose next attempt is overdue: its job was probably lost. */
export interface DueWebhookDelivery {
  id: bigint;
  /** Attempts claimed so far: the job to make sure of is attempt `attempts` + 1. */
  attempts: number;
}

/**
 * Pending deliveries that need their job: never attempted and due (an outbox row the settlement wrote, a
 * replay), or due again for longer than `graceMs` (the job of the next attempt was lost, or an attempt's
 * worker stopped before it reported). Oldest first.
 */
export async function findDueWebhookDeliveries(
  db: PrismaClientOrTransaction,
  graceMs: number,
  limit: number,
): Promise<DueWebhookDelivery[]> {
  return db.$queryRaw<DueWebhookDelivery[]>`
    SELECT id, attempts
      FROM webhook_deliveries
     WHERE status = 'PENDING' AND next_attempt_at <= now()
       AND (attempts = 0 OR next_attempt_at < now() - make_interval(secs => ${graceMs / 1000}))
     ORDER BY next_attempt_at
     LIMIT ${limit}`;
}

/**
 * Makes the held deliveries of merchants whose endpoint is no longer disabled pending again, due now, each
 * with a fresh retry window, and returns them so their next attempt can be queued. `enableWebhookEndpoint`
 * calls it for one merchant; the webhook sweeper calls it for all, which also frees a delivery held by a
 * claim that raced an enabling.
 */
export async function releaseHeldWebhookDeliveries(
  db: PrismaClientOrTransaction,
  merchantId?: number,
): Promise<DueWebhookDelivery[]> {
  return db.$queryRaw<DueWebhookDelivery[]>`
    UPDATE webhook_deliveries d
       SET status = 'PENDING', next_attempt_at = now(), window_starts_at = now(), updated_at = now()
     WHERE d.status = 'HELD'
       AND (${merchantId ?? null}::int IS NULL OR d.merchant_id = ${merchantId ?? null}::int)
       AND NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.merchant_id = d.merchant_id AND e.disabled_at IS NOT NULL)
    RETURNING d.id, d.attempts`;
}

export type EnableWebhookEndpointResult =
  | { kind: 'no-endpoint' }
  | { kind: 'not-disabled' }
  /** It waits for the merchant to fetch its signing secret (docs/webhooks.md): nothing to send with yet. */
  | { kind: 'awaiting-secret' }
  | { kind: 'enabled'; disabledAt: Date; disabledReason: string | null; resumed: DueWebhookDelivery[] };

/**
 * Enables a disabled endpoint again and resumes the deliveries kept while it was disabled. Run it in a
 * transaction (with the audit record); queue the returned deliveries' next attempts after it commits.
 */
export async function enableWebhookEndpoint(
  db: PrismaClientOrTransaction,
  merchantId: number,
): Promise<EnableWebhookEndpointResult> {
  const [endpoint] = await db.$queryRaw<
    { disabled_at: Date | null; disabled_reason: string | null; awaiting_secret: boolean }[]
  >`
    SELECT disabled_at, disabled_reason, signing_secret IS NULL AS awaiting_secret
      FROM webhook_endpoints WHERE merchant_id = ${merchantId} FOR UPDATE`;
  if (!endpoint) return { kind: 'no-endpoint' };
  if (!endpoint.disabled_at) return { kind: 'not-disabled' };
  if (endpoint.awaiting_secret) return { kind: 'awaiting-secret' };
  await db.$executeRaw`
    UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, updated_at = now()
     WHERE merchant_id = ${merchantId}`;
  const resumed = await releaseHeldWebhookDeliveries(db, merchantId);
  return { kind: 'enabled', disabledAt: endpoint.disabled_at, disabledReason: endpoint.disabled_reason, resumed };
}

/** A disabled endpoint, for the console and the CLI. */
export interface DisabledWebhookEndpoint {
  merchantId: number;
  mid: string;
  url: string;
  disabledAt: Date;
  disabledReason: string | null;
  /** Deliveries kept for it. */
  held: number;
}

/** Every disabled endpoint, most recently disabled first. */
export async function findDisabledWebhookEndpoints(
  db: PrismaClientOrTransaction,
  limit = 200,
): Promise<DisabledWebhookEndpoint[]> {
  const rows = await db.$queryRaw<
    { merchant_id: number; mid: string; url: string; disabled_at: Date; disabled_reason: string | null; held: bigint }[]
  >`
    SELECT e.merchant_id, m.mid, e.url, e.disabled_at, e.disabled_reason,
           (SELECT count(*) FROM webhook_deliveries d WHERE d.merchant_id = e.merchant_id AND d.status = 'HELD') AS held
      FROM webhook_endpoints e JOIN merchants m ON m.id = e.merchant_id
     WHERE e.disabled_at IS NOT NULL
     ORDER BY e.disabled_at DESC
     LIMIT ${limit}`;
  return rows.map((r) => ({
    merchantId: r.merchant_id,
    mid: r.mid,
    url: r.url,
    disabledAt: r.disabled_at,
    disabledReason: r.disabled_reason,
    held: Number(r.held),
  }));
}

export type WebhookReplayResult =
  | { kind: 'queued'; deliveryId: bigint; payoutId: bigint; payoutStatus: PayoutStatus }
  | { kind: 'no-payout' }
  | { kind: 'not-settled'; payoutId: bigint }
  | { kind: 'no-endpoint'; payoutId: bigint };

/**
 * Records a fresh delivery of a settled payout's result (with a retry window of its own), for an operator
 * replaying a webhook. Only a payout with its final result can be replayed, and only to a registered endpoint.
 * The delivery is written by the outbox's one writer, the SQL function `enqueue_payout_webhook`.
 */
export async function recordWebhookReplay(
  db: PrismaClientOrTransaction,
  merchantId: number,
  transactionId: string,
  requestedBy: string,
): Promise<WebhookReplayResult> {
  const [row] = await db.$queryRaw<
    { payout_id: bigint | null; status: PayoutStatus | null; has_endpoint: boolean; delivery_id: bigint | null }[]
  >`
    WITH p AS (
      SELECT id, merchant_id, status FROM payouts WHERE merchant_id = ${merchantId} AND transaction_id = ${transactionId}
    ), e AS (
      SELECT 1 FROM webhook_endpoints WHERE merchant_id = ${merchantId}
    ), replay AS MATERIALIZED (
      -- packages/db/sql/functions/enqueue_payout_webhook.sql: the outbox's one writer
      SELECT enqueue_payout_webhook(p.merchant_id, p.id, 'REPLAY', ${requestedBy}) AS id FROM p
       WHERE p.status <> 'PENDING' AND EXISTS (SELECT 1 FROM e)
    )
    SELECT (SELECT id FROM p) AS payout_id, (SELECT status::text FROM p) AS status,
           EXISTS (SELECT 1 FROM e) AS has_endpoint, (SELECT id FROM replay) AS delivery_id`;
  if (!row?.payout_id || !row.status) return { kind: 'no-payout' };
  if (row.status === 'PENDING') return { kind: 'not-settled', payoutId: row.payout_id };
  if (!row.has_endpoint || !row.delivery_id) return { kind: 'no-endpoint', payoutId: row.payout_id };
  return { kind: 'queued', deliveryId: row.delivery_id, payoutId: row.payout_id, payoutStatus: row.status };
}

/** A delivery with its attempts, for support. */
export interface WebhookDeliveryView {
  id: bigint;
  cause: WebhookDeliveryCause;
  /** Rises with each event of the payout (or each downtime event of the merchant). */
  sequence: number;
  status: 'PENDING' | 'DELIVERED' | 'FAILED' | 'HELD';
  requestedBy: string;
  createdAt: Date;
  nextAttemptAt: Date | null;
  finishedAt: Date | null;
  attempts: {
    attempt: number;
    url: string;
    startedAt: Date;
    durationMs: number | null;
    statusCode: number | null;
    error: string | null;
  }[];
}

/** Every webhook delivery of a payout with every attempt, oldest first. */
export async function findWebhookDeliveries(
  db: PrismaClientOrTransaction,
  payoutId: bigint,
): Promise<WebhookDeliveryView[]> {
  const deliveries = await db.webhookDelivery.findMany({
    where: { payoutId },
    orderBy: { id: 'asc' },
    include: WEBHOOK_DELIVERY_INCLUDE,
  });
  return deliveries.map(toWebhookDeliveryView);
}

/** Every downtime webhook delivery of a merchant with every attempt, oldest first. */
export async function findDowntimeWebhookDeliveries(
  db: PrismaClientOrTransaction,
  merchantId: number,
): Promise<(WebhookDeliveryView & { downtimeId: bigint })[]> {
  const deliveries = await db.webhookDelivery.findMany({
    where: { merchantId, downtimeId: { not: null } },
    orderBy: { id: 'asc' },
    include: WEBHOOK_DELIVERY_INCLUDE,
  });
  return deliveries.map((d) => ({ ...toWebhookDeliveryView(d), downtimeId: d.downtimeId! }));
}

/** What to include when loading deliveries for {@link toWebhookDeliveryView}. */
export const WEBHOOK_DELIVERY_INCLUDE = {
  attemptsMade: { orderBy: { attempt: 'asc' } },
} as const satisfies Prisma.WebhookDeliveryInclude;

export function toWebhookDeliveryView(
  d: Prisma.WebhookDeliveryGetPayload<{ include: typeof WEBHOOK_DELIVERY_INCLUDE }>,
): WebhookDeliveryView {
  return {
    id: d.id,
    cause: d.cause,
    sequence: d.sequence,
    status: d.status,
    requestedBy: d.requestedBy,
    createdAt: d.createdAt,
    nextAttemptAt: d.nextAttemptAt,
    finishedAt: d.finishedAt,
    attempts: d.attemptsMade.map((a) => ({
      attempt: a.attempt,
      url: a.url,
      startedAt: a.startedAt,
      durationMs: a.durationMs,
      statusCode: a.statusCode,
      error: a.error,
    })),
  };
}
