import type pg from 'pg';

export interface MerchantBooks {
  available: bigint;
  reserved: bigint;
  ledgerMainWallet: bigint;
  ledgerReserved: bigint;
  ledgerPaidOut: bigint;
  credits: bigint;
  unbalancedEntries: number;
}

/** A merchant's wallet columns next to what the ledger says they should be. */
export async function merchantBooks(pool: pg.Pool, merchantId: number): Promise<MerchantBooks> {
  const { rows } = await pool.query<Record<string, string>>(
    `SELECT
       (SELECT available_paise FROM wallets WHERE merchant_id = $1) AS available,
       (SELECT reserved_paise FROM wallets WHERE merchant_id = $1) AS reserved,
       (SELECT coalesce(sum(amount_paise), 0) FROM ledger_entries WHERE merchant_id = $1 AND account = 'MAIN_WALLET') AS main,
       (SELECT coalesce(sum(amount_paise), 0) FROM ledger_entries WHERE merchant_id = $1 AND account = 'RESERVED') AS res,
       (SELECT coalesce(sum(amount_paise), 0) FROM ledger_entries WHERE merchant_id = $1 AND account = 'PAID_OUT') AS paid,
       (SELECT -coalesce(sum(amount_paise), 0) FROM ledger_entries WHERE merchant_id = $1 AND account = 'FUNDING') AS credits,
       (SELECT count(*) FROM (
          SELECT 1 FROM ledger_entries WHERE merchant_id = $1
           GROUP BY kind, payout_id, collection_id, reference HAVING sum(amount_paise) <> 0) u) AS unbalanced`,
    [merchantId],
  );
  const r = rows[0]!;
  return {
    available: BigInt(r.available ?? 0),
    reserved: BigInt(r.reserved ?? 0),
    ledgerMainWallet: BigInt(r.main!),
    ledgerReserved: BigInt(r.res!),
    ledgerPaidOut: BigInt(r.paid!),
    credits: BigInt(r.credits!),
    unbalancedEntries: Number(r.unbalanced),
  };
}

/** Throws unless the merchant's books balance: wallet = ledger, every entry sums to zero, nothing created or lost. */
export async function expectBooksBalanced(pool: pg.Pool, merchantId: number): Promise<MerchantBooks> {
  const books = await merchantBooks(pool, merchantId);
  const problems: string[] = [];
  if (books.available !== books.ledgerMainWallet)
    problems.push(`available ${books.available} ≠ ledger ${books.ledgerMainWallet}`);
  if (books.reserved !== books.ledgerReserved)
    problems.push(`reserved ${books.reserved} ≠ ledger ${books.ledgerReserved}`);
  if (books.available + books.reserved + books.ledgerPaidOut !== books.credits) {
    problems.push(`available + reserved + paid out ≠ credits ${books.credits}`);
  }
  if (books.unbalancedEntries) problems.push(`${books.unbalancedEntries} ledger entries do not sum to zero`);
  if (problems.length) throw new Error(`books of merchant ${merchantId} do not balance: ${problems.join('; ')}`);
  return books;
}
