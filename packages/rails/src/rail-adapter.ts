import type { Payout, RailAnswer } from '@payout/domain';

// A rail's failure reasons and its answers are the domain's (packages/domain: payout-state.ts and
// rail-outcome.ts): one list, one union, which the worker decides on as the rail gave them.
export { RAIL_FAILURE_REASONS, type RailAnswer, type RailFailureReason } from '@payout/domain';

/**
 * One payout as sent to a rail: the payout's own fields (packages/domain/src/payout.ts), in the rail's
 * words — our Ack_no is the rail's `reference`, its idempotency key, so sending it again never pays twice.
 * Amounts travel as strings of digits, never floats; `ifsc` only for IMPS.
 */
export type PayoutInstruction = Pick<Payout, 'mode' | 'amountPaise' | 'account'> & {
  reference: Payout['ackNo'];
  ifsc?: NonNullable<Payout['ifsc']>;
  beneficiaryName: Payout['name'];
};

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
