import type {
  BankName,
  PayoutForWork,
  PayoutMode,
  PayoutState,
  RoutingDecision,
  SettlementFailureReason,
} from '@payout/domain';
import { POSTING_ENTRY, postingsOf, statesBefore, type TransitionCause } from '@payout/domain';
import { sql, sqlRows, type PrismaClientOrTransaction } from '../client.js';
import { payoutFromRow, type PayoutRow } from './payout-columns.js';

/** What the worker needs to drive a payout: the fields of a {@link PayoutForWork}. */
const WORK_FIELDS = [
  'id',
  'merchantId',
  'mode',
  'amountPaise',
  'ackNo',
  'state',
  'account',
  'ifsc',
  'name',
  'submitAttempts',
  'inquiryAttempts',
  'nextCheckAt',
  'createdAt',
  'bank',
] as const satisfies readonly (keyof PayoutForWork)[];

/** One statement straight over pg on the worker's hot path (it runs for every job the worker picks up). */
export async function findPayoutForWork(db: PrismaClientOrTransaction, id: bigint): Promise<PayoutForWork | null> {
  const [p] = await sqlRows<PayoutRow<(typeof WORK_FIELDS)[number]>>(
    db,
    sql`SELECT id, merchant_id, mode::text AS mode, amount_paise, ack_no, state::text AS state, beneficiary_account,
               beneficiary_ifsc, beneficiary_name, submit_attempts, inquiry_attempts, next_check_at, created_at, bank
          FROM payouts WHERE id = ${id}`,
  );
  return p ? payoutFromRow(p, WORK_FIELDS) : null;
}

/** Why a state changed, recorded in the payout's event log for support. */
export interface TransitionNote {
  reason: string;
  /** Who: "worker:<host>:<pid>", "sweeper", "operator:<name>". */
  actor: string;
  attempt?: number | null;
  /** What the rail said, as it said it. */
  railAnswer?: unknown;
}

export interface TransitionResult {
  /** False when the payout was not in a state that allows the move (someone else moved it first). */
  moved: boolean;
  /** The state before the move (or the state that refused it). */
  from: PayoutState | null;
}

interface TransitionRow {
  moved: boolean;
  from_state: PayoutState | null;
}

export interface SettlementResult extends TransitionResult {
  /**
   * The webhook delivery the settlement recorded (its outbox row, written by the same statement), or null
   * when it did not move or the merchant has no webhook endpoint.
   */
  webhookDeliveryId: bigint | null;
}

/**
 * The columns a non-terminal move may change besides the state: attempt counters and when the next
 * step is due.
 */
export interface TransitionChanges {
  nextCheckAt: Date | null;
  incrementSubmitAttempts?: boolean;
  /** Claim inquiry number `n`: only succeeds while the payout has had exactly n − 1 inquiries. */
  claimInquiry?: number;
  /** Narrows the states the move is allowed from (it is never wider than the table of transitions allows). */
  onlyFrom?: readonly PayoutState[];
}

/** A move's result, with the payout as it stands after the statement (null: there is no such payout). */
export interface TransitionOutcome extends TransitionResult {
  payout: PayoutForWork | null;
}

/**
 * Moves a payout to a non-terminal state if its current state allows it (the table of transitions' `progress`
 * rows are the guard: packages/domain/src/payout-transitions.ts), checked in the same statement that changes the row), and records the event. One call of the SQL
 * function `transition_payout` (packages/db/sql/functions/transition_payout.sql), so the row, its counters
 * and its event change together; it also returns the payout as it now stands, moved or not, so a caller
 * that would otherwise read it first (the worker's claim) needs no second statement.
 */
export async function transitionPayout(
  db: PrismaClientOrTransaction,
  payoutId: bigint,
  to: Exclude<PayoutState, 'SUCCESS' | 'FAILED' | 'REVERSED'>,
  changes: TransitionChanges,
  note: TransitionNote,
): Promise<TransitionOutcome> {
  const [row] = await sqlRows<TransitionRow & PayoutRow<(typeof WORK_FIELDS)[number]>>(
    db,
    sql`SELECT * FROM transition_payout(${payoutId}, ${to}::payout_state,
          ${narrowed(to, 'progress', changes.onlyFrom)}::text[]::payout_state[], ${changes.nextCheckAt}::timestamptz,
          ${changes.incrementSubmitAttempts ?? false}, ${changes.claimInquiry ?? null}::int,
          ${note.reason}, ${note.attempt ?? null}::int, ${jsonOrNull(note.railAnswer)}::jsonb, ${note.actor})`,
  );
  return {
    moved: row?.moved ?? false,
    from: row?.from_state ?? null,
    payout: row ? payoutFromRow(row, WORK_FIELDS) : null,
  };
}

