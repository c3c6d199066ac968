import type { Paise } from '@payout/domain';
import { statesBefore } from '@payout/domain';
import type { PrismaClient, PrismaClientOrTransaction, Transaction } from '../client.js';

/** How a settled payout and what the bank says about it disagree. */
export type PayoutDiscrepancyKind = 'SUCCESS_AFTER_FAILED' | 'FAILED_AFTER_SUCCESS' | 'REVERSAL_OF_UNPAID';
export type DiscrepancyKind = PayoutDiscrepancyKind | 'PAYIN_CONFLICT';
export type DiscrepancySource = 'rail' | 'statement' | 'callback' | 'operator';

export interface PayoutDiscrepancyReport {
  payoutId: bigint;
  kind: PayoutDiscrepancyKind;
  source: 'rail' | 'statement';
  /** What the rail (or the statement line) said, as it said it. */
  railAnswer: unknown;
  note?: string;
}

export interface RecordedDiscrepancy {
  id: bigint;
  /** False when the same contradiction was already open: it was counted again, nothing more. */
  created: boolean;
}

/**
 * Records that the bank contradicts a settled payout (a SUCCESS after we settled FAILED, say), so it is
 * never dropped: it shows in `payout show`, `discrepancy list` and reconcile until an operator resolves it.
 * Idempotent per payout and kind while open (a partial unique index): hearing it again only counts it.
 */
export async function recordDiscrepancy(
  db: PrismaClientOrTransaction,
  report: PayoutDiscrepancyReport,
): Promise<RecordedDiscrepancy> {
  const [row] = await db.$queryRaw<{ id: bigint; created: boolean }[]>`
    INSERT INTO discrepancies (kind, payout_id, source, report, note)
    VALUES (${report.kind}::discrepancy_kind, ${report.payoutId}, ${report.source}, ${jsonOrNull(report.railAnswer)}::jsonb,
            ${report.note ?? null})
    ON CONFLICT (payout_id, kind) WHERE status = 'OPEN' AND payout_id IS NOT NULL
    DO UPDATE SET times_seen = discrepancies.times_seen + 1, last_seen_at = now()
    RETURNING id, (xmax = 0) AS created`;
  if (!row) throw new Error('recording a discrepancy returned no row');
  return { id: row.id, created: row.created };
}

/**
 * Records that the pay-in provider contradicted a collection's recorded outcome (FAILED then SUCCESS for
 * one TransactionID): kept and resolvable, not only logged. Idempotent per collection while open.
 */
export async function recordPayinConflict(
  db: PrismaClientOrTransaction,
  collectionId: bigint,
  report: unknown,
  note: string,
): Promise<RecordedDiscrepancy> {
  const [row] = await db.$queryRaw<{ id: bigint; created: boolean }[]>`
    INSERT INTO discrepancies (kind, collection_id, source, report, note)
    VALUES ('PAYIN_CONFLICT', ${collectionId}, 'callback', ${jsonOrNull(report)}::jsonb, ${note})
    ON CONFLICT (collection_id, kind) WHERE status = 'OPEN' AND collection_id IS NOT NULL
    DO UPDATE SET times_seen = discrepancies.times_seen + 1, last_seen_at = now()
    RETURNING id, (xmax = 0) AS created`;
  if (!row) throw new Error('recording a pay-in conflict returned no row');
  return { id: row.id, created: row.created };
}

/** One discrepancy as operators see it. */
export interface DiscrepancyView {
  id: bigint;
  kind: DiscrepancyKind;
  status: 'OPEN' | 'RESOLVED';
  source: string;
  payoutId: bigint | null;
  collectionId: bigint | null;
  /** The payout's Ack_no or the collection's, whichever the discrepancy is about. */
  ackNo: string;
  merchantId: number;
  transactionId: string;
  amountPaise: Paise;
  /** The subject's state here (a payout state, or a collection status). */
  stateHere: string;
  report: unknown;
  note: string | null;
  timesSeen: number;
  createdAt: Date;
  lastSeenAt: Date;
  resolution: string | null;
  resolutionNote: string | null;
  resolvedBy: string | null;
  resolvedAt: Date | null;
}

interface DiscrepancyRow {
  id: bigint;
  kind: DiscrepancyKind;
  status: 'OPEN' | 'RESOLVED';
  source: string;
  payout_id: bigint | null;
  collection_id: bigint | null;
  ack_no: string;
  merchant_id: number;
  transaction_id: string;
  amount_paise: bigint;
  state_here: string;
  report: unknown;
  note: string | null;
  times_seen: number;
  created_at: Date;
  last_seen_at: Date;
  resolution: string | null;
  resolution_note: string | null;
  resolved_by: string | null;
  resolved_at: Date | null;
}

