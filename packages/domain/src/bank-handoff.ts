import { nextStep, type Circumstances, type NextStep, type RailAnswer } from './rail-outcome.js';

/**
 * The never-two-banks rule (docs/banks.md, "Never two banks"). A payout is sent to one bank under its
 * Ack_no; that bank pays a reference at most once, but another bank knows nothing of it, so sending the same
 * payout to a second bank while the first may still pay it could pay the beneficiary twice. A payout may
 * therefore leave its bank only when that bank said definitively that it did not and will not pay it:
 *
 * - it refused the one submit it was ever sent of the payout (a 4xx, `REFUSED`): the bank turned the
 *   instruction away before accepting it, and with no earlier submit there is nothing it could be refusing
 *   as a duplicate (a refusal of a resubmit says nothing: a bank that paid the reference and lost the reply
 *   refuses the resubmit exactly so — docs/bank-boundary.md);
 * - its status API says `NOT_FOUND` at least RAIL_NOT_FOUND_TRUSTED_AFTER_MS after our last submit to it:
 *   the status API lags a payment by less than that, so the bank holds nothing under the reference (the
 *   same trust the worker already puts in a NOT_FOUND after a refusal to fail a payout).
 *
 * Nothing else allows it: not a time-out, a 5xx or a lost reply (`UNKNOWN`: the money may have moved), not an
 * early NOT_FOUND, and never anything once the bank has said it took the payout (`PENDING`, `SUCCESS`,
 * `FAILED`, `REVERSED`). Even then the payout moves only when routing says its bank no longer serves its
 * mode (eliminated, paused, draining, disabled); a bank still serving gets the payout again under the same
 * reference, as with one bank ({@link bankStep}).
 */

export type RailOutcome = RailAnswer['outcome'];

/**
 * One exchange with a bank about a payout, as the payout's events keep them: a submit we sent (whatever
 * became of it), or an answer the bank gave (to a submit or to a status check).
 */
export type BankExchange = { kind: 'submit'; at: number } | { kind: 'answer'; outcome: RailOutcome; at: number };

/** Answers by which the bank said it took the payout: after any of them it never leaves that bank. */
const BANK_TOOK_IT: readonly RailOutcome[] = ['PENDING', 'SUCCESS', 'FAILED', 'REVERSED'];

export type Handoff =
  | { may: true; because: 'refused-before-acceptance' | 'not-found-long-after-submit' }
  | {
      may: false;
      because: 'bank-took-it' | 'undecided' | 'refused-resubmit' | 'not-found-too-soon' | 'nothing-sent';
      /** For a NOT_FOUND too soon: from when the same answer would be believed. */
      trustedAt?: number;
    };

/**
 * Whether the payout may leave the bank whose exchanges these are (every exchange since it was sent there,
 * oldest first; the last one is the answer being acted on).
 */
export function mayLeaveBank(exchanges: readonly BankExchange[], notFoundTrustedAfterMs: number): Handoff {
  const submits = exchanges.filter((e) => e.kind === 'submit');
  const lastSubmit = submits.at(-1);
  if (!lastSubmit) return { may: false, because: 'nothing-sent' };
  const answers = exchanges.filter((e) => e.kind === 'answer');
  if (answers.some((a) => BANK_TOOK_IT.includes(a.outcome))) return { may: false, because: 'bank-took-it' };
  const latest = exchanges.at(-1);
  if (latest?.kind !== 'answer') return { may: false, because: 'undecided' };
  switch (latest.outcome) {
    case 'REFUSED':
      return submits.length === 1
        ? { may: true, because: 'refused-before-acceptance' }
        : { may: false, because: 'refused-resubmit' };
    case 'NOT_FOUND': {
      const trustedAt = lastSubmit.at + notFoundTrustedAfterMs;
      return latest.at >= trustedAt
        ? { may: true, because: 'not-found-long-after-submit' }
        : { may: false, because: 'not-found-too-soon', trustedAt };
    }
    default:
      return { may: false, because: 'undecided' };
  }
}

/** Where the payout's bank stands when its answer comes. */
export interface BankStanding {
  /** Routing would still send new payouts of this mode to the bank (docs/banks.md, "Routing"). */
  serving: boolean;
  /**
   * The exchanges with this bank since the payout was sent to it, the answer acted on last. Needed only when
   * {@link needsExchanges} says so (the worker reads them from the payout's events).
   */
  exchanges?: readonly BankExchange[];
}

/** What to do after a bank's answer, with several banks: the rule book's step, or a move to another bank. */
export type BankStep =
  | NextStep
  /** The bank said definitively it did not pay it and no longer serves: send it to another bank. */
  | { kind: 'move-to-another-bank'; because: 'refused-before-acceptance' | 'not-found-long-after-submit' }
  /**
   * A NOT_FOUND from a bank no longer serving, too soon after our last submit to believe: neither resubmit
   * to it (that would restart the wait) nor move; ask again once the NOT_FOUND can be believed.
   */
  | { kind: 'ask-when-trusted'; at: number };

/** Whether {@link bankStep} needs the bank's exchanges for this answer: a rare path, read only then. */
export function needsExchanges(answer: RailAnswer, standing: Pick<BankStanding, 'serving'>): boolean {
  return !standing.serving && (answer.outcome === 'NOT_FOUND' || answer.outcome === 'REFUSED');
}

/**
 * The worker's rule book with several banks: {@link nextStep} for a bank still serving (as with one bank),
 * and for a bank no longer serving, a move once {@link mayLeaveBank} allows it.
 */
export function bankStep(
  answer: RailAnswer,
  circumstances: Circumstances,
  standing: BankStanding,
  notFoundTrustedAfterMs: number,
): BankStep {
  if (!needsExchanges(answer, standing)) return nextStep(answer, circumstances);
  const handoff = mayLeaveBank(standing.exchanges ?? [], notFoundTrustedAfterMs);
  if (handoff.may) return { kind: 'move-to-another-bank', because: handoff.because };
  if (answer.outcome === 'NOT_FOUND' && handoff.because === 'not-found-too-soon' && handoff.trustedAt !== undefined) {
    if (circumstances.deadlinePassed) return { kind: 'manual-review', why: 'deadline' };
    if (circumstances.checksLeft <= 0) return { kind: 'manual-review', why: 'checks-used-up' };
    return { kind: 'ask-when-trusted', at: handoff.trustedAt };
  }
  return nextStep(answer, circumstances);
}
