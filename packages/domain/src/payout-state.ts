// payout-transitions.ts imports only types from here, so it has loaded whole before this module runs.
import { scheduledMessage } from './payout-schedule.js';
import { PAYOUT_TRANSITIONS, statesBefore } from './payout-transitions.js';

/**
 * The payout state machine. Inside, a payout passes through more states than the merchant sees; each
 * maps to one of the three statuses merchants see (docs/api.md, "Response bodies"). A payout is settled once, SUCCESS or FAILED; a SUCCESS may
 * later come back from the beneficiary's bank (REVERSED, shown to the merchant as FAILED), once.
 */
export const PAYOUT_STATES = [
  'QUEUED',
  'ACCEPTED',
  'SUBMITTING',
  'AWAITING_RAIL',
  'OUTCOME_UNKNOWN',
  'MANUAL_REVIEW',
  'SUCCESS',
  'FAILED',
  'REVERSED',
] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

/**
 * The status a merchant is told, of the three (docs/api.md, "Response bodies"); stored as the PayoutStatus enum of
 * prisma/schema.prisma. Not a body: @payout/client's PayoutStatusBody is the lookup's answer.
 */
export type PayoutStatus = 'PENDING' | 'SUCCESS' | 'FAILED';
export type PayoutMode = 'IMPS' | 'UPI';

/** The two outcomes a payout is settled with, each reached at most once and never both. */
export const SETTLED_STATES: readonly PayoutState[] = ['SUCCESS', 'FAILED'];
/**
 * States the rail's ordinary flow never leaves. SUCCESS is one of them although a reversal may still
 * follow it: only a report that the money came back moves it (docs/reconciliation.md).
 */
export const TERMINAL_STATES: readonly PayoutState[] = ['SUCCESS', 'FAILED', 'REVERSED'];
/**
 * States in which the rail may hold our instruction, so only asking the rail can settle the payout: the states
 * a settlement as SUCCESS may come from (payout-transitions.ts).
 */
export const IN_FLIGHT_STATES: readonly PayoutState[] = statesBefore('SUCCESS', 'settlement');

export function isTerminal(state: PayoutState): state is 'SUCCESS' | 'FAILED' | 'REVERSED' {
  return state === 'SUCCESS' || state === 'FAILED' || state === 'REVERSED';
}

/** What the merchant sees: a reversed payout failed after all (docs/api.md, "Payout results"). */
export function externalStatus(state: PayoutState): PayoutStatus {
  if (state === 'SUCCESS' || state === 'FAILED') return state;
  if (state === 'REVERSED') return 'FAILED';
  return 'PENDING';
}

/**
 * Whether the state machine has a move from `from` to `to`, for any cause: read from the table of transitions
 * (payout-transitions.ts), which also says what each move does to money. A posting that keeps the state (a
 * late debit) is not a move.
 */
export function canTransition(from: PayoutState, to: PayoutState): boolean {
  return PAYOUT_TRANSITIONS.some((t) => t.from === from && t.to === to && !t.keepsState);
}

/**
 * The states a payout may be in for a move to `to` for some cause. A caller asking the database for a move uses
 * `statesBefore(to, cause)` (payout-transitions.ts): the states for its own cause, which may make other postings.
 */
export function statesAllowedBefore(to: PayoutState): PayoutState[] {
  return PAYOUT_STATES.filter((from) => canTransition(from, to));
}

/**
 * Why a payout failed — the one list of reasons (the database's `failure_reason` enum holds the same) — and
 * who says so: our own balance check, the rail, or the beneficiary's bank sending a paid payout back.
 */
const FAILURE_REASON_SOURCE = {
  INSUFFICIENT_BALANCE: 'gateway',
  INVALID_BENEFICIARY_ACCOUNT: 'rail',
  INVALID_UPI_ADDRESS: 'rail',
  DECLINED_BY_BENEFICIARY_BANK: 'rail',
  RAIL_REJECTED: 'rail',
  REVERSED_BY_BENEFICIARY_BANK: 'reversal',
  BANK_DOWNTIME: 'downtime',
  CANCELLED_BY_MERCHANT: 'merchant',
} as const;

