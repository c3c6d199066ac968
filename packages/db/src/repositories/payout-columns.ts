import type { Payout } from '@payout/domain';

/**
 * Each field of a payout (packages/domain/src/payout.ts) and its column in the `payouts` table
 * (prisma/schema.prisma): the one mapping between the two. Statements select the columns they need; rows
 * become payouts only through {@link payoutFromRow}.
 */
const PAYOUT_COLUMN = {
  id: 'id',
  merchantId: 'merchant_id',
  transactionId: 'transaction_id',
  mode: 'mode',
  amountPaise: 'amount_paise',
  ackNo: 'ack_no',
  account: 'beneficiary_account',
  ifsc: 'beneficiary_ifsc',
  name: 'beneficiary_name',
  bankName: 'beneficiary_bank_name',
  mobile: 'beneficiary_mobile',
  email: 'beneficiary_email',
  description: 'description',
  state: 'state',
  status: 'status',
  failureReason: 'failure_reason',
  bankReference: 'bank_reference',
  submitAttempts: 'submit_attempts',
  inquiryAttempts: 'inquiry_attempts',
  nextCheckAt: 'next_check_at',
  bank: 'bank',
  heldSince: 'held_since',
  scheduledAt: 'scheduled_at',
  createdAt: 'created_at',
} as const satisfies Record<keyof Payout, string>;

/** A row of `payouts` columns (enums as text, int8 as bigint), as a statement over them returns it. */
export type PayoutRow<K extends keyof Payout> = { [F in K as (typeof PAYOUT_COLUMN)[F]]: Payout[F] };

/** The payout fields `fields` of a row that selected their columns (under the columns' own names). */
export function payoutFromRow<K extends keyof Payout>(row: PayoutRow<K>, fields: readonly K[]): Pick<Payout, K> {
  const payout: Partial<Pick<Payout, K>> = {};
  const columns = row as Record<string, unknown>;
  for (const field of fields) payout[field] = columns[PAYOUT_COLUMN[field]] as Payout[K];
  return payout as Pick<Payout, K>;
}