export interface DiscrepancyFilter {
  id?: bigint;
  /** Only open ones (the default) or every one. */
  includeResolved?: boolean;
  payoutId?: bigint;
  collectionId?: bigint;
  limit?: number;
}

/** Discrepancies, oldest first: open ones only unless asked (see {@link DiscrepancyFilter}). */
export async function listDiscrepancies(
  db: PrismaClientOrTransaction,
  filter: DiscrepancyFilter = {},
): Promise<DiscrepancyView[]> {
  const rows = await db.$queryRaw<DiscrepancyRow[]>`
    SELECT d.id, d.kind::text AS kind, d.status::text AS status, d.source, d.payout_id, d.collection_id,
           coalesce(p.ack_no, c.ack_no) AS ack_no, coalesce(p.merchant_id, c.merchant_id) AS merchant_id,
           coalesce(p.transaction_id, c.transaction_id) AS transaction_id,
           coalesce(p.amount_paise, c.amount_paise) AS amount_paise,
           coalesce(p.state::text, c.status::text) AS state_here,
           d.report, d.note, d.times_seen, d.created_at, d.last_seen_at,
           d.resolution, d.resolution_note, d.resolved_by, d.resolved_at
      FROM discrepancies d
      LEFT JOIN payouts p ON p.id = d.payout_id
      LEFT JOIN collections c ON c.id = d.collection_id
     WHERE (${filter.includeResolved ?? false} OR d.status = 'OPEN')
       AND (${filter.id ?? null}::bigint IS NULL OR d.id = ${filter.id ?? null}::bigint)
       AND (${filter.payoutId ?? null}::bigint IS NULL OR d.payout_id = ${filter.payoutId ?? null}::bigint)
       AND (${filter.collectionId ?? null}::bigint IS NULL OR d.collection_id = ${filter.collectionId ?? null}::bigint)
     ORDER BY d.created_at, d.id
     LIMIT ${filter.limit ?? 1000}`;
  return rows.map(toView);
}

/** The open discrepancies, oldest first. */
export function listOpenDiscrepancies(db: PrismaClientOrTransaction, limit = 1000): Promise<DiscrepancyView[]> {
  return listDiscrepancies(db, { limit });
}

/**
 * How an operator settles a discrepancy, by kind (docs/reconciliation.md):
 * - SUCCESS_AFTER_FAILED: `debit-merchant` charges the merchant after all (ledger PAYOUT_LATE_DEBIT,
 *   MAIN_WALLET → PAID_OUT; refused if the wallet cannot cover it), or `recovered` (the money came back
 *   from the beneficiary outside the rail; nothing to post).
 * - FAILED_AFTER_SUCCESS: `reverse` returns the amount to the main wallet (the payout becomes REVERSED),
 *   or `confirmed-paid` (the bank confirms the payment; nothing to post).
 * - PAYIN_CONFLICT: `credit-payin` — the provider confirms a pay-in recorded FAILED did succeed: it becomes
 *   SUCCESS and credits the main wallet once (COLLECTION_CREDIT).
 * - any kind: `no-change`, with a note saying why the books are right as they are.
 */
export const RESOLUTIONS: Record<DiscrepancyKind, readonly string[]> = {
  SUCCESS_AFTER_FAILED: ['debit-merchant', 'recovered', 'no-change'],
  FAILED_AFTER_SUCCESS: ['reverse', 'confirmed-paid', 'no-change'],
  REVERSAL_OF_UNPAID: ['no-change'],
  PAYIN_CONFLICT: ['credit-payin', 'no-change'],
};

export interface DiscrepancyResolution {
  id: bigint;
  resolution: string;
  note: string;
  /** "operator:<name>". */
  actor: string;
}

export type ResolveOutcome =
  | { kind: 'resolved'; discrepancy: DiscrepancyView; posted: boolean }
  | { kind: 'not-found' }
  | { kind: 'already-resolved'; discrepancy: DiscrepancyView }
  | { kind: 'resolution-not-allowed'; allowed: readonly string[] }
  /** The ledger action could not be made (e.g. the wallet cannot cover a late debit): nothing changed. */
  | { kind: 'refused'; reason: string };

