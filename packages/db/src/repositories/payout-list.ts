import type { PayoutMode, PayoutStatus } from '@payout/domain';
import { sql, sqlRows, type PrismaClientOrTransaction, type SqlStatement } from '../client.js';
import type { LookupDatabases } from '../read-routing.js';
import { payoutFromRow, type PayoutRow } from './payout-columns.js';
import { LOOKUP_FIELDS, type PayoutLookup } from './payout-repository.js';

// A merchant's payouts a page at a time, newest first (GET /api/payouts; docs/api.md, "Listing payouts"). Pages
// are keyed by the last payout shown, never by an offset: a page starts just after (older than) that payout's
// (created_at, id), read from the index `payouts (merchant_id, created_at DESC, id DESC)`, so payouts accepted
// while a merchant walks the pages cannot shift or repeat what is still to come, and a deep page costs what
// the first one does.

/** What a page is narrowed to; null where not given (packages/contract's PayoutListFilters). */
export interface PayoutPageFilters {
  /** Accepted at or after. */
  from: Date | null;
  /** Accepted before. */
  to: Date | null;
  status: PayoutStatus | null;
  mode: PayoutMode | null;
  /** The merchant's BatchID of a bulk batch: only that batch's payouts. */
  batchId: string | null;
  /** A sponsor bank's alias: only payouts sent to it. */
  bank: string | null;
}

export interface PayoutPageQuery {
  merchantId: number;
  filters: PayoutPageFilters;
  /** The page starts just after this payout; null for the first page. */
  after: { createdAt: Date; id: bigint } | null;
  limit: number;
}

/** A payout as a page holds it: what its status lookup shows, and when it was accepted (its place in the list). */
export type PayoutPageItem = PayoutLookup & { createdAt: Date };

export interface PayoutPage {
  payouts: PayoutPageItem[];
  /** Whether more payouts follow the last one of this page. */
  more: boolean;
}

// The fields of a status lookup (payout-repository.ts) and the acceptance time.
const PAGE_FIELDS = [...LOOKUP_FIELDS, 'createdAt'] as const satisfies readonly (keyof PayoutPageItem)[];

type PageRow = PayoutRow<(typeof PAGE_FIELDS)[number]>;

/**
 * One page of a merchant's payouts: at most `limit`, newest first, and whether more follow. Read from a
 * replica when it has replayed everything the primary had committed when the page was asked for, otherwise
 * from the primary (the wallet lookup's rule, docs/scaling.md "Read replica"): a page never shows a payout
 * older than an answer the merchant was already given, nor misses one it was already told about.
 */
export async function findPayoutPage(dbs: LookupDatabases, query: PayoutPageQuery): Promise<PayoutPage> {
  const db = dbs.replica && (await replicaCaughtUp(dbs.replica, dbs.primary)) ? dbs.replica : dbs.primary;
  const rows = await sqlRows<PageRow>(db, payoutPageStatement(query));
  const payouts = rows.slice(0, query.limit).map((row) => payoutFromRow(row, PAGE_FIELDS));
  return { payouts, more: rows.length > query.limit };
}

/**
 * The statement of {@link findPayoutPage}: `limit` + 1 rows, the one past the page telling whether more
 * follow. Each filter not given is a condition `NULL IS NULL`, which PostgreSQL folds away when it plans the
 * statement with its parameters (each statement is planned with its own values: sqlRows sends it unnamed), so
 * every page is a range read of the merchant's index, filtered on the way. Exported for the test that
 * shows that plan (payout-list.test.ts).
 */
export function payoutPageStatement({ merchantId, filters: f, after, limit }: PayoutPageQuery): SqlStatement {
  return sql`
    SELECT p.id, p.merchant_id, p.transaction_id, p.mode::text AS mode, p.amount_paise, p.ack_no,
           p.state::text AS state, p.status::text AS status, p.failure_reason::text AS failure_reason,
           p.bank_reference, p.beneficiary_account, p.beneficiary_ifsc, p.beneficiary_name, p.bank, p.held_since,
           p.scheduled_at, p.created_at
      FROM payouts p
     WHERE p.merchant_id = ${merchantId}
       AND (${after?.createdAt ?? null}::timestamptz IS NULL
            OR (p.created_at, p.id) < (${after?.createdAt ?? null}::timestamptz, ${after?.id ?? null}::bigint))
       AND (${f.from}::timestamptz IS NULL OR p.created_at >= ${f.from}::timestamptz)
       AND (${f.to}::timestamptz IS NULL OR p.created_at < ${f.to}::timestamptz)
       AND (${f.status}::text IS NULL OR p.status = ${f.status}::payout_status)
       AND (${f.mode}::text IS NULL OR p.mode = ${f.mode}::payout_mode)
       AND (${f.bank}::text IS NULL OR p.bank = ${f.bank}::text)
       AND (${f.batchId}::text IS NULL OR p.id IN (
             SELECT i.payout_id
               FROM bulk_batches b
               JOIN bulk_batch_items i ON i.batch_id = b.id
              WHERE b.merchant_id = ${merchantId} AND b.batch_id = ${f.batchId}::text))
     ORDER BY p.created_at DESC, p.id DESC
     LIMIT ${limit + 1}::int`;
}

// Whether the replica has replayed up to the primary's WAL position now: then it holds every payout accepted,
// and every change committed, before this page was asked for. pg_last_wal_replay_lsn() is null on a server
// that is not a standby, which is never trusted. (read-routing.ts applies the same rule to the wallet.)
async function replicaCaughtUp(replica: PrismaClientOrTransaction, primary: PrismaClientOrTransaction) {
  const [position] = await sqlRows<{ lsn: string }>(primary, sql`SELECT pg_current_wal_lsn()::text AS lsn`);
  const [replayed] = await sqlRows<{ replayed: boolean | null }>(
    replica,
    sql`SELECT pg_last_wal_replay_lsn() >= ${position!.lsn}::pg_lsn AS replayed`,
  );
  return replayed?.replayed === true;
}
