import type { Paise, Payout, PayoutInstructionRecord, PayoutState, PayoutStatus, PayoutSummary } from '@payout/domain';
import { sql, sqlRows, type PrismaClient, type PrismaClientOrTransaction, type Transaction } from '../client.js';
import { isRetryableTransactionError } from '../database-errors.js';
import { payoutFromRow, type PayoutRow } from './payout-columns.js';

/**
 * accepted: recorded and reserved; rejected: recorded as FAILED for insufficient balance;
 * existing: the merchant already used this TransactionID (the payout is returned as it stands).
 */
export type AcceptOutcome = 'accepted' | 'rejected' | 'existing';

export interface AcceptResult {
  outcome: AcceptOutcome;
  payout: PayoutSummary;
}

/** What a merchant may be told about a payout: the fields of a {@link PayoutSummary}. */
const SUMMARY_FIELDS = [
  'id',
  'merchantId',
  'transactionId',
  'mode',
  'amountPaise',
  'ackNo',
  'state',
  'status',
  'failureReason',
  'bankReference',
  'account',
  'ifsc',
  'name',
  'scheduledAt',
] as const satisfies readonly (keyof PayoutSummary)[];

type SummaryRow = PayoutRow<(typeof SUMMARY_FIELDS)[number]>;

/** What a status lookup tells besides the summary: the bank it was sent to, and whether it is held. */
export const LOOKUP_FIELDS = [...SUMMARY_FIELDS, 'bank', 'heldSince'] as const satisfies readonly (keyof Payout)[];

/** A payout as a status lookup finds it (packages/contract's `payoutStatusBody`). */
export type PayoutLookup = PayoutSummary & Pick<Payout, 'bank' | 'heldSince'>;

type LookupRow = PayoutRow<(typeof LOOKUP_FIELDS)[number]>;

const MAX_DEADLOCK_RETRIES = 5;

/**
 * Accepts payout instructions in one statement (the `accept_payouts` function,
 * packages/db/sql/functions/accept_payouts.sql; one round trip): for
 * each, in order, claim merchant + TransactionID, reserve the amount if the available balance allows,
 * and record the payout with its ledger legs and first event. Results come back in the same order.
 * A deadlock rolls the whole statement back, so it is simply run again; that is why this runs as its
 * own transaction and takes the client, not a caller's transaction.
 */
export async function acceptPayouts(
  db: PrismaClient,
  instructions: readonly PayoutInstructionRecord[],
): Promise<AcceptResult[]> {
  const items = acceptItems(instructions);
  for (let attempt = 1; ; attempt++) {
    try {
      return await acceptStatement(db, items);
    } catch (error) {
      if (attempt >= MAX_DEADLOCK_RETRIES || !isRetryableTransactionError(error)) throw error;
    }
  }
}

/**
 * {@link acceptPayouts} inside a caller's transaction, for a batch that must be accepted with the rest of
 * that transaction or not at all (an operator's bulk batch, run on its approval: docs/operations.md, "Bulk
 * payouts from a file"). The same `accept_payouts` statement; a deadlock fails the caller's transaction,
 * which cannot be run again from here.
 */
export function acceptPayoutsInTransaction(
  tx: Transaction,
  instructions: readonly PayoutInstructionRecord[],
): Promise<AcceptResult[]> {
  return acceptStatement(tx, acceptItems(instructions));
}

function acceptItems(instructions: readonly PayoutInstructionRecord[]): string {
  return JSON.stringify(
    instructions.map((i) => ({
      merchant_id: i.merchantId,
      transaction_id: i.transactionId,
      mode: i.mode,
      amount_paise: i.amountPaise.toString(),
      ack_no: i.ackNo,
      account: i.account,
      ifsc: i.ifsc,
      name: i.name,
      bank_name: i.bankName,
      mobile: i.mobile,
      email: i.email,
      description: i.description,
      scheduled_at: i.scheduledAt,
    })),
  );
}

async function acceptStatement(db: PrismaClientOrTransaction, items: string): Promise<AcceptResult[]> {
  const rows = await sqlRows<SummaryRow & { outcome: AcceptOutcome }>(
    db,
    sql`SELECT * FROM accept_payouts(${items}::jsonb)`,
  );
  return rows.map((row) => ({ outcome: row.outcome, payout: payoutFromRow(row, SUMMARY_FIELDS) }));
}

/** Where a payout goes: an account and its branch's IFSC (IMPS), or a UPI address with no IFSC. */
export interface BeneficiaryKey {
  account: string;
  ifsc: string | null;
}