/**
 * One route of {@link claimPayoutForBank}: a routing decision with the note its event carries, or a hold
 * (the payout waits, reserved and unsent, docs/banks.md "Holding").
 */
export type BankRoute = { decision: RoutingDecision; reason: string } | { hold: string };

/** Routes by mode; and, per bank a merchant may be pinned to, the routes of its pinned merchants' payouts. */
export interface BankRoutes {
  routes: Partial<Record<PayoutMode, BankRoute>>;
  /** Null when no merchant can be pinned to another route (one bank). */
  pinned: Record<BankName, Partial<Record<PayoutMode, BankRoute>>> | null;
}

export interface BankClaim extends TransitionOutcome {
  /** Routing said hold: the payout stays ACCEPTED, reserved and unsent, with held_since set. */
  held: boolean;
  /** Held longer than its merchant's hold window: it is to fail with BANK_DOWNTIME (expireHeldPayouts). */
  holdExpired: boolean;
  /**
   * The payout's scheduled time (docs/api.md, "Scheduling a payout"), null if it has none; when it is still
   * ahead, the claim refused the payout and changed nothing.
   */
  scheduledAt: Date | null;
}

/** What {@link claimPayoutForBank} is asked: which payout, from which states, and where each of its modes goes. */
export interface BankClaimRequest {
  payoutId: bigint;
  onlyFrom: readonly PayoutState[];
  nextCheckAt: Date;
  routes: BankRoutes;
  holdNextCheckAt: Date;
  actor: string;
}

type ClaimRow = TransitionRow & {
  n: number;
  held: boolean;
  hold_expired: boolean;
  scheduled_at: Date | null;
} & PayoutRow<(typeof WORK_FIELDS)[number]>;

/**
 * The claim before a payout is sent to a bank: its first submit (from ACCEPTED) or its move to another bank
 * (from the state it is in). The route of its mode — or of its merchant's pinned bank — is taken under the
 * row lock: a decision moves it to SUBMITTING recording the bank and the decision (and the event, with the
 * bank and the decision's note); a hold keeps it ACCEPTED with held_since set and its next check at
 * `holdNextCheckAt`. A payout scheduled for later is not claimed (its `scheduledAt` says until when). One call
 * of the SQL function `claim_payout_for_bank` (packages/db/sql/functions/claim_payout_for_bank.sql).
 */
export async function claimPayoutForBank(
  db: PrismaClientOrTransaction,
  payoutId: bigint,
  claim: Omit<BankClaimRequest, 'payoutId'>,
): Promise<BankClaim> {
  const [result] = await claimPayoutsForBank(db, [{ payoutId, ...claim }]);
  return result!;
}

/**
 * Many claims in one statement and one commit (the worker's concurrent jobs share it through
 * apps/worker/src/coalescing-claimer.ts): each is {@link claimPayoutForBank}'s claim, made in payout order
 * so two batches lock their payouts in one order and cannot deadlock; a payout named twice is claimed by the
 * first and only seen by the second. Results come in the order of `requests`.
 */
export async function claimPayoutsForBank(
  db: PrismaClientOrTransaction,
  requests: readonly BankClaimRequest[],
): Promise<BankClaim[]> {
  const items = requests
    .map((r, i) => ({
      n: i + 1,
      payout_id: r.payoutId,
      allowed: narrowed('SUBMITTING', 'progress', r.onlyFrom),
      next_check_at: r.nextCheckAt,
      routes: r.routes.routes,
      pinned_routes: r.routes.pinned,
      hold_next_check_at: r.holdNextCheckAt,
      actor: r.actor,
    }))
    .sort((a, b) => (a.payout_id < b.payout_id ? -1 : a.payout_id > b.payout_id ? 1 : a.n - b.n));
  const rows = await sqlRows<ClaimRow>(
    db,
    sql`SELECT u.n, c.*
          FROM jsonb_to_recordset(${jsonOrNull(items)}::jsonb) AS u(n int, payout_id bigint, allowed payout_state[],
                 next_check_at timestamptz, routes jsonb, pinned_routes jsonb, hold_next_check_at timestamptz, actor text)
         CROSS JOIN LATERAL claim_payout_for_bank(u.payout_id, u.allowed, u.next_check_at, u.routes,
                 nullif(u.pinned_routes, 'null'::jsonb), u.hold_next_check_at, u.actor) AS c`,
  );
  const byItem = new Map(rows.map((row) => [row.n, row]));
  return requests.map((_, i) => {
    const row = byItem.get(i + 1);
    return {
      moved: row?.moved ?? false,
      held: row?.held ?? false,
      holdExpired: row?.hold_expired ?? false,
      scheduledAt: row?.scheduled_at ?? null,
      from: row?.from_state ?? null,
      payout: row ? payoutFromRow(row, WORK_FIELDS) : null,
    };
  });
}

