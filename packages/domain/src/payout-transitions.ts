import type { LedgerEntryKind } from './ledger.js';
import type { FailureReason, PayoutState } from './payout-state.js';

/**
 * What each state change does to money: the one statement of it. The SQL functions do the work (ARCHITECTURE.md,
 * "Data access"); this table says what they must do, and the rest is read from it: the states a caller may ask
 * a move from (`statesBefore`, the guard the SQL functions check under the row lock), the entry a settlement
 * posts (`postingsOf`), the state machine (`canTransition`, payout-state.ts) and the invariant check's
 * expectations (`ledgerExpectations`, packages/db/src/invariant-check.ts). test/ledger/payout-transitions-table.test.ts
 * drives every row through the database and asserts exactly the postings and the webhook it names.
 *
 * Only the types are imported: payout-state.ts reads this table, so this module must not need it to load.
 */

/** A ledger entry a move makes for its payout, at most once per payout (the ledger's unique constraints). */
export type Posting = 'reserve' | 'release' | 'settle' | 'reverse' | 'late-debit';

/** The ledger entry kind each posting is written as (packages/domain/src/ledger.ts says which accounts it moves). */
export const POSTING_ENTRY: Record<Posting, LedgerEntryKind> = {
  reserve: 'PAYOUT_RESERVE',
  settle: 'PAYOUT_SETTLE',
  release: 'PAYOUT_RELEASE',
  reverse: 'PAYOUT_REVERSAL',
  'late-debit': 'PAYOUT_LATE_DEBIT',
};

/** Every posting: a reservation, what ends it, and what may follow. */
export const POSTINGS = Object.keys(POSTING_ENTRY) as Posting[];

/**
 * Why a payout moves — the door that asks for it:
 * - `accept`, `queue`, `refuse`: a new payout (accept_payouts.sql), with its balance reserved, queued for balance
 *   (docs/api.md, "Queue if low balance"), or refused for balance;
 * - `release-from-queue`: a credit made room for a queued payout (release_queued_payouts.sql);
 * - `queue-expiry`: its merchant's queue window passed (expire_queued_payouts.sql);
 * - `hold-expiry`: it was held, reserved and unsent, while no bank served its mode, past its merchant's hold
 *   window (expire_held_payouts.sql, docs/banks.md "Holding"): nothing was sent, so retrying is safe;
 * - `progress`: the worker's and the sweeper's moves while the rail holds it (transition_payout.sql);
 * - `settlement`: the rail's, a statement's or an operator's outcome (settle_payouts.sql);
 * - `reversal`: the money came back after SUCCESS (docs/reconciliation.md);
 * - `late-debit`: an operator charges the merchant for a payout paid at the bank after it FAILED here
 *   (docs/reconciliation.md, the SUCCESS_AFTER_FAILED discrepancy): money moves, the state stays;
 * - `cancel`, `cancel-queued`: its merchant cancelled it before it was sent to any bank, accepted or queued for
 *   balance (cancel_payout.sql, docs/api.md "Cancelling a payout").
 */
export type TransitionCause =
  | 'accept'
  | 'queue'
  | 'refuse'
  | 'release-from-queue'
  | 'queue-expiry'
  | 'hold-expiry'
  | 'progress'
  | 'settlement'
  | 'reversal'
  | 'late-debit'
  | 'cancel'
  | 'cancel-queued';

/** The webhook delivery a move writes to the outbox when the merchant has an endpoint (its `cause`). */
export type TransitionWebhook = 'SETTLEMENT' | 'REVERSAL';

export interface PayoutTransition {
  /** null: the payout is new. */
  from: PayoutState | null;
  to: PayoutState;
  cause: TransitionCause;
  /** Exactly the ledger entries the move posts for the payout. */
  postings: readonly Posting[];
  webhook: TransitionWebhook | null;
  /**
   * The failure reasons the payout has after the move (none: it has none). On a move that keeps the state,
   * the reasons a payout must already have for the move to apply.
   */
  failureReasons?: readonly FailureReason[];
  /** Money moves but the state stays: not a move of the state machine. */
  keepsState?: true;
}