/**
 * Which of `beneficiaries` this merchant has paid out to before (any earlier payout to the same account and
 * IFSC, or the same UPI address), as `beneficiaryKeyOf` keys: what an approver of an operator's batch is
 * shown beside each line (docs/operations.md, "Bulk payouts from a file").
 */
export async function findKnownBeneficiaries(
  db: PrismaClientOrTransaction,
  merchantId: number,
  beneficiaries: readonly BeneficiaryKey[],
): Promise<Set<string>> {
  if (beneficiaries.length === 0) return new Set();
  const rows = await sqlRows<{ account: string; ifsc: string | null }>(
    db,
    sql`SELECT DISTINCT p.beneficiary_account AS account, p.beneficiary_ifsc::text AS ifsc
          FROM unnest(${beneficiaries.map((b) => b.account)}::text[], ${beneficiaries.map((b) => b.ifsc)}::text[])
               AS b(account, ifsc)
          JOIN payouts p ON p.merchant_id = ${merchantId} AND p.beneficiary_account = b.account
                        AND p.beneficiary_ifsc::text IS NOT DISTINCT FROM b.ifsc`,
  );
  return new Set(rows.map(beneficiaryKeyOf));
}

/** One text per beneficiary, for sets and maps. */
export function beneficiaryKeyOf(beneficiary: BeneficiaryKey): string {
  return beneficiary.ifsc === null ? beneficiary.account : `${beneficiary.account} ${beneficiary.ifsc}`;
}

/** A merchant's payout by its TransactionID; another merchant's is never found. */
export async function findPayoutByTransactionId(
  db: PrismaClientOrTransaction,
  merchantId: number,
  transactionId: string,
): Promise<PayoutLookup | null> {
  const [payout] = await findPayoutsByTransactionIds(db, [{ merchantId, transactionId }]);
  return payout ?? null;
}

/** A merchant's payout as the merchant names it. */
export interface MerchantPayoutKey {
  merchantId: number;
  transactionId: string;
}

/**
 * {@link findPayoutByTransactionId} for many payouts in one statement: each key's payout, or null, in the
 * keys' order. The API gathers concurrent status lookups into one such statement (one round trip, one
 * plan, one socket write for all of them; docs/performance.md "Accepts: coalescing").
 */
export async function findPayoutsByTransactionIds(
  db: PrismaClientOrTransaction,
  keys: readonly MerchantPayoutKey[],
): Promise<(PayoutLookup | null)[]> {
  const rows = await sqlRows<LookupRow & { position: bigint }>(
    db,
    sql`SELECT k.position, p.id, p.merchant_id, p.transaction_id, p.mode::text AS mode, p.amount_paise, p.ack_no,
               p.state::text AS state, p.status::text AS status, p.failure_reason::text AS failure_reason,
               p.bank_reference, p.beneficiary_account, p.beneficiary_ifsc, p.beneficiary_name, p.bank, p.held_since,
               p.scheduled_at
          FROM unnest(${keys.map((k) => k.merchantId)}::int[], ${keys.map((k) => k.transactionId)}::text[])
               WITH ORDINALITY AS k(merchant_id, transaction_id, position)
          JOIN payouts p ON p.merchant_id = k.merchant_id AND p.transaction_id = k.transaction_id`,
  );
  const found: (PayoutLookup | null)[] = keys.map(() => null);
  for (const row of rows) found[Number(row.position) - 1] = payoutFromRow(row, LOOKUP_FIELDS);
  return found;
}

/** The payout an operator action is about: found by Ack_no, or by MID and TransactionID. */
export interface PayoutSubject {
  id: bigint;
  merchantId: number;
  mid: string;
  ackNo: string;
  transactionId: string;
  state: PayoutState;
  status: PayoutStatus;
  inquiryAttempts: number;
  amountPaise: Paise;
  beneficiaryName: string;
  /** The bank it was sent to (docs/banks.md); null while never sent. */
  bank: string | null;
}

export async function findPayoutSubject(
  db: PrismaClientOrTransaction,
  key: { ackNo: string } | { mid: string; transactionId: string },
): Promise<PayoutSubject | null> {
  const p = await db.payout.findFirst({
    where: 'ackNo' in key ? { ackNo: key.ackNo } : { transactionId: key.transactionId, merchant: { mid: key.mid } },
    select: {
      id: true,
      merchantId: true,
      ackNo: true,
      transactionId: true,
      state: true,
      status: true,
      inquiryAttempts: true,
      amountPaise: true,
      beneficiaryName: true,
      bank: true,
      merchant: { select: { mid: true } },
    },
  });
  if (!p) return null;
  const { merchant, ...rest } = p;
  return { ...rest, mid: merchant.mid };
}
