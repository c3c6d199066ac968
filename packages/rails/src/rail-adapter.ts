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
 * What a rail said about a payout. Only SUCCESS, FAILED and REVERSED are the rail's word on the money.
 * UNKNOWN means we cannot tell what the rail did (time-out, lost connection, 5xx, unreadable reply): the
 * money may have moved, so the caller must ask with {@link RailAdapter.status} before anything else, never
 * fail the payout on it. REFUSED is a submit the rail turned away with a 4xx: it says nothing certain
 * either — a bank that already holds the reference (it paid it, and the reply was lost) may refuse the
 * resubmit as a duplicate — so it too is settled only by asking (docs/bank-boundary.md).
 */
export type RailAnswer =
  | { outcome: 'SUCCESS'; bankReference: string; raw: unknown }
  | { outcome: 'FAILED'; reason: RailFailureReason; raw: unknown }
  | { outcome: 'PENDING'; raw: unknown }
  /** A payout the rail paid came back (a bounced credit, a return): `bankReference` is the original UTR. */
  | { outcome: 'REVERSED'; bankReference: string; raw: unknown }
  | { outcome: 'UNKNOWN'; detail: string }
  | { outcome: 'NOT_FOUND'; raw: unknown }
  | { outcome: 'REFUSED'; detail: string; raw: unknown };

/** The answer to a submit: the rail has just been handed the reference, so it cannot say NOT_FOUND. */
export type RailSubmitAnswer = Exclude<RailAnswer, { outcome: 'NOT_FOUND' }>;

/** A bank account whose holder is asked about (a penny-less check: no money moves). */
export interface AccountToValidate {
  /** 9 to 18 digits. */
  account: string;
  ifsc: string;
}

/**
 * What a rail said about a beneficiary. VALID carries the name the bank holds; INVALID means the account
 * or UPI address does not exist; UNKNOWN means the rail could not be asked or did not answer in time.
 */
export type BeneficiaryValidation =
  | { outcome: 'VALID'; registeredName: string; raw: unknown }
  | { outcome: 'INVALID'; raw: unknown }
  | { outcome: 'UNKNOWN'; detail: string };

/** The answer to a status inquiry: nothing was submitted, so nothing was refused. */
export type RailStatusAnswer = Exclude<RailAnswer, { outcome: 'REFUSED' }>;

/**
 * A bank rail. Implementations never throw for network or HTTP trouble: they answer UNKNOWN. Every `raw`
 * and `detail` they return can be stored in PostgreSQL as it is (no NUL characters, no broken Unicode).
 */
export interface RailAdapter {
  /** Hands a payout to the rail. Safe to repeat with the same reference: the rail pays at most once. */
  submit(instruction: PayoutInstruction): Promise<RailSubmitAnswer>;
  /** Asks the rail what became of a reference; NOT_FOUND means the rail does not (yet) show it. */
  status(reference: string): Promise<RailStatusAnswer>;
  /** Asks the bank whether an account exists at this IFSC, and in whose name. Moves no money. */
  validateAccount(account: AccountToValidate): Promise<BeneficiaryValidation>;
  /** Asks the UPI network whether an address exists, and in whose name. Moves no money. */
  validateUpi(upi: string): Promise<BeneficiaryValidation>;
  /** Waits for calls in flight, then releases the connections. */
  close(): Promise<void>;
}

/**
 * A bank reference (UTR) we can record: letters and digits, at most 35 (ISO 20022's Max35Text, the longest
 * reference a rail carries; IMPS and UPI use 12 digits). Anything else is a garbled reply, not a payment.
 */
export function isBankReference(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9]{1,35}$/.test(value);
}