export type FailureReason = keyof typeof FAILURE_REASON_SOURCE;

/** The reasons a rail gives for a payout it refused or failed; no money moved for any of them. */
export type RailFailureReason = {
  [R in FailureReason]: (typeof FAILURE_REASON_SOURCE)[R] extends 'rail' ? R : never;
}[FailureReason];

export const RAIL_FAILURE_REASONS = (Object.keys(FAILURE_REASON_SOURCE) as FailureReason[]).filter(
  (reason): reason is RailFailureReason => FAILURE_REASON_SOURCE[reason] === 'rail',
);

export function isRailFailureReason(value: unknown): value is RailFailureReason {
  return (RAIL_FAILURE_REASONS as readonly unknown[]).includes(value);
}

/** The short reasons of the contract's fixed list, as they follow "MP007 - Transaction failed: ". */
export const FAILURE_REASON_TEXT: Record<FailureReason, string> = {
  INSUFFICIENT_BALANCE: 'insufficient balance in main wallet',
  INVALID_BENEFICIARY_ACCOUNT: 'invalid beneficiary account',
  INVALID_UPI_ADDRESS: 'invalid UPI address',
  DECLINED_BY_BENEFICIARY_BANK: 'declined by beneficiary bank',
  RAIL_REJECTED: 'rail rejected',
  REVERSED_BY_BENEFICIARY_BANK: 'reversed by beneficiary bank',
  BANK_DOWNTIME: 'bank downtime; retrying is safe',
  CANCELLED_BY_MERCHANT: 'cancelled by you',
};

/**
 * Whether a merchant may send the same payout again, under a new TransactionID, after it failed for this
 * reason, and expect it to go through (the lookups' `retryable`, CONTRACT.md "Several banks"): nothing was
 * paid, and the cause was ours, the merchant's own or passing — a downtime, a short balance (once the wallet
 * is funded), its own cancel. A refusal
 * about the beneficiary, or money sent back by the beneficiary's bank, would only come back the same way.
 */
export const FAILURE_REASON_RETRYABLE: Record<FailureReason, boolean> = {
  INSUFFICIENT_BALANCE: true,
  INVALID_BENEFICIARY_ACCOUNT: false,
  INVALID_UPI_ADDRESS: false,
  DECLINED_BY_BENEFICIARY_BANK: false,
  RAIL_REJECTED: false,
  REVERSED_BY_BENEFICIARY_BANK: false,
  BANK_DOWNTIME: true,
  CANCELLED_BY_MERCHANT: true,
};

/** The message of a pending payout waiting in its merchant's queue for balance. */
export const QUEUED_MESSAGE = 'MP006 - Your transaction is queued: insufficient balance in main wallet';

/**
 * The message of a payout held, reserved and unsent, while no bank serves its mode (CONTRACT.md "Several
 * banks"; docs/banks.md, "Holding").
 */
export const HELD_MESSAGE =
  'MP006 - Your transaction is held: the bank for this mode is down; it will be sent when it recovers';

/**
 * The message of a payout result, beginning with its result code (docs/api.md, "Response bodies"). `held`: the
 * payout waits for a bank to recover (ACCEPTED with `heldSince` set; `payoutResultMessage` decides).
 * `scheduledAt`: the time the merchant asked for; an ACCEPTED payout with one is not sent yet, since the
 * worker's claim moves it out of ACCEPTED (docs/api.md, "Scheduling a payout").
 */
export function payoutMessage(
  status: PayoutStatus,
  reason?: FailureReason | null,
  state?: PayoutState,
  held = false,
  scheduledAt?: Date | null,
): string {
  switch (status) {
    case 'PENDING':
      if (state === 'QUEUED') return QUEUED_MESSAGE;
      if (held) return HELD_MESSAGE;
      if (state === 'ACCEPTED' && scheduledAt) return scheduledMessage(scheduledAt);
      return 'MP006 - Your transaction is in progress';
    case 'SUCCESS':
      return 'MP00 - Transaction successful';
    case 'FAILED':
      return `MP007 - Transaction failed: ${FAILURE_REASON_TEXT[reason ?? 'RAIL_REJECTED']}`;
  }
}
