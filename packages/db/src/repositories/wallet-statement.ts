import type { LedgerEntryKind, Paise } from '@payout/domain';
import { sql, sqlRows, type PrismaClient, type PrismaClientOrTransaction, type SqlStatement } from '../client.js';
import type { LookupDatabases } from '../read-routing.js';

// The merchant's statement (GET /api/statement; docs/api.md, "Statement"): the legs of its MAIN_WALLET account,
// whose sum is the wallet's available balance (the ledger's rule, checked by invariant-check.ts), oldest first
// by (created_at, id), the id breaking ties within a millisecond. Every read is a range of the index
// `ledger_entries_statement_idx (merchant_id, account, created_at, id, amount_paise)`: a page starts just after
// the last entry shown, and the sums read the index alone, so a deep page costs what the first one does.

/** A statement's period: from (included) to (not included); `to` null runs up to the moment it is read. */
export interface StatementPeriod {
  from: Date;
  to: Date | null;
}

export interface StatementPageQuery {
  merchantId: number;
  period: StatementPeriod;
  /** The page starts just after this entry; null for the first page. */
  after: { createdAt: Date; id: bigint } | null;
  limit: number;
}

/** A main-wallet entry as the statement shows it. */
export interface StatementEntryRow {
  id: bigint;
  kind: LedgerEntryKind;
  /** Signed: what it did to the available balance. */
  amountPaise: Paise;
  createdAt: Date;
  /** The payout's or pay-in's TransactionID; null for a wallet credit. */
  transactionId: string | null;
  /** The operator's reference of a wallet credit. */
  reference: string | null;
}

export interface StatementPage {
  /** The available balance at the period's start. */
  openingPaise: Paise;
  /** The available balance at its end (or now): the opening plus every entry of the period. */
  closingPaise: Paise;
  /** The balance right before the page's first entry. */
  balanceBeforePaise: Paise;
  entries: StatementEntryRow[];
  /** Whether more entries follow the last one of this page. */
  more: boolean;
}

/**
 * One page of a merchant's statement, its balances read in the same statement (one snapshot), so that the
 * opening balance, the balances after the page's entries and the closing balance always add up. Null when the
 * merchant has no main wallet. Read from a replica only when it has replayed everything the primary had
 * committed when the page was asked for (the wallet lookup's rule, docs/scaling.md "Read replica"): without
 * `to`, the closing balance is never older than a balance the wallet lookup has already shown.
 */
export async function findStatementPage(
  dbs: LookupDatabases,
  query: StatementPageQuery,
): Promise<StatementPage | null> {
  return statementPageOn(await statementDatabase(dbs), query);
}

/**
 * The whole statement of a period, for the CSV file: its opening balance, then its entries `batch` at a time as
 * they are iterated, every batch read from the database chosen for the first (so the replica cannot fall behind
 * what was already written). Null when the merchant has no main wallet.
 */
export async function openStatement(
  dbs: LookupDatabases,
  query: { merchantId: number; period: StatementPeriod; batch: number },
): Promise<{ openingPaise: Paise; entries: AsyncGenerator<StatementEntryRow> } | null> {
  const db = await statementDatabase(dbs);
  const first = await statementPageOn(db, { ...query, after: null, limit: query.batch });
  if (!first) return null;
  async function* entries(): AsyncGenerator<StatementEntryRow> {
    let page: { entries: StatementEntryRow[]; more: boolean } = first!;
    for (;;) {
      yield* page.entries;
      const last = page.entries.at(-1);
      if (!page.more || !last) return;
      const rows = await sqlRows<EntryRow>(
        db,
        statementEntriesStatement({ ...query, after: last, limit: query.batch }),
      );
      page = { entries: rows.slice(0, query.batch).map(entryOf), more: rows.length > query.batch };
    }
  }
  return { openingPaise: first.openingPaise, entries: entries() };
}

interface EntryRow {
  id: bigint;
  kind: LedgerEntryKind;
  amount_paise: bigint;
  created_at: Date;
  transaction_id: string | null;
  reference: string | null;
}

type PageRow = { opening_paise: bigint; period_paise: bigint; before_page_paise: bigint } & (
  EntryRow | { [K in keyof EntryRow]: null }
);

async function statementPageOn(
  db: PrismaClientOrTransaction,
  query: StatementPageQuery,
): Promise<StatementPage | null> {
  const rows = await sqlRows<PageRow>(db, statementPageStatement(query));
  const [head] = rows;
  if (!head) return null;
  const entries = rows.flatMap((row) => (row.id === null ? [] : [entryOf(row)]));
  const openingPaise = head.opening_paise;
  return {
    openingPaise,
    closingPaise: openingPaise + head.period_paise,
    balanceBeforePaise: openingPaise + head.before_page_paise,
    entries: entries.slice(0, query.limit),
    more: entries.length > query.limit,
  };
}

function entryOf(row: EntryRow): StatementEntryRow {
  return {
    id: row.id,
    kind: row.kind,
    amountPaise: row.amount_paise,
    createdAt: row.created_at,
    transactionId: row.transaction_id,
    reference: row.reference,
  };
}