/** Narrows the states a settlement is allowed from (never wider than the table of transitions allows). */
export interface SettlementOptions {
  onlyFrom?: readonly PayoutState[];
}

/**
 * Settles a payout as SUCCESS: records the bank reference and moves the reservation out of the merchant's
 * funds (ledger RESERVED → PAID_OUT, wallet reserved −amount). Happens at most once (see {@link settlePayouts}).
 */
export function settleSuccess(db: PrismaClientOrTransaction, ...request: Parameters<typeof successOf>) {
  return settlePayout(db, successOf(...request));
}

/**
 * Settles a payout as FAILED: returns the reservation to the main wallet (ledger RESERVED → MAIN_WALLET,
 * wallet reserved −amount, available +amount). Happens at most once (see {@link settlePayouts}).
 */
export function settleFailure(db: PrismaClientOrTransaction, ...request: Parameters<typeof failureOf>) {
  return settlePayout(db, failureOf(...request));
}

/** One settlement on its own: {@link settlePayouts} with one request. */
export async function settlePayout(
  db: PrismaClientOrTransaction,
  request: SettlementRequest,
): Promise<SettlementResult> {
  const [result] = await settlePayouts(db, [request]);
  return result!;
}

/** One settlement to make: which payout, the outcome, why, and from which states it may happen. */
export interface SettlementRequest {
  payoutId: bigint;
  outcome: 'SUCCESS' | 'FAILED';
  bankReference: string | null;
  failureReason: SettlementFailureReason | null;
  note: TransitionNote;
  onlyFrom?: readonly PayoutState[];
}

export function successOf(
  payoutId: bigint,
  bankReference: string,
  note: TransitionNote,
  opts?: SettlementOptions,
): SettlementRequest {
  return { payoutId, outcome: 'SUCCESS', bankReference, failureReason: null, note, onlyFrom: opts?.onlyFrom };
}

export function failureOf(
  payoutId: bigint,
  reason: SettlementFailureReason,
  note: TransitionNote,
  opts?: SettlementOptions,
): SettlementRequest {
  return { payoutId, outcome: 'FAILED', bankReference: null, failureReason: reason, note, onlyFrom: opts?.onlyFrom };
}

// Which ledger entry ends a reservation, by outcome (the table of transitions says): the money leaves, or it
// goes back to the main wallet.
const SETTLEMENT_ENTRY = { SUCCESS: settlementEntry('SUCCESS'), FAILED: settlementEntry('FAILED') };

function settlementEntry(outcome: 'SUCCESS' | 'FAILED') {
  const [posting, ...more] = postingsOf(outcome, 'settlement');
  if (!posting || more.length) throw new Error(`a settlement as ${outcome} must post one entry`);
  return POSTING_ENTRY[posting];
}

interface DeliveryRow extends TransitionRow {
  webhook_delivery_id: bigint | null;
}

interface SettlementRow extends DeliveryRow {
  /** The request's position in the batch, from 1. */
  item: number;
}

/**
 * The one settlement, for one payout or a batch in one round trip and one commit: each payout's terminal
 * state, the ledger entry that ends its reservation (posted by the posting primitive, see
 * ledger-posting.ts), its event, and — when the merchant has a webhook endpoint — its webhook delivery, so
 * the notification can never be lost. SQL function `settle_payouts`
 * (packages/db/sql/functions/). Happens at most once per payout: only from a state that allows the outcome
 * (checked under the row lock), and the ledger's unique constraints back that up; a posting that cannot be
 * made aborts the whole statement, batch and all. Results are in the order of `requests`.
 */
