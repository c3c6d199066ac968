import type { LedgerEntryKind, Paise } from '@payout/domain';
import type { PrismaClientOrTransaction } from '../client.js';

/** One ledger entry to post: its kind, amount and what it is for (exactly one source, by kind). */
export interface LedgerPosting {
  merchantId: number;
  kind: LedgerEntryKind;
  amountPaise: Paise;
  payoutId?: bigint;
  collectionId?: bigint;
  /** The operator's reference of a WALLET_CREDIT. */
  reference?: string;
}

/**
 * What became of a posting: both legs written and the wallet moved; already there (nothing changed); or
 * refused because the wallet cannot give what the entry takes out (nothing changed).
 */
export type PostingOutcome = 'posted' | 'duplicate' | 'insufficient';

/**
 * Posts one ledger entry through the posting primitive, `post_ledger_entry` (its SQL is
 * packages/db/sql/functions/post_ledger_entry.sql): the one place every money movement
 * is written — reservation, settlement, release, reversal, late debit, operator credit and pay-in credit.
 * It writes both legs with the accounts of the domain's ledger rules (domain/ledger.ts) and moves the
 * wallet columns with them, under the wallet's row lock. A change of state that carries money (a payout's
 * settlement or reversal, a discrepancy's resolution, a pay-in's outcome) is a SQL function of its own that
 * posts inside it (packages/db/sql/functions/), so the state and the money move together; this door is for
 * a posting that changes nothing else (an operator's wallet credit).
 */
export async function postLedgerEntry(db: PrismaClientOrTransaction, posting: LedgerPosting): Promise<PostingOutcome> {
  const [row] = await db.$queryRaw<{ outcome: PostingOutcome }[]>`
    SELECT post_ledger_entry(${posting.merchantId}::int, ${posting.kind}::ledger_entry_kind, ${posting.amountPaise}::bigint,
                             ${posting.payoutId ?? null}::bigint, ${posting.collectionId ?? null}::bigint,
                             ${posting.reference ?? null}::text) AS outcome`;
  if (!row) throw new Error('post_ledger_entry returned no row');
  return row.outcome;
}