/**
 * The statement of {@link findStatementPage}: the opening balance, the period's sum and the part of it before
 * the page, and the page's `limit` + 1 entries (the one past the page telling whether more follow), one row per
 * entry with the balances repeated (one row of balances alone when the page is empty); no row without a wallet.
 *
 * The opening balance is the sum of the entries before `from` or, equally, the wallet's available balance less
 * the entries since `from` (both in this statement's snapshot, where the two always agree): whichever side of
 * `from` holds the shorter stretch of the merchant's history is summed, so a recent period does not read years
 * of entries, nor an old one every entry since. Exported for the test that shows its plan.
 */
export function statementPageStatement({ merchantId, period, after, limit }: StatementPageQuery): SqlStatement {
  const { from, to } = period;
  return sql`
    WITH wallet AS (
      SELECT available_paise FROM wallets WHERE merchant_id = ${merchantId}
    ), history AS (
      SELECT min(created_at) AS began FROM ledger_entries WHERE merchant_id = ${merchantId} AND account = 'MAIN_WALLET'
    ), opening AS (
      SELECT CASE
               WHEN h.began IS NULL OR h.began >= ${from}::timestamptz THEN 0::bigint
               WHEN ${from}::timestamptz - h.began <= now() - ${from}::timestamptz THEN (
                 SELECT coalesce(sum(l.amount_paise), 0)::bigint FROM ledger_entries l
                  WHERE l.merchant_id = ${merchantId} AND l.account = 'MAIN_WALLET'
                    AND l.created_at < ${from}::timestamptz)
               ELSE w.available_paise - (
                 SELECT coalesce(sum(l.amount_paise), 0)::bigint FROM ledger_entries l
                  WHERE l.merchant_id = ${merchantId} AND l.account = 'MAIN_WALLET'
                    AND l.created_at >= ${from}::timestamptz)
             END AS paise
        FROM wallet w CROSS JOIN history h
    ), period AS (
      SELECT coalesce(sum(l.amount_paise), 0)::bigint AS paise,
             coalesce(sum(l.amount_paise) FILTER (
               WHERE (l.created_at, l.id) <= (${after?.createdAt ?? null}::timestamptz, ${after?.id ?? null}::bigint)
             ), 0)::bigint AS before_page_paise
        FROM ledger_entries l
       WHERE l.merchant_id = ${merchantId} AND l.account = 'MAIN_WALLET'
         AND l.created_at >= ${from}::timestamptz
         AND (${to}::timestamptz IS NULL OR l.created_at < ${to}::timestamptz)
    ), page AS (
      SELECT e.id, e.kind::text AS kind, e.amount_paise, e.created_at,
             coalesce(p.transaction_id, c.transaction_id) AS transaction_id, e.reference
        FROM ledger_entries e
        LEFT JOIN payouts p ON p.id = e.payout_id
        LEFT JOIN collections c ON c.id = e.collection_id
       WHERE e.merchant_id = ${merchantId} AND e.account = 'MAIN_WALLET'
         AND e.created_at >= ${from}::timestamptz
         AND (${to}::timestamptz IS NULL OR e.created_at < ${to}::timestamptz)
         AND (${after?.createdAt ?? null}::timestamptz IS NULL
              OR (e.created_at, e.id) > (${after?.createdAt ?? null}::timestamptz, ${after?.id ?? null}::bigint))
       ORDER BY e.created_at, e.id
       LIMIT ${limit + 1}::int
    )
    SELECT o.paise AS opening_paise, s.paise AS period_paise, s.before_page_paise,
           e.id, e.kind, e.amount_paise, e.created_at, e.transaction_id, e.reference
      FROM opening o CROSS JOIN period s LEFT JOIN page e ON true
     ORDER BY e.created_at, e.id`;
}

/** The entries of a page alone (the CSV's pages after its first): `limit` + 1 of them, just after `after`. */
export function statementEntriesStatement({
  merchantId,
  period: { from, to },
  after,
  limit,
}: {
  merchantId: number;
  period: StatementPeriod;
  after: { createdAt: Date; id: bigint };
  limit: number;
}): SqlStatement {
  return sql`
    SELECT e.id, e.kind::text AS kind, e.amount_paise, e.created_at,
           coalesce(p.transaction_id, c.transaction_id) AS transaction_id, e.reference
      FROM ledger_entries e
      LEFT JOIN payouts p ON p.id = e.payout_id
      LEFT JOIN collections c ON c.id = e.collection_id
     WHERE e.merchant_id = ${merchantId} AND e.account = 'MAIN_WALLET'
       AND e.created_at >= ${from}::timestamptz
       AND (${to}::timestamptz IS NULL OR e.created_at < ${to}::timestamptz)
       AND (e.created_at, e.id) > (${after.createdAt}::timestamptz, ${after.id}::bigint)
     ORDER BY e.created_at, e.id
     LIMIT ${limit + 1}::int`;
}

// The replica when it has replayed up to the primary's WAL position now, else the primary: lookUpWallet's rule
// (read-routing.ts). pg_last_wal_replay_lsn() is null on a server that is not a standby, which is never trusted.
async function statementDatabase(dbs: LookupDatabases): Promise<PrismaClient> {
  if (!dbs.replica) return dbs.primary;
  const [position] = await sqlRows<{ lsn: string }>(dbs.primary, sql`SELECT pg_current_wal_lsn()::text AS lsn`);
  const [replayed] = await sqlRows<{ replayed: boolean | null }>(
    dbs.replica,
    sql`SELECT pg_last_wal_replay_lsn() >= ${position!.lsn}::pg_lsn AS replayed`,
  );
  return replayed?.replayed === true ? dbs.replica : dbs.primary;
}
