import { FAILURE_REASON_TEXT, type FailureReason } from './payout-state.js';
import type { RailAnswer } from './rail-outcome.js';

/**
 * Why a settlement fails a payout, whether the rail says so or a person resolving it by hand: never a short
 * balance (intake decides that one, before anything is reserved) and never a reversal (a paid payout the bank
 * sends back becomes REVERSED with its own ledger entry, docs/reconciliation.md; the database's
 * `payouts_reversed_has_its_reason` refuses that reason on any other state), and never a bank downtime (a
 * payout held unsent past its hold window fails with it, docs/banks.md; a payout a bank holds is not unsent),
 * and never a cancel (only its merchant cancels, and only a payout no bank was sent).
 */
export type SettlementFailureReason = Exclude<
  FailureReason,
  'INSUFFICIENT_BALANCE' | 'REVERSED_BY_BENEFICIARY_BANK' | 'BANK_DOWNTIME' | 'CANCELLED_BY_MERCHANT'
>;

export function isSettlementFailureReason(value: unknown): value is SettlementFailureReason {
  return (
    typeof value === 'string' &&
    Object.hasOwn(FAILURE_REASON_TEXT, value) &&
    value !== 'INSUFFICIENT_BALANCE' &&
    value !== 'REVERSED_BY_BENEFICIARY_BANK' &&
    value !== 'BANK_DOWNTIME' &&
    value !== 'CANCELLED_BY_MERCHANT'
  );
}

/**
 * The reasons a person may resolve a payout under manual review as failed with (docs/operations.md, "Resolving
 * a payout under manual review"), in the contract's order; the CLI, the admin JSON API and the console offer
 * this list, the console with each reason's {@link FAILURE_REASON_TEXT}.
 */
export const RESOLUTION_FAILURE_REASONS = (Object.keys(FAILURE_REASON_TEXT) as FailureReason[]).filter(
  isSettlementFailureReason,
) as [SettlementFailureReason, ...SettlementFailureReason[]];

/** What an operator asks for a payout under manual review. */
export type ResolutionRequest =
  { outcome: 'SUCCESS'; bankReference?: string } | { outcome: 'FAILED'; reason: SettlementFailureReason };

/** What happens to the request once the rail has been asked. */
export type ResolutionDecision =
  | { kind: 'settle-success'; bankReference: string }
  | { kind: 'settle-failure'; reason: SettlementFailureReason }
  /** The rail disagrees (or cannot say): nothing changes unless the operator overrides with a reason. */
  | { kind: 'refuse'; why: string };

/**
 * The rule book of manual resolution (docs/operations.md, "Resolving a payout under manual review"): a
 * person's decision must agree with the rail's final answer. Failing a payout the rail paid, or may still
 * pay, would hand the merchant money that has left; marking as paid one the rail failed or never saw would
 * take money that never left. So the operator's request stands only when the rail says the same, and
 * otherwise only with an override, whose reason goes to the audit log. An unreachable rail is not a "no".
 */
export function decideResolution(request: ResolutionRequest, rail: RailAnswer, override: boolean): ResolutionDecision {
  const proceed = (): ResolutionDecision =>
    request.outcome === 'SUCCESS'
      ? { kind: 'settle-success', bankReference: request.bankReference ?? bankReferenceOf(rail) ?? '' }
      : { kind: 'settle-failure', reason: request.reason };
  if (request.outcome === 'SUCCESS' && !request.bankReference && rail.outcome !== 'SUCCESS') {
    return { kind: 'refuse', why: 'a success needs the bank reference (UTR), and the rail gave none' };
  }
  if (override) return proceed();
  switch (rail.outcome) {
    case 'SUCCESS':
      if (request.outcome === 'FAILED')
        return { kind: 'refuse', why: `the rail says SUCCESS (UTR ${rail.bankReference})` };
      if (request.bankReference && request.bankReference !== rail.bankReference) {
        return { kind: 'refuse', why: `the rail's UTR is ${rail.bankReference}, not ${request.bankReference}` };
      }
      return proceed();
    case 'FAILED':
      return request.outcome === 'FAILED'
        ? proceed()
        : { kind: 'refuse', why: `the rail says FAILED (${rail.reason})` };
    case 'NOT_FOUND':
      // The rail never accepted the reference, so no money moved: failing it returns the reservation.
      return request.outcome === 'FAILED'
        ? proceed()
        : { kind: 'refuse', why: 'the rail has no payment under this Ack_no' };
    case 'REVERSED':
      // Paid, then returned to us: no money is with the beneficiary, so failing it returns the reservation.
      return request.outcome === 'FAILED'
        ? proceed()
        : { kind: 'refuse', why: `the rail says the payment (UTR ${rail.bankReference}) was reversed` };
    case 'PENDING':
      return { kind: 'refuse', why: 'the rail says it is still PENDING' };
    case 'UNKNOWN':
      return { kind: 'refuse', why: `the rail could not be asked (${rail.detail})` };
    case 'REFUSED':
      // Only a submit is refused; a refusal says nothing of whether an earlier submit was paid.
      return {
        kind: 'refuse',
        why: `the rail refused the instruction (${rail.detail}) without saying what became of it`,
      };
  }
}

function bankReferenceOf(rail: RailAnswer): string | undefined {
  return rail.outcome === 'SUCCESS' ? rail.bankReference : undefined;
}

/**
 * An override asked again at approval (docs/operations.md, "Resolving a payout under manual review"): an
 * override stands on the maker's word where the rail could not settle the question, never against a rail
 * that now says the opposite. Failing a payout the rail says it paid would hand the merchant money that
 * has left; marking as paid one the rail says it failed would take money that never left. So when the
 * rail's fresh answer is SUCCESS and the override says FAILED, or FAILED and the override says SUCCESS,
 * the approval is refused, naming both the answer the maker saw and the one the rail gives now.
 */
export function overrideAtApproval(
  request: ResolutionRequest,
  makerSaw: string,
  railNow: RailAnswer,
): { kind: 'stands' } | { kind: 'contradicted'; why: string } {
  const contradicted =
    (railNow.outcome === 'SUCCESS' && request.outcome === 'FAILED') ||
    (railNow.outcome === 'FAILED' && request.outcome === 'SUCCESS');
  if (!contradicted) return { kind: 'stands' };
  return {
    kind: 'contradicted',
    why: `the rail now says ${describeRailAnswer(railNow)} (when it was asked, ${makerSaw}), and the override says ${request.outcome}`,
  };
}

/** A rail's answer in a few words, as a person reads it beside another (previews, refusals). */
export function describeRailAnswer(answer: RailAnswer): string {
  switch (answer.outcome) {
    case 'SUCCESS':
      return `SUCCESS, UTR ${answer.bankReference}`;
    case 'FAILED':
      return `FAILED (${answer.reason})`;
    case 'REVERSED':
      return `REVERSED (UTR ${answer.bankReference})`;
    case 'UNKNOWN':
      return `no answer (${answer.detail})`;
    case 'REFUSED':
      return `refused (${answer.detail})`;
    default:
      return answer.outcome;
  }
}