/**
 * Resolves one open discrepancy, with its ledger action if the resolution has one, in one transaction:
 * the discrepancy row is locked first, so two operators cannot resolve it twice.
 */
export function resolveDiscrepancy(db: PrismaClient, request: DiscrepancyResolution): Promise<ResolveOutcome> {
  return db.$transaction((tx) => resolveDiscrepancyIn(tx, request));
}

/** What resolve_discrepancy answers (packages/db/sql/functions/resolve_discrepancy.sql). */
interface ResolutionRow {
  outcome:
    | 'resolved'
    | 'not-found'
    | 'already-resolved'
    | 'insufficient'
    | 'duplicate'
    | 'payout-not-reversible'
    | 'payin-not-failed';
  posted: boolean;
  subject_state: string | null;
}

/**
 * {@link resolveDiscrepancy} inside the caller's transaction (an approver's, for the ledger resolutions).
 * Under the discrepancy's row lock it checks that the resolution is one of the kind's ({@link RESOLUTIONS});
 * the money, the subject's state and the resolution itself are then one call of the SQL function
 * `resolve_discrepancy` (packages/db/sql/functions/resolve_discrepancy.sql), so they move together.
 */
export async function resolveDiscrepancyIn(tx: Transaction, request: DiscrepancyResolution): Promise<ResolveOutcome> {
  const [locked] = await tx.$queryRaw<{ id: bigint }[]>`
    SELECT id FROM discrepancies WHERE id = ${request.id} FOR UPDATE`;
  if (!locked) return { kind: 'not-found' };
  const discrepancy = await discrepancyById(tx, request.id);
  if (!discrepancy) return { kind: 'not-found' };
  if (discrepancy.status === 'RESOLVED') return { kind: 'already-resolved', discrepancy };
  const allowed = RESOLUTIONS[discrepancy.kind];
  if (!allowed.includes(request.resolution)) return { kind: 'resolution-not-allowed', allowed };

  const [row] = await tx.$queryRaw<ResolutionRow[]>`
    SELECT * FROM resolve_discrepancy(${request.id}, ${request.resolution}, ${request.note}, ${request.actor},
                                      ${statesBefore('REVERSED', 'reversal')}::text[]::payout_state[])`;
  if (!row) throw new Error('resolve_discrepancy returned no row');
  switch (row.outcome) {
    case 'resolved':
      return { kind: 'resolved', discrepancy: (await discrepancyById(tx, request.id))!, posted: row.posted };
    case 'not-found':
      return { kind: 'not-found' };
    case 'already-resolved':
      return { kind: 'already-resolved', discrepancy: (await discrepancyById(tx, request.id))! };
    case 'insufficient':
      return { kind: 'refused', reason: 'the main wallet cannot cover the payout amount' };
    case 'duplicate':
      return { kind: 'refused', reason: 'the merchant was already charged for it' };
    case 'payout-not-reversible':
      return { kind: 'refused', reason: `the payout is ${row.subject_state ?? 'missing'}, not SUCCESS` };
    case 'payin-not-failed':
      return { kind: 'refused', reason: `the pay-in is ${row.subject_state ?? 'missing'}, not FAILED` };
  }
}

/** The resolutions that post to the ledger: they move money, so a second person approves them. */
export const LEDGER_RESOLUTIONS: readonly string[] = ['debit-merchant', 'reverse', 'credit-payin'];

/** One discrepancy, resolved or not; null when there is none. */
export async function findDiscrepancy(db: PrismaClientOrTransaction, id: bigint): Promise<DiscrepancyView | null> {
  return (await discrepancyById(db, id)) ?? null;
}

async function discrepancyById(db: PrismaClientOrTransaction, id: bigint): Promise<DiscrepancyView | undefined> {
  const [found] = await listDiscrepancies(db, { id, includeResolved: true, limit: 1 });
  return found;
}

function toView(r: DiscrepancyRow): DiscrepancyView {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    source: r.source,
    payoutId: r.payout_id,
    collectionId: r.collection_id,
    ackNo: r.ack_no,
    merchantId: r.merchant_id,
    transactionId: r.transaction_id,
    amountPaise: r.amount_paise,
    stateHere: r.state_here,
    report: r.report,
    note: r.note,
    timesSeen: r.times_seen,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    resolution: r.resolution,
    resolutionNote: r.resolution_note,
    resolvedBy: r.resolved_by,
    resolvedAt: r.resolved_at,
  };
}

function jsonOrNull(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