const BALANCE: readonly FailureReason[] = ['INSUFFICIENT_BALANCE'];
/** Any reason but a short balance: that one is decided before anything is reserved. */
const AFTER_RESERVATION: readonly FailureReason[] = [
  'INVALID_BENEFICIARY_ACCOUNT',
  'INVALID_UPI_ADDRESS',
  'DECLINED_BY_BENEFICIARY_BANK',
  'RAIL_REJECTED',
  'REVERSED_BY_BENEFICIARY_BANK',
];

/** The states while the rail may hold our instruction (payout-state.ts reads IN_FLIGHT_STATES back from here). */
const IN_FLIGHT = ['SUBMITTING', 'AWAITING_RAIL', 'OUTCOME_UNKNOWN', 'MANUAL_REVIEW'] as const;

function progress(from: PayoutState, ...to: PayoutState[]): PayoutTransition[] {
  return to.map((t) => ({ from, to: t, cause: 'progress', postings: [], webhook: null }));
}

function settlements(from: PayoutState, outcomes: readonly ('SUCCESS' | 'FAILED')[]): PayoutTransition[] {
  return outcomes.map((to) =>
    to === 'SUCCESS'
      ? { from, to, cause: 'settlement', postings: ['settle'], webhook: 'SETTLEMENT' }
      : {
          from,
          to,
          cause: 'settlement',
          postings: ['release'],
          webhook: 'SETTLEMENT',
          failureReasons: AFTER_RESERVATION,
        },
  );
}

export const PAYOUT_TRANSITIONS: readonly PayoutTransition[] = [
  { from: null, to: 'ACCEPTED', cause: 'accept', postings: ['reserve'], webhook: null },
  // Nothing is reserved while a payout waits for balance, so nothing is released if its window passes.
  { from: null, to: 'QUEUED', cause: 'queue', postings: [], webhook: null },
  // The merchant learns this one from the answer to its request: no webhook.
  { from: null, to: 'FAILED', cause: 'refuse', postings: [], webhook: null, failureReasons: BALANCE },
  { from: 'QUEUED', to: 'ACCEPTED', cause: 'release-from-queue', postings: ['reserve'], webhook: null },
  { from: 'QUEUED', to: 'FAILED', cause: 'queue-expiry', postings: [], webhook: 'SETTLEMENT', failureReasons: BALANCE },
  ...progress('ACCEPTED', 'SUBMITTING'),
  // Held through a downtime of every bank serving its mode, past the merchant's hold window: never sent.
  {
    from: 'ACCEPTED',
    to: 'FAILED',
    cause: 'hold-expiry',
    postings: ['release'],
    webhook: 'SETTLEMENT',
    failureReasons: ['BANK_DOWNTIME'],
  },
  // Cancelled by its merchant before any bank was sent it: what was reserved goes back; a queued payout had
  // nothing reserved. The merchant hears it by webhook too, as of every failure after the answer.
  {
    from: 'ACCEPTED',
    to: 'FAILED',
    cause: 'cancel',
    postings: ['release'],
    webhook: 'SETTLEMENT',
    failureReasons: ['CANCELLED_BY_MERCHANT'],
  },
  {
    from: 'QUEUED',
    to: 'FAILED',
    cause: 'cancel-queued',
    postings: [],
    webhook: 'SETTLEMENT',
    failureReasons: ['CANCELLED_BY_MERCHANT'],
  },
  // FAILED straight from ACCEPTED only before anything was sent (the rail refused the instruction outright).
  ...settlements('ACCEPTED', ['FAILED']),
  // MANUAL_REVIEW: a worker died mid-submit and the deadline passed before anyone could ask the rail.
  ...progress('SUBMITTING', 'AWAITING_RAIL', 'OUTCOME_UNKNOWN', 'MANUAL_REVIEW', 'SUBMITTING'),
  ...progress('AWAITING_RAIL', 'AWAITING_RAIL', 'OUTCOME_UNKNOWN', 'SUBMITTING', 'MANUAL_REVIEW'),
  ...progress('OUTCOME_UNKNOWN', 'OUTCOME_UNKNOWN', 'AWAITING_RAIL', 'SUBMITTING', 'MANUAL_REVIEW'),
  // An operator (or a late answer from the rail) settles a payout under review, or the rail is asked again.
  ...progress('MANUAL_REVIEW', 'AWAITING_RAIL', 'OUTCOME_UNKNOWN', 'SUBMITTING'),
  ...IN_FLIGHT.flatMap((from) => settlements(from, ['SUCCESS', 'FAILED'])),
  // The money came back after the rail said it was paid (a bounce, a return): once, and only from SUCCESS.
  {
    from: 'SUCCESS',
    to: 'REVERSED',
    cause: 'reversal',
    postings: ['reverse'],
    webhook: 'REVERSAL',
    failureReasons: ['REVERSED_BY_BENEFICIARY_BANK'],
  },
  {
    from: 'FAILED',
    to: 'FAILED',
    cause: 'late-debit',
    postings: ['late-debit'],
    webhook: null,
    failureReasons: AFTER_RESERVATION,
    keepsState: true,
  },
];

