import { ledgerExpectations, PAYOUT_STATES, POSTING_ENTRY, POSTINGS, type Posting } from '@payout/domain';
import type { PrismaClient, PrismaClientOrTransaction } from './client.js';

/** One invariant and the rows that break it (at most `sampleSize` shown). */
export interface InvariantCheck {
  name: string;
  description: string;
  breaches: number;
  examples: Record<string, unknown>[];
}

export interface InvariantReport {
  ok: boolean;
  checkedAt: Date;
  checks: InvariantCheck[];
  /** Discrepancies still waiting for an operator (young ones are not breaches; see attentionAfterMs). */
  openDiscrepancies: number;
  /** The isolation level the checks ran under: "repeatable read" unless the caller's transaction says otherwise. */
  isolation: string;
}

export interface InvariantCheckOptions {
  /**
   * How overdue a pending payout's next step may be before it counts as stuck (no job, no inquiry).
   * Should be the sweeper's interval plus its grace period.
   */
  stuckAfterMs: number;
  sampleSize?: number;
  /**
   * How long an open discrepancy or a payout under manual review may wait for a person before the check
   * reports it (default 24 h: the daily statement run should have dealt with it).
   */
  attentionAfterMs?: number;
  /** Checks to leave out by name (a system with no worker running has only stuck payouts, say). */
  skip?: readonly string[];
}

interface Thresholds {
  stuckAfterSeconds: number;
  attentionAfterSeconds: number;
}

