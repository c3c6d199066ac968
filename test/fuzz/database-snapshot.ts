import type pg from 'pg';

/** Everything a request could change, for the whole database and for one merchant in detail. */
export interface DatabaseSnapshot {
  payouts: number;
  ledgerEntries: number;
  payoutEvents: number;
  collections: number;
  merchants: number;
  tokens: number;
  wallets: number;
  /** The newest row version of every table: any change at all shows here. */
  digest: string;
  available: bigint;
  reserved: bigint;
}

// An insert or an update leaves a row version with a newer xmin (the writing transaction's id), and a
// delete changes the count: per table, the count and the greatest xmin change whenever anything in it
// changed. A cheap exact change detector, one scan per table.
const TABLES = ['payouts', 'ledger_entries', 'payout_events', 'collections', 'merchants', 'merchant_tokens', 'wallets'];

export async function databaseSnapshot(pool: pg.Pool, merchantId: number): Promise<DatabaseSnapshot> {
  const perTable = TABLES.map(
    (t) => `(SELECT count(*) || '/' || coalesce(max(xmin::text::bigint), 0) FROM ${t}) AS ${t}`,
  );
  const { rows } = await pool.query<Record<string, string>>(
    `SELECT ${perTable.join(', ')},
            (SELECT available_paise || '/' || reserved_paise FROM wallets WHERE merchant_id = $1) AS wallet`,
    [merchantId],
  );
  const r = rows[0]!;
  const count = (t: string) => Number(r[t]!.split('/')[0]);
  const [available = '0', reserved = '0'] = (r.wallet ?? '0/0').split('/');
  return {
    payouts: count('payouts'),
    ledgerEntries: count('ledger_entries'),
    payoutEvents: count('payout_events'),
    collections: count('collections'),
    merchants: count('merchants'),
    tokens: count('merchant_tokens'),
    wallets: count('wallets'),
    digest: TABLES.map((t) => r[t]!.split('/')[1]).join('/'),
    available: BigInt(available),
    reserved: BigInt(reserved),
  };
}

/** How two snapshots differ, in words; empty when they are the same. */
export function snapshotChanges(before: DatabaseSnapshot, after: DatabaseSnapshot): string[] {
  return (Object.keys(before) as (keyof DatabaseSnapshot)[])
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k} ${String(before[k])} → ${String(after[k])}`);
}
