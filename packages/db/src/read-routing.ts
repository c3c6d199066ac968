import { sql, sqlRows, type PrismaClient } from './client.js';
import { findCollectionByTransactionId, type CollectionSummary } from './repositories/collection-repository.js';
import { findPayoutByTransactionId } from './repositories/payout-repository.js';
import { findWallet, type WalletBalances } from './repositories/wallet-repository.js';

/**
 * Where merchant lookups are read: a streaming replica when one is configured (READ_DATABASE_URL), with
 * the primary behind it for whatever the replica cannot answer yet. Accepts, settlement and the CLI never
 * come here: they stay on the primary. The rules are docs/scaling.md "Read replica".
 */
export interface LookupDatabases {
  primary: PrismaClient;
  replica?: PrismaClient | undefined;
}

/**
 * A payout by the merchant's TransactionID. The replica answers only what can no longer change: a payout
 * that has been SUCCESS or FAILED for a while (settlement never touches it again). One it lacks may simply
 * have been accepted a moment ago, and one it has as PENDING may have settled since, so both are read from
 * the primary: a merchant told PENDING is never then told "not found", and no lookup ever shows an older
 * status than one already given. "For a while" because a standby can show a commit a moment before the
 * primary's own sessions do (the commit record is streamed as soon as it is flushed, before the primary
 * publishes it); a payout settled within {@link SETTLED_FOR} is read from the primary, so an answer is never
 * newer than what the primary shows next either.
 */
export async function lookUpPayout(dbs: LookupDatabases, merchantId: number, transactionId: string) {
  if (dbs.replica && (await settledOnReplica(dbs.replica, 'payouts', merchantId, transactionId))) {
    return findPayoutByTransactionId(dbs.replica, merchantId, transactionId);
  }
  return findPayoutByTransactionId(dbs.primary, merchantId, transactionId);
}

/** A pay-in by the merchant's TransactionID: the same rule as {@link lookUpPayout}. */
export async function lookUpCollection(
  dbs: LookupDatabases,
  merchantId: number,
  transactionId: string,
): Promise<CollectionSummary | null> {
  if (dbs.replica && (await settledOnReplica(dbs.replica, 'collections', merchantId, transactionId))) {
    return findCollectionByTransactionId(dbs.replica, merchantId, transactionId);
  }
  return findCollectionByTransactionId(dbs.primary, merchantId, transactionId);
}

/** How long a final status must have stood before the replica may give it (see {@link lookUpPayout}). */
const SETTLED_FOR = '1 second';

// Final rows are never updated again, so updated_at is when they became final.
async function settledOnReplica(
  replica: PrismaClient,
  table: 'payouts' | 'collections',
  merchantId: number,
  transactionId: string,
): Promise<boolean> {
  const rows =
    table === 'payouts'
      ? await sqlRows<unknown>(
          replica,
          sql`
          SELECT 1 FROM payouts
           WHERE merchant_id = ${merchantId} AND transaction_id = ${transactionId}
             AND status <> 'PENDING' AND updated_at < now() - ${SETTLED_FOR}::interval`,
        )
      : await sqlRows<unknown>(
          replica,
          sql`
          SELECT 1 FROM collections
           WHERE merchant_id = ${merchantId} AND transaction_id = ${transactionId}
             AND status <> 'PENDING' AND updated_at < now() - ${SETTLED_FOR}::interval`,
        );
  return rows.length > 0;
}

/**
 * The merchant's wallet, never older than any answer given before this lookup began. The primary's WAL
 * position is read first (one call that touches no table); every answer already given was committed at or
 * before it. The replica answers only once it has replayed up to that position, otherwise the primary
 * does. Replay only moves forward, so a replica that has caught up stays caught up for the read after.
 */
export async function lookUpWallet(dbs: LookupDatabases, merchantId: number): Promise<WalletBalances | null> {
  if (!dbs.replica || !(await replicaHasReplayed(dbs.replica, await primaryWalPosition(dbs.primary)))) {
    return findWallet(dbs.primary, merchantId);
  }
  return findWallet(dbs.replica, merchantId);
}

async function primaryWalPosition(primary: PrismaClient): Promise<string> {
  const [row] = await sqlRows<{ lsn: string }>(primary, sql`SELECT pg_current_wal_lsn()::text AS lsn`);
  return row!.lsn;
}

// pg_last_wal_replay_lsn() is null on a server that is not a standby: such a "replica" is never trusted.
async function replicaHasReplayed(replica: PrismaClient, lsn: string): Promise<boolean> {
  const [row] = await sqlRows<{ replayed: boolean | null }>(
    replica,
    sql`SELECT pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn AS replayed`,
  );
  return row?.replayed === true;
}
