import type { PayoutMode, RailFailureReason } from './payout-state.js';

/**
 * What a rail said about a payout: the adapters in packages/rails give it, the worker decides on it
 * ({@link nextStep}). Only SUCCESS, FAILED and REVERSED are the rail's word on the money. UNKNOWN means we
 * cannot tell what the rail did (time-out, lost connection, 5xx, unreadable reply): the money may have
 * moved, so the payout is asked about, never failed on it. REFUSED is a submit the rail turned away with a
 * 4xx: it says nothing certain either — a bank that already holds the reference (it paid it, and the reply
 * was lost) may refuse the resubmit as a duplicate — so it too is settled only by asking
 * (docs/bank-boundary.md). `raw` is the rail's reply as received, kept with the payout's events; an answer
 * that is not the rail's own reply (UNKNOWN) has none.
 */
export type RailAnswer =
  | { outcome: 'SUCCESS'; bankReference: string; raw?: unknown }
  | { outcome: 'FAILED'; reason: RailFailureReason; raw?: unknown }
  | { outcome: 'PENDING'; raw?: unknown }
  /** The rail paid it, and the money came back: `bankReference` is the original payment's. */
  | { outcome: 'REVERSED'; bankReference: string; raw?: unknown }
  | { outcome: 'UNKNOWN'; detail: string }
  | { outcome: 'NOT_FOUND'; raw?: unknown }
  | { outcome: 'REFUSED'; detail: string; raw?: unknown };

/** What else the worker knows about the payout when the answer comes. */
export interface Circumstances {
  /** Undecided for longer than the inquiry deadline. */
  deadlinePassed: boolean;
  /** Status checks the payout's mode still allows it ({@link InquirySchedule.maxChecks} less those made). */
  checksLeft: number;
  /**
   * Whether the rail has refused a submit of this payout, and if so whether long enough ago that a
   * NOT_FOUND from its status API is to be believed (its status API lags the payment; the age is
   * configured, RAIL_NOT_FOUND_TRUSTED_AFTER_MS).
   */
  refused: 'never' | 'recently' | 'long-ago';
}

/** What to do with a payout after hearing from the rail. */
export type NextStep =
  | { kind: 'settle-success'; bankReference: string }
  | { kind: 'settle-failure'; reason: RailFailureReason }
  /** It was paid and came back: settle it SUCCESS if it is not yet, then return the money (a reversal). */
  | { kind: 'reverse'; bankReference: string }
  /** Undecided: ask again later. The state says whether the rail has it (AWAITING_RAIL) or we cannot tell. */
  | { kind: 'inquire-later'; state: 'AWAITING_RAIL' | 'OUTCOME_UNKNOWN' }
  /** The rail never saw the instruction: send it again, under the same reference. */
  | { kind: 'resubmit' }
  /**
   * Undecided past the deadline, or after every status check the rail's rules allow: the daily statement
   * or an operator decides. Still PENDING to the merchant.
   */
  | { kind: 'manual-review'; why: 'deadline' | 'checks-used-up' };

/**
 * The worker's rule book (docs/bank-boundary.md). Only the rail's definite word settles: SUCCESS, FAILED,
 * or REVERSED. Nothing the rail failed to say is taken as a failure — not a time-out, not a garbled reply,
 * not a 4xx refusal of a submit (a bank that already paid the reference refuses its resubmit as a
 * duplicate) — and a NOT_FOUND fails a payout only once the rail has refused it and its status API has had
 * long enough to catch up. Until then an undecided payout is asked about again, as often as its mode's
 * rules allow, and then left to the statement or a person.
 */
export function nextStep(verdict: RailAnswer, circumstances: Circumstances): NextStep {
  switch (verdict.outcome) {
    case 'SUCCESS':
      return { kind: 'settle-success', bankReference: verdict.bankReference };
    case 'FAILED':
      return { kind: 'settle-failure', reason: verdict.reason };
    case 'REVERSED':
      return { kind: 'reverse', bankReference: verdict.bankReference };
    case 'NOT_FOUND':
      return afterNotFound(circumstances);
    case 'PENDING':
      return undecided('AWAITING_RAIL', circumstances);
    case 'UNKNOWN':
    case 'REFUSED':
      return undecided('OUTCOME_UNKNOWN', circumstances);
  }
}

function afterNotFound(circumstances: Circumstances): NextStep {
  switch (circumstances.refused) {
    case 'long-ago':
      // Refused, and still unknown to the rail long after: nothing was paid.
      return { kind: 'settle-failure', reason: 'RAIL_REJECTED' };
    case 'recently':
      // Sending it again would only be refused again, and the status API may not show the payment yet.
      return undecided('OUTCOME_UNKNOWN', circumstances);
    case 'never':
      // The rail never got it (the submit was lost before it arrived): send it again, same reference.
      return circumstances.deadlinePassed ? { kind: 'manual-review', why: 'deadline' } : { kind: 'resubmit' };
  }
}

function undecided(state: 'AWAITING_RAIL' | 'OUTCOME_UNKNOWN', circumstances: Circumstances): NextStep {
  if (circumstances.deadlinePassed) return { kind: 'manual-review', why: 'deadline' };
  if (circumstances.checksLeft <= 0) return { kind: 'manual-review', why: 'checks-used-up' };
  return { kind: 'inquire-later', state };
}

/**
 * When and how often a payout of one mode may be asked about. The defaults follow NPCI's rules for UPI
 * status checks and the IMPS turnaround times; docs/bank-boundary.md gives them with their sources.
 */
export interface InquirySchedule {
  /** Wait after a submit before the first status check. */
  firstDelayMs: number;
  /** Wait between one status check and the next. */
  spacingMs: number;
  /** Most status checks per payout; after them the statement or a person decides. */
  maxChecks: number;
}

export type InquirySchedules = Record<PayoutMode, InquirySchedule>;

/**
 * What a status check comes after: a submit of the payout to the rail (its first, or a resubmit after the
 * rail said it never saw it), or an earlier status check.
 */
type CheckAfter = 'submit' | 'status-check';

/**
 * How long to wait before the next status check: the first delay after a submit, the spacing after a status
 * check, plus up to 10 % random jitter so payouts that went undecided together do not ask together. Jitter
 * only ever lengthens the wait, so a check is never earlier than the rules allow.
 *
 * A resubmit starts the schedule again from the first delay: the rail said NOT_FOUND, so it holds no payment
 * under the reference, and the resubmit is, to the bank, a new instruction whose first check is due after
 * the first delay. The spacing is for a payment the bank may hold; applying it to one the bank never saw
 * turned a short outage (a submit answered 503, a NOT_FOUND, a resubmit answered 503) into a quarter of an
 * hour's wait for IMPS and three quarters of an hour for UPI (docs/bank-boundary.md).
 */
export function inquiryDelayMs(
  after: CheckAfter,
  schedule: InquirySchedule,
  random: () => number = Math.random,
): number {
  const base = after === 'submit' ? schedule.firstDelayMs : schedule.spacingMs;
  return Math.round(base * (1 + 0.1 * random()));
}
