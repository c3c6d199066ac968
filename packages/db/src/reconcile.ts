import type { PrismaClientOrTransaction } from './client.js';

/** One invariant and the rows that break it (at most `sampleSize` shown). */
export interface InvariantCheck {
  name: string;
  description: string;
  breaches: number;
  examples: Record<string, unknown>[];
}

export interface ReconcileReport {
  ok: boolean;
  checkedAt: Date;
  checks: InvariantCheck[];
}

export interface ReconcileOptions {
  /**
   * How overdue a pending payout's next step may be before it counts as stuck (no job, no inquiry).
   * Should be the sweeper's interval plus its grace period.
   */
  stuckAfterMs: number;
  sampleSize?: number;
  /** Checks to leave out by name (a system with no worker running has only stuck payouts, say). */
  skip?: readonly string[];
}

interface Invariant {
  name: string;
  description: string;
  /** Returns one row per breach. */
  sql: (stuckAfterSeconds: number) => string;
}

// Every check is a query for the rows that break it, so an empty result is the proof.
const INVARIANTS: Invariant[] = [
  {
    name: 'books-balance',
    description: 'per merchant, available + reserved + paid out = credits (the ledger sums to zero)',
    sql: () => `
      SELECT merchant_id, sum(amount_paise)::text AS imbalance_paise
        FROM ledger_entries GROUP BY merchant_id HAVING sum(amount_paise) <> 0`,
  },
  {
    name: 'wallet-matches-ledger',
    description: "wallet columns equal the ledger's MAIN_WALLET and RESERVED sums",
    sql: () => `
      WITH sums AS (
        SELECT merchant_id,
               coalesce(sum(amount_paise) FILTER (WHERE account = 'MAIN_WALLET'), 0) AS main,
               coalesce(sum(amount_paise) FILTER (WHERE account = 'RESERVED'), 0) AS reserved
          FROM ledger_entries GROUP BY merchant_id
      )
      SELECT coalesce(w.merchant_id, s.merchant_id) AS merchant_id,
             w.available_paise::text AS wallet_available, coalesce(s.main, 0)::text AS ledger_main_wallet,
             w.reserved_paise::text AS wallet_reserved, coalesce(s.reserved, 0)::text AS ledger_reserved
        FROM wallets w FULL JOIN sums s ON s.merchant_id = w.merchant_id
       WHERE coalesce(w.available_paise, 0) <> coalesce(s.main, 0)
          OR coalesce(w.reserved_paise, 0) <> coalesce(s.reserved, 0)`,
  },
  {
    name: 'entries-balanced',
    description: 'every ledger entry is two legs that sum to zero',
    sql: () => `
      SELECT kind::text, payout_id::text, collection_id::text, reference, merchant_id,
             count(*)::int AS legs, sum(amount_paise)::text AS sum_paise
        FROM ledger_entries
       GROUP BY merchant_id, kind, payout_id, collection_id, reference
      HAVING count(*) <> 2 OR sum(amount_paise) <> 0`,
  },
  {
    name: 'payout-ledger-matches-status',
    description:
      'every payout has one reservation (none if refused for balance) and at most one terminal entry, matching its status',
    sql: () => `
      WITH effects AS (
        SELECT p.id, p.status::text AS status, p.failure_reason::text AS failure_reason, p.amount_paise,
               count(*) FILTER (WHERE l.kind = 'PAYOUT_RESERVE' AND l.account = 'RESERVED') AS reserves,
               count(*) FILTER (WHERE l.kind = 'PAYOUT_SETTLE' AND l.account = 'RESERVED') AS settles,
               count(*) FILTER (WHERE l.kind = 'PAYOUT_RELEASE' AND l.account = 'RESERVED') AS releases,
               coalesce(sum(l.amount_paise) FILTER (WHERE l.account = 'RESERVED' AND l.kind = 'PAYOUT_RESERVE'), 0) AS reserved_paise
          FROM payouts p LEFT JOIN ledger_entries l ON l.payout_id = p.id
         GROUP BY p.id
      )
      SELECT id::text AS payout_id, status, failure_reason, reserves::int, settles::int, releases::int
        FROM effects
       WHERE NOT CASE
               WHEN failure_reason = 'INSUFFICIENT_BALANCE' THEN reserves = 0 AND settles = 0 AND releases = 0
               WHEN status = 'PENDING' THEN reserves = 1 AND settles = 0 AND releases = 0
               WHEN status = 'SUCCESS' THEN reserves = 1 AND settles = 1 AND releases = 0
               ELSE reserves = 1 AND settles = 0 AND releases = 1
             END
          OR (reserves = 1 AND reserved_paise <> amount_paise)`,
  },
  {
    name: 'reserved-equals-pending',
    description: "each merchant's reserved balance equals the sum of its pending payouts",
    sql: () => `
      WITH pending AS (
        SELECT merchant_id, sum(amount_paise) AS paise FROM payouts WHERE status = 'PENDING' GROUP BY merchant_id
      )
      SELECT coalesce(w.merchant_id, p.merchant_id) AS merchant_id,
             coalesce(w.reserved_paise, 0)::text AS reserved, coalesce(p.paise, 0)::text AS pending
        FROM wallets w FULL JOIN pending p ON p.merchant_id = w.merchant_id
       WHERE coalesce(w.reserved_paise, 0) <> coalesce(p.paise, 0)`,
  },
  {
    name: 'collections-credited-once',
    description: 'every successful collection is credited exactly once, and no other collection at all',
    sql: () => `
      SELECT c.id::text AS collection_id, c.status::text AS status, (c.credited_at IS NOT NULL) AS marked_credited,
             count(l.id) FILTER (WHERE l.account = 'MAIN_WALLET')::int AS credits
        FROM collections c LEFT JOIN ledger_entries l ON l.collection_id = c.id
       GROUP BY c.id
      HAVING count(l.id) FILTER (WHERE l.account = 'MAIN_WALLET')
             <> CASE WHEN c.status = 'SUCCESS' THEN 1 ELSE 0 END
          OR (c.credited_at IS NOT NULL) <> (c.status = 'SUCCESS')`,
  },
  {
    name: 'no-stuck-payouts',
    description:
      'no pending payout (other than those waiting for an operator) has gone without its job or inquiry for longer than the sweeper interval',
    sql: (stuckAfterSeconds) => `
      SELECT id::text AS payout_id, state::text AS state, next_check_at
        FROM payouts
       WHERE status = 'PENDING' AND state <> 'MANUAL_REVIEW'
         AND (next_check_at IS NULL OR next_check_at < now() - make_interval(secs => ${stuckAfterSeconds}))`,
  },
];

/**
 * Checks every money invariant against the database and reports each breach. Read-only; the queries see
 * committed data as of each query, so run it on a quiet system (or accept that money in motion between
 * two queries may show up as a transient breach of the cross-table checks).
 */
/** The names of every check `reconcile` runs. */
export const INVARIANT_NAMES: readonly string[] = INVARIANTS.map((i) => i.name);

export async function reconcile(db: PrismaClientOrTransaction, options: ReconcileOptions): Promise<ReconcileReport> {
  const sampleSize = options.sampleSize ?? 10;
  const stuckAfterSeconds = Math.max(0, options.stuckAfterMs / 1000);
  const checks: InvariantCheck[] = [];
  for (const invariant of INVARIANTS.filter((i) => !options.skip?.includes(i.name))) {
    const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(invariant.sql(stuckAfterSeconds));
    checks.push({
      name: invariant.name,
      description: invariant.description,
      breaches: rows.length,
      examples: rows.slice(0, sampleSize),
    });
  }
  return { ok: checks.every((c) => c.breaches === 0), checkedAt: new Date(), checks };
}