export async function settlePayouts(
  db: PrismaClientOrTransaction,
  requests: readonly SettlementRequest[],
): Promise<SettlementResult[]> {
  const items = requests.map((r) => ({
    payout_id: r.payoutId,
    outcome: r.outcome,
    allowed: narrowed(r.outcome, 'settlement', r.onlyFrom),
    bank_reference: r.bankReference,
    failure_reason: r.failureReason,
    entry: SETTLEMENT_ENTRY[r.outcome],
    reason: r.note.reason,
    attempt: r.note.attempt ?? null,
    rail_answer: r.note.railAnswer ?? null,
    actor: r.note.actor,
  }));
  const rows = await sqlRows<SettlementRow>(db, sql`SELECT * FROM settle_payouts(${jsonOrNull(items)}::jsonb)`);
  const byItem = new Map(rows.map((row) => [row.item, row]));
  return requests.map((_, i) => {
    const row = byItem.get(i + 1);
    return {
      moved: row?.moved ?? false,
      from: row?.from_state ?? null,
      webhookDeliveryId: row?.webhook_delivery_id ?? null,
    };
  });
}

/** Who reported that a paid payout came back. */
export type ReversalSource = 'rail' | 'statement' | 'operator';

export interface ReversalReport {
  source: ReversalSource;
  /** The reference the reporter gave the return (the statement's UTR, the rail's), kept in the event. */
  bankReference?: string;
  note: TransitionNote;
}

/**
 * A SUCCESS payout came back from the beneficiary's bank (docs/api.md, "Payout results"): it
 * becomes REVERSED — FAILED to the merchant, its UTR kept — and the amount returns to the main wallet
 * through the ledger (PAID_OUT → MAIN_WALLET), with its event and a REVERSAL webhook delivery, in one
 * statement: the SQL function `reverse_payout` (packages/db/sql/functions/reverse_payout.sql). Happens at
 * most once: only from SUCCESS, under the row lock, and the ledger's and the outbox's unique constraints
 * back that up. Any other state: not moved, `from` says which.
 */
export async function reversePayout(
  db: PrismaClientOrTransaction,
  payoutId: bigint,
  report: ReversalReport,
): Promise<SettlementResult> {
  const railAnswer = report.note.railAnswer ?? (report.bankReference ? { bankReference: report.bankReference } : null);
  const [row] = await sqlRows<DeliveryRow>(
    db,
    sql`SELECT * FROM reverse_payout(${payoutId}, ${statesBefore('REVERSED', 'reversal')}::text[]::payout_state[],
          ${`${report.note.reason} (reported by ${report.source})`}, ${report.note.attempt ?? null}::int,
          ${jsonOrNull(railAnswer)}::jsonb, ${report.note.actor}, ${`reversal:${report.source}`})`,
  );
  return {
    moved: row?.moved ?? false,
    from: row?.from_state ?? null,
    webhookDeliveryId: row?.webhook_delivery_id ?? null,
  };
}

/**
 * The states a move to `to` for `cause` is allowed from, narrowed by the caller but never wider than the table of
 * transitions: a move it does not name cannot be asked for (a settlement cannot fail a QUEUED payout, which
 * would release a reservation never made).
 */
function narrowed(to: PayoutState, cause: TransitionCause, onlyFrom?: readonly PayoutState[]): PayoutState[] {
  return statesBefore(to, cause).filter((s) => !onlyFrom || onlyFrom.includes(s));
}

function jsonOrNull(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** A payout whose next step is overdue: its job was probably lost. */
export interface OverduePayout {
  id: bigint;
  state: PayoutState;
  inquiryAttempts: number;
}

/**
 * Non-terminal payouts (other than those waiting for an operator) whose next step is overdue by more than
 * `graceMs`, oldest first: the sweeper makes sure each has its job.
 */
export async function findOverduePayouts(
  db: PrismaClientOrTransaction,
  graceMs: number,
  limit: number,
): Promise<OverduePayout[]> {
  const rows = await db.$queryRaw<{ id: bigint; state: PayoutState; inquiry_attempts: number }[]>`
    SELECT id, state::text AS state, inquiry_attempts
      FROM payouts
     WHERE status = 'PENDING' AND state <> 'MANUAL_REVIEW'
       AND next_check_at < now() - make_interval(secs => ${graceMs / 1000})
     ORDER BY next_check_at
     LIMIT ${limit}`;
  return rows.map((r) => ({ id: r.id, state: r.state, inquiryAttempts: r.inquiry_attempts }));
}
