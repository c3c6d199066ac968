import type { BankName } from './banks.js';
import type { Paise } from './money.js';
import type { FailureReason, PayoutMode, PayoutState, PayoutStatus } from './payout-state.js';

/**
 * A payout: a merchant's instruction to send money to one beneficiary, and where it stands. This is the one
 * description of a payout's fields; every other view of a payout in the code (what a request carries, what
 * the accept records, what a merchant is told, what the worker drives, what a rail is sent) is a `Pick` of it,
 * so a field is named and described once. The `payouts` table holds the same fields (prisma/schema.prisma;
 * packages/db maps its columns to these names in one place).
 */
export interface Payout {
  /** The database's id; job ids derive from it. */
  id: bigint;
  merchantId: number;
  /** The merchant's own identifier: 1–30 digits, unique per merchant across modes (docs/api.md). */
  transactionId: string;
  mode: PayoutMode;
  amountPaise: Paise;
  /** Our reference (`Ack_no` on the wire), also the idempotency reference sent to the rail. */
  ackNo: string;
  /** Bank account number (IMPS) or UPI address (UPI). */
  account: string;
  /** The branch's IFSC for IMPS; null for UPI. */
  ifsc: string | null;
  /** The beneficiary's name, as given (trimmed). */
  name: string;
  bankName: string | null;
  mobile: string | null;
  email: string | null;
  description: string | null;
  /**
   * When the merchant asked for it to be sent (docs/api.md, "Scheduling a payout"); null to send it at once.
   * The worker's claim refuses it before this time, and it waits, reserved, as ACCEPTED until then.
   */
  scheduledAt: Date | null;
  /** Where the payout stands inside the gateway (payout-state.ts has the moves allowed). */
  state: PayoutState;
  /** What the merchant sees; follows from `state`. */
  status: PayoutStatus;
  failureReason: FailureReason | null;
  /** The rail's UTR, once paid (and kept after a reversal). */
  bankReference: string | null;
  /** How many times the instruction was sent to the rail (always under the same `ackNo`). */
  submitAttempts: number;
  /** How many times the rail was asked for the outcome. */
  inquiryAttempts: number;
  /** When the next step is due; an overdue payout is queued again by the sweeper. */
  nextCheckAt: Date | null;
  /**
   * The sponsor bank it was sent to (an alias of BANKS, docs/banks.md); null until it is first sent. Every
   * later status check, resubmit and reversal goes to this bank.
   */
  bank: BankName | null;
  /** Since when it has waited, reserved and unsent, because no bank serves its mode (docs/banks.md, "Holding"). */
  heldSince: Date | null;
  createdAt: Date;
}

/** The members of a payout request, whichever mode's body they came in (apps/api maps each body onto these). */
export type PayoutRequest = Pick<
  Payout,
  | 'mode'
  | 'transactionId'
  | 'amountPaise'
  | 'account'
  | 'ifsc'
  | 'name'
  | 'bankName'
  | 'mobile'
  | 'email'
  | 'description'
  | 'scheduledAt'
>;

/** A request of a known merchant with our reference drawn: what the accept records. */
export type PayoutInstructionRecord = PayoutRequest & Pick<Payout, 'merchantId' | 'ackNo'>;

/** What identifies an instruction: where the money goes, how much and when (payout-instruction.ts says why). */
export type InstructionIdentity = Pick<Payout, 'mode' | 'amountPaise' | 'account' | 'ifsc' | 'name' | 'scheduledAt'>;

/** What a merchant may be told about a payout, and what a replay is compared against. */
export type PayoutSummary = Pick<
  Payout,
  | 'id'
  | 'merchantId'
  | 'transactionId'
  | 'mode'
  | 'amountPaise'
  | 'ackNo'
  | 'state'
  | 'status'
  | 'failureReason'
  | 'bankReference'
  | 'account'
  | 'ifsc'
  | 'name'
  | 'scheduledAt'
>;

/** Everything the worker needs to drive one payout. */
export type PayoutForWork = Pick<
  Payout,
  | 'id'
  | 'merchantId'
  | 'mode'
  | 'amountPaise'
  | 'ackNo'
  | 'state'
  | 'account'
  | 'ifsc'
  | 'name'
  | 'submitAttempts'
  | 'inquiryAttempts'
  | 'nextCheckAt'
  | 'createdAt'
  | 'bank'
>;
