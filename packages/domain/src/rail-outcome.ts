import type { FailureReason } from './payout-state.js';

/** What the rail told us about a payout, as the worker sees it (see @payout/rails). */
export type RailVerdict =
  | { outcome: 'SUCCESS'; bankReference: string }
  | { outcome: 'FAILED'; reason: Exclude<FailureReason, 'INSUFFICIENT_BALANCE'> }
  | { outcome: 'PENDING' }
  | { outcome: 'UNKNOWN'; detail: string }
  | { outcome: 'NOT_FOUND' };

/** What to do with a payout after hearing from the rail. */
export type NextStep =
  | { kind: 'settle-success'; bankReference: string }
  | { kind: 'settle-failure'; reason: Exclude<FailureReason, 'INSUFFICIENT_BALANCE'> }
  /** Undecided: ask again later. The state says whether the rail has it (AWAITING_RAIL) or we cannot tell. */
  | { kind: 'inquire-later'; state: 'AWAITING_RAIL' | 'OUTCOME_UNKNOWN' }
  /** The rail never saw the instruction: send it again, under the same reference. */
  | { kind: 'resubmit' }
  /** Undecided past the deadline: an operator must resolve it. Still PENDING to the merchant. */
  | { kind: 'manual-review' };

/**
 * The worker's rule book. A definite answer settles; an undecided one waits; an unknown outcome is never
 * treated as a failure (the money may have moved) and never resubmitted under a new reference; past the
 * deadline an undecided payout goes to a person instead of being guessed.
 */
export function nextStep(verdict: RailVerdict, deadlinePassed: boolean): NextStep {
  switch (verdict.outcome) {
    case 'SUCCESS':
      return { kind: 'settle-success', bankReference: verdict.bankReference };
    case 'FAILED':
      return { kind: 'settle-failure', reason: verdict.reason };
    case 'NOT_FOUND':
      return deadlinePassed ? { kind: 'manual-review' } : { kind: 'resubmit' };
    case 'PENDING':
      return deadlinePassed ? { kind: 'manual-review' } : { kind: 'inquire-later', state: 'AWAITING_RAIL' };
    case 'UNKNOWN':
      return deadlinePassed ? { kind: 'manual-review' } : { kind: 'inquire-later', state: 'OUTCOME_UNKNOWN' };
  }
}

export interface InquirySchedule {
  firstDelayMs: number;
  maxDelayMs: number;
}

/**
 * How long to wait before inquiry number `attempt` (1, 2, …): doubling from the first delay up to the cap,
 * with up to 20 % random jitter so many payouts that went undecided together do not ask together.
 */
export function inquiryDelayMs(attempt: number, schedule: InquirySchedule, random: () => number = Math.random): number {
  const exponential = schedule.firstDelayMs * 2 ** Math.max(0, Math.min(attempt - 1, 30));
  const capped = Math.min(exponential, schedule.maxDelayMs);
  return Math.round(capped * (1 + 0.2 * random()));
}
