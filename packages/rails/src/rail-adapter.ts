import type { PayoutMode } from '@payout/domain';

/** Why a rail refused or failed a payout. No money moved for any of them. */
export const RAIL_FAILURE_REASONS = [
  'INVALID_BENEFICIARY_ACCOUNT',
  'INVALID_UPI_ADDRESS',
  'DECLINED_BY_BENEFICIARY_BANK',
  'RAIL_REJECTED',
] as const;
export type RailFailureReason = (typeof RAIL_FAILURE_REASONS)[number];

export function isRailFailureReason(value: unknown): value is RailFailureReason {
  return (RAIL_FAILURE_REASONS as readonly unknown[]).includes(value);
}

/** One payout as sent to a rail. */
export interface PayoutInstruction {
  /** Our Ack_no: the rail's idempotency key, so sending it again never pays twice. */
  reference: string;
  mode: PayoutMode;
  /** Whole paise; travels as a string of digits, never a float. */
  amountPaise: bigint;
  /** Bank account number (IMPS) or UPI address (UPI). */
  account: string;
  /** IMPS only. */
  ifsc?: string;
  beneficiaryName: string;
}

/**
 * What a rail said about a payout. Only SUCCESS and FAILED are final. UNKNOWN means we cannot tell what the
 * rail did (time-out, lost connection, 5xx, unreadable reply): the money may have moved, so the caller must
 * ask with {@link RailAdapter.status} before anything else, never fail the payout on it.
 */
export type RailAnswer =
  | { outcome: 'SUCCESS'; bankReference: string; raw: unknown }
  | { outcome: 'FAILED'; reason: RailFailureReason; raw: unknown }
  | { outcome: 'PENDING'; raw: unknown }
  | { outcome: 'UNKNOWN'; detail: string }
  | { outcome: 'NOT_FOUND'; raw: unknown };

/** The answer to a submit: the rail has just been handed the reference, so it cannot say NOT_FOUND. */
export type RailSubmitAnswer = Exclude<RailAnswer, { outcome: 'NOT_FOUND' }>;

/** A bank rail. Implementations never throw for network or HTTP trouble: they answer UNKNOWN. */
export interface RailAdapter {
  /** Hands a payout to the rail. Safe to repeat with the same reference: the rail pays at most once. */
  submit(instruction: PayoutInstruction): Promise<RailSubmitAnswer>;
  /** Asks the rail what became of a reference; NOT_FOUND means the rail never accepted it. */
  status(reference: string): Promise<RailAnswer>;
  /** Waits for calls in flight, then releases the connections. */
  close(): Promise<void>;
}