/** The states a payout may be in for a move to `to` for `cause`: the guard the SQL functions are given. */
export function statesBefore(to: PayoutState, cause: TransitionCause): PayoutState[] {
  const from = PAYOUT_TRANSITIONS.filter((t) => t.to === to && t.cause === cause).map((t) => t.from);
  return unique(from.filter((s): s is PayoutState => s !== null));
}

/**
 * The postings a move to `to` for `cause` makes. Every row for one (to, cause) makes the same ones
 * (packages/domain/src/payout-transitions.test.ts holds the table to it), so a caller need not know the state
 * the payout leaves.
 */
export function postingsOf(to: PayoutState, cause: TransitionCause): readonly Posting[] {
  const row = PAYOUT_TRANSITIONS.find((t) => t.to === to && t.cause === cause);
  if (!row) throw new RangeError(`no transition to ${to} for ${cause}`);
  return row.postings;
}

/** What a payout in `state`, with `failureReason`, may carry on the ledger: each possible set of postings. */
export interface LedgerExpectation {
  state: PayoutState;
  failureReason: FailureReason | null;
  /** Each a set of postings, in POSTINGS order; the payout must carry exactly one of them. */
  postings: Posting[][];
}

/**
 * Every (state, failure reason) a payout can reach through the table, with the postings it carries there: the
 * postings of each path from a new payout, each posting at most once per payout. The invariant check
 * (`payout-ledger-matches-status`) is generated from this.
 */
export function ledgerExpectations(table: readonly PayoutTransition[] = PAYOUT_TRANSITIONS): LedgerExpectation[] {
  interface Node {
    state: PayoutState;
    reason: FailureReason | null;
    postings: Posting[];
  }
  const key = (n: Node) => `${n.state}|${n.reason ?? ''}|${n.postings.join(',')}`;
  const seen = new Map<string, Node>();
  const queue: Node[] = [];
  const visit = (n: Node) => {
    if (seen.has(key(n))) return;
    seen.set(key(n), n);
    queue.push(n);
  };
  const after = (row: PayoutTransition, at: Node | null): Node[] => {
    const carried = at?.postings ?? [];
    if (row.postings.some((p) => carried.includes(p))) return [];
    const postings = POSTINGS.filter((p) => carried.includes(p) || row.postings.includes(p));
    if (row.keepsState) {
      if (!at || !at.reason || !row.failureReasons?.includes(at.reason)) return [];
      return [{ state: row.to, reason: at.reason, postings }];
    }
    const reasons = row.failureReasons ?? [null];
    return reasons.map((reason) => ({ state: row.to, reason, postings }));
  };
  for (const row of table.filter((t) => t.from === null)) after(row, null).forEach(visit);
  while (queue.length) {
    const at = queue.shift()!;
    for (const row of table.filter((t) => t.from === at.state)) after(row, at).forEach(visit);
  }
  const grouped = new Map<string, LedgerExpectation>();
  for (const n of seen.values()) {
    const k = `${n.state}|${n.reason ?? ''}`;
    const entry = grouped.get(k) ?? { state: n.state, failureReason: n.reason, postings: [] };
    entry.postings.push(n.postings);
    grouped.set(k, entry);
  }
  return [...grouped.values()];
}

/** The sets of postings a payout in `state` with `failureReason` may carry, each exactly ([] if it cannot be so). */
export function postingsCarried(state: PayoutState, failureReason: FailureReason | null): Posting[][] {
  return ledgerExpectations().find((e) => e.state === state && e.failureReason === failureReason)?.postings ?? [];
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