interface Invariant {
  name: string;
  description: string;
  /** Returns one row per breach. */
  sql: (t: Thresholds) => string;
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
      'every payout has exactly the entries its state implies: a reservation (none if refused for balance), then one settlement or release, a reversal only if REVERSED, a late debit only on a FAILED payout',
    sql: () => `
      WITH effects AS (
        SELECT p.id, p.state::text AS state, p.failure_reason::text AS failure_reason,
               ${POSTINGS.map((p) => `count(*) FILTER (WHERE l.kind = '${POSTING_ENTRY[p]}') AS ${COUNT_OF[p]}`).join(',\n               ')}
          FROM payouts p
          -- Each entry has one positive leg: counting those counts entries.
          LEFT JOIN ledger_entries l ON l.payout_id = p.id AND l.amount_paise > 0
         GROUP BY p.id
      )
      SELECT id::text AS payout_id, state, failure_reason,
             ${POSTINGS.map((p) => `${COUNT_OF[p]}::int`).join(', ')}
        FROM effects
       WHERE NOT ${expectedPostingsCase()}`,
  },
  {
    name: 'ledger-legs-match-their-source',
    description:
      "every leg of a payout's or collection's entry moves exactly that payout's or collection's amount, on its owner's books",
    sql: () => `
      SELECT l.id::text AS leg_id, l.kind::text AS kind, l.account::text AS account, l.merchant_id AS leg_merchant,
             l.amount_paise::text AS leg_paise, coalesce(p.id, c.id)::text AS source_id,
             coalesce(p.merchant_id, c.merchant_id) AS owner_merchant,
             coalesce(p.amount_paise, c.amount_paise)::text AS source_paise
        FROM ledger_entries l
        LEFT JOIN payouts p ON p.id = l.payout_id
        LEFT JOIN collections c ON c.id = l.collection_id
       WHERE (l.payout_id IS NOT NULL OR l.collection_id IS NOT NULL)
         AND (abs(l.amount_paise) <> coalesce(p.amount_paise, c.amount_paise)
              OR l.merchant_id <> coalesce(p.merchant_id, c.merchant_id))`,
  },
  {
    name: 'utr-settles-one-payout',
    description: 'a bank reference (UTR) is the proof of one payment: it settles at most one payout',
    sql: () => `
      SELECT bank_reference AS utr, count(*)::int AS payouts, string_agg(ack_no, ', ' ORDER BY id) AS ack_nos
        FROM payouts
       WHERE bank_reference IS NOT NULL
       GROUP BY bank_reference
      HAVING count(*) > 1`,
  },
  {
    name: 'no-old-open-discrepancies',
    description:
      'no disagreement between the bank and our books has waited for an operator longer than the attention threshold (`pnpm cli discrepancy list`)',
    sql: ({ attentionAfterSeconds }) => `
      SELECT d.id::text AS discrepancy_id, d.kind::text AS kind, coalesce(p.ack_no, c.ack_no) AS ack_no,
             d.source, d.created_at
        FROM discrepancies d
        LEFT JOIN payouts p ON p.id = d.payout_id
        LEFT JOIN collections c ON c.id = d.collection_id
       WHERE d.status = 'OPEN' AND d.created_at < now() - make_interval(secs => ${attentionAfterSeconds})`,
  },
  {
    name: 'no-old-manual-review',
    description: 'no payout has waited under manual review longer than the attention threshold',
    sql: ({ attentionAfterSeconds }) => `
      SELECT id::text AS payout_id, ack_no, updated_at
        FROM payouts
       WHERE state = 'MANUAL_REVIEW' AND updated_at < now() - make_interval(secs => ${attentionAfterSeconds})`,
  },
  {
    name: 'reserved-equals-pending',
    description:
      "each merchant's reserved balance equals the sum of its pending payouts (a queued one reserves nothing)",
    sql: () => `
      WITH pending AS (
        SELECT merchant_id, sum(amount_paise) AS paise FROM payouts
         WHERE status = 'PENDING' AND state <> 'QUEUED' GROUP BY merchant_id
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
      'no pending payout (other than those waiting for an operator or for balance) has gone without its job or inquiry for longer than the sweeper interval',
    sql: ({ stuckAfterSeconds }) => `
      SELECT id::text AS payout_id, state::text AS state, next_check_at
        FROM payouts
       WHERE status = 'PENDING' AND state NOT IN ('MANUAL_REVIEW', 'QUEUED')
         AND (next_check_at IS NULL OR next_check_at < now() - make_interval(secs => ${stuckAfterSeconds}))`,
  },
];

/** The column of the check's query that counts each posting of a payout. */
const COUNT_OF: Record<Posting, string> = {
  reserve: 'reserves',
  settle: 'settles',
  release: 'releases',
  reverse: 'reversals',
  'late-debit': 'late_debits',
};

/**
 * The expectations of `payout-ledger-matches-status`, generated from the table of transitions
 * (packages/domain/src/payout-transitions.ts, `ledgerExpectations`): per state — and per failure reason where the
 * reason changes what was posted (a payout refused for balance never reserved anything) — the sets of postings a
 * payout may carry, each exactly. A state or reason the table cannot reach is a breach.
 */
function expectedPostingsCase(): string {
  const exactly = (postings: readonly Posting[]) =>
    `(${POSTINGS.map((p) => `${COUNT_OF[p]} = ${postings.includes(p) ? 1 : 0}`).join(' AND ')})`;
  const expectations = ledgerExpectations();
  const arms: string[] = [];
  for (const state of PAYOUT_STATES) {
    const byPostings = new Map<string, { sets: Posting[][]; reasons: (string | null)[] }>();
    for (const e of expectations.filter((x) => x.state === state)) {
      const key = JSON.stringify(e.postings);
      const group = byPostings.get(key) ?? { sets: e.postings, reasons: [] };
      group.reasons.push(e.failureReason);
      byPostings.set(key, group);
    }
    for (const { sets, reasons } of byPostings.values()) {
      const named = reasons.filter((r): r is string => r !== null).map((r) => `'${r}'`);
      const reasonTest =
        byPostings.size === 1
          ? ''
          : ` AND (${[
              ...(named.length ? [`failure_reason IN (${named.join(', ')})`] : []),
              ...(reasons.includes(null) ? ['failure_reason IS NULL'] : []),
            ].join(' OR ')})`;
      arms.push(`WHEN state = '${state}'${reasonTest} THEN ${sets.map(exactly).join(' OR ')}`);
    }
  }
  return `CASE\n               ${arms.join('\n               ')}\n               ELSE false\n             END`;
}

/** The names of every check `checkInvariants` runs. */
export const INVARIANT_NAMES: readonly string[] = INVARIANTS.map((i) => i.name);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Checks every money invariant against the database and reports each breach, with the number of open
 * discrepancies. Read-only. Every check reads one REPEATABLE READ snapshot, so money in motion between two
 * checks can never show up as a breach; given a transaction, the checks run in the caller's.
 */
export async function checkInvariants(
  db: PrismaClient | PrismaClientOrTransaction,
  options: InvariantCheckOptions,
): Promise<InvariantReport> {
  if (isClient(db)) {
    return db.$transaction((tx) => runChecks(tx, options), {
      isolationLevel: 'RepeatableRead',
      // A large database takes a while; the snapshot is read-only, so holding it costs no locks.
      timeout: 10 * 60 * 1000,
      maxWait: 30_000,
    });
  }
  return runChecks(db, options);
}

function isClient(db: PrismaClient | PrismaClientOrTransaction): db is PrismaClient {
  return '$transaction' in db && typeof db.$transaction === 'function';
}

async function runChecks(db: PrismaClientOrTransaction, options: InvariantCheckOptions): Promise<InvariantReport> {
  const sampleSize = Math.max(0, Math.trunc(options.sampleSize ?? 10));
  const thresholds: Thresholds = {
    stuckAfterSeconds: Math.max(0, options.stuckAfterMs / 1000),
    attentionAfterSeconds: Math.max(0, (options.attentionAfterMs ?? DAY_MS) / 1000),
  };
  const checks: InvariantCheck[] = [];
  for (const invariant of INVARIANTS.filter((i) => !options.skip?.includes(i.name))) {
    const sql = invariant.sql(thresholds);
    // Counted in the database, and only the examples shown fetched: a broken invariant may be broken by a
    // million rows, which the worker's periodic check must not carry across the wire and hold.
    const [counted] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM (${sql}) AS breaches`);
    const breaches = counted?.n ?? 0;
    const examples =
      breaches > 0 && sampleSize > 0
        ? await db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM (${sql}) AS breaches LIMIT ${sampleSize}`)
        : [];
    checks.push({ name: invariant.name, description: invariant.description, breaches, examples });
  }
  const [open] = await db.$queryRaw<{ n: number; isolation: string }[]>`
    SELECT count(*)::int AS n, current_setting('transaction_isolation') AS isolation
      FROM discrepancies WHERE status = 'OPEN'`;
  return {
    ok: checks.every((c) => c.breaches === 0),
    checkedAt: new Date(),
    checks,
    openDiscrepancies: open?.n ?? 0,
    isolation: open?.isolation ?? 'unknown',
  };
}
