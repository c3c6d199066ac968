import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { PayoutState } from '@payout/domain';
import type { BookPayout, MatchableLine } from '@payout/recon';
import { BANK_TIME_ZONE, RUN_STANDS } from './statement-runs.js';

// A statement run matched where the data lives (docs/reconciliation.md, "Memory"): the run's lines are
// copied into a temporary table of one connection's transaction, the books of the statement's dates are
// gathered beside them, and everything a line's match depends on — the payout its reference or UTR names,
// the batch it pays, the payouts it may be, which key an earlier line already took — is worked out set-wise
// in SQL. The caller reads the answers back a page at a time, in the statement's order, and classifies each
// line with the matcher of @payout/recon (matchLine), so neither the file nor the day's payouts is ever held
// in memory. Everything lives in `ON COMMIT DROP` tables: the transaction's end leaves nothing behind.

/** How many lines a page of answers holds. */
export const STATEMENT_PAGE_LINES = 2_000;

/**
 * The transaction's own statement time-out: a run of a million lines takes statements of several seconds,
 * longer than the API's connections allow (DATABASE_STATEMENT_TIMEOUT_MS); it is bounded all the same.
 */
export const STATEMENT_MATCH_TIMEOUT_MS = 10 * 60 * 1000;

/** PostgreSQL's memory for the run's temporary tables (its session's, not this process's). */
export const STATEMENT_TEMP_BUFFERS = '256MB';
/** PostgreSQL's memory for each sort or hash of the run. */
export const STATEMENT_WORK_MEM = '64MB';

/** One line read back with everything its match depends on (see matchLine in @payout/recon). */
export interface StagedLine {
  line: MatchableLine;
  /** The payout our reference names (none for a line without our reference). */
  named?: BookPayout;
  /** The one payout whose UTR is the line's. */
  byUtr?: BookPayout;
  /** The payouts of the one bulk batch the line names, and of the one batch its amount totals. */
  batchNamed?: BookPayout[];
  batchTotalling?: BookPayout[];
  /** The payouts of its amount and dates it may be (asked only when nothing else names it). */
  candidates: BookPayout[];
  /** The keys earlier lines took that matter to this one: its own, and the payout or batch it was found to be. */
  seenKeys: string[];
}

/** The books' side of a run once matched: payouts the statement is silent about. */
export type StagedPayoutKind = 'success_here_missing_at_bank' | 'reversed_here_missing_at_bank';

/**
 * A run's staging area on one connection, inside a transaction the caller opened with {@link openStatementStaging}.
 * `line` queues a line for the COPY (the caller awaits `drain` between pieces of the file), `match` works
 * the answers out once every line is in, `pages` and `silentPayouts` read them back.
 */
export class StatementStaging {
  private readonly queued: string[] = [];
  private ordinal = 0;
  private copy: Writable | undefined;
  private copyDone: Promise<void> | undefined;

  private constructor(private readonly connection: pg.ClientBase) {}

  /** Opens the run's transaction on `connection` and its staging table, ready for lines. */
  static async open(connection: pg.ClientBase): Promise<StatementStaging> {
    await connection.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    // Settings of this transaction only (behind PgBouncer the server connection is the transaction's).
    await connection.query(`SET LOCAL statement_timeout = ${STATEMENT_MATCH_TIMEOUT_MS}`);
    // Its sorts and hashes over every line in memory rather than on disk; and no JIT: each statement runs
    // once, and compiling it costs seconds more than it saves.
    await connection.query(`SET LOCAL work_mem = '${STATEMENT_WORK_MEM}'`);
    await connection.query('SET LOCAL jit = off');
    // The run's tables are temporary: kept in the session's own buffers as far as they fit. PostgreSQL takes
    // this only before a session's first temporary table; a server connection that had some keeps its own.
    await connection.query('SAVEPOINT temp_buffers');
    try {
      await connection.query(`SET LOCAL temp_buffers = '${STATEMENT_TEMP_BUFFERS}'`);
      await connection.query('RELEASE SAVEPOINT temp_buffers');
    } catch {
      await connection.query('ROLLBACK TO SAVEPOINT temp_buffers');
    }
    await connection.query(`
      CREATE TEMPORARY TABLE statement_lines (
        ordinal integer NOT NULL,
        file integer,
        line_number integer NOT NULL,
        reference text NOT NULL,
        without_our_reference boolean NOT NULL,
        without_return_code boolean NOT NULL,
        utr text NOT NULL,
        amount_paise bigint NOT NULL,
        type text NOT NULL,
        value_date date NOT NULL,
        narration text
      ) ON COMMIT DROP`);
    const staging = new StatementStaging(connection);
    const copy = connection.query(copyStreams.from('COPY statement_lines FROM STDIN'));
    staging.copy = copy;
    staging.copyDone = new Promise((resolve, reject) => {
      copy.on('finish', resolve);
      copy.on('error', reject);
    });
    // Fails at `drain` or `load` instead of going unheard.
    staging.copyDone.catch(() => undefined);
    return staging;
  }

  /** How many lines were staged. */
  get lines(): number {
    return this.ordinal;
  }

  line(line: MatchableLine): void {
    this.ordinal++;
    this.queued.push(
      [
        this.ordinal,
        line.file ?? null,
        line.lineNumber,
        line.reference,
        line.withoutOurReference === true,
        line.withoutReturnCode === true,
        line.utr,
        line.amountPaise,
        line.type,
        line.valueDate,
        line.narration ?? null,
      ]
        .map(copyField)
        .join('\t') + '\n',
    );
  }

  /** Hands the queued lines to the COPY, and waits while PostgreSQL is behind. */
  async drain(): Promise<void> {
    if (this.queued.length === 0) return;
    const text = this.queued.join('');
    this.queued.length = 0;
    if (!this.copy!.write(text)) await Promise.race([once(this.copy!, 'drain'), this.copyDone]);
  }

  /** Ends the COPY: every line is in. */
  async load(): Promise<void> {
    await this.drain();
    this.copy!.end();
    await this.copyDone;
    await this.connection.query('ALTER TABLE statement_lines ADD PRIMARY KEY (ordinal)');
    await this.connection.query('ANALYZE statement_lines');
  }

  /**
   * Gathers the books the lines are matched against and works out each line's answers. `bank`: only that
   * bank's payouts are the statement's (docs/reconciliation.md, "Several banks"); null where there is one
   * bank, whose statement is every payout's.
   */
  async match(run: { valueDates: readonly string[]; today: string; bank: string | null }): Promise<void> {
    const q = (text: string, values: unknown[] = []) => this.connection.query(text, values);
    await q(BOOK_SQL, [[...run.valueDates], BANK_TIME_ZONE, run.bank]);
    await q('ALTER TABLE statement_book ADD PRIMARY KEY (id)');
    for (const index of ['ack_no', 'bank_reference', 'batch_key', 'amount_paise']) {
      await q(`CREATE INDEX ON statement_book (${index})`);
    }
    await q('ANALYZE statement_book');
    await q(EARLIER_BREAKS_SQL);
    await q(BATCHES_SQL);
    await q(FACTS_SQL, [run.today]);
    await q('ALTER TABLE statement_facts ADD PRIMARY KEY (ordinal)');
    await q('CREATE INDEX ON statement_facts (k1)');
    await q('CREATE INDEX ON statement_facts (ordinal) WHERE NOT plain');
    await q('ANALYZE statement_facts');
    await this.settleKeys();
    await q(DEBITED_SQL, [run.today]);
    await q(RETURNED_SQL);
  }

  /**
   * Which key each line found taken (docs/reconciliation.md, "Matching beyond the reference": a second line
   * for the same payout or batch is a duplicate). A line's own key (type and reference) is taken by an
   * earlier line of the same key, or by an earlier line without our reference that was found to be that
   * payout; that line in turn took its key only if its own was free. Worked out set-wise from the first
   * lines on: each round settles at least the next line whose answer depends on another's, and rounds stop
   * once nothing changes — at once, unless a bank's reference of a line is also one of our Ack_nos.
   */
  private async settleKeys(): Promise<void> {
    const q = (text: string) => this.connection.query(text);
    await q(`
      CREATE TEMPORARY TABLE statement_k1_first ON COMMIT DROP AS
      SELECT k1 AS key, min(ordinal) AS first FROM statement_facts GROUP BY k1`);
    await q('CREATE UNIQUE INDEX ON statement_k1_first (key)');
    const crossing = await q(`
      SELECT EXISTS (SELECT 1 FROM statement_facts a JOIN statement_facts b ON b.k1 = a.dk AND b.ordinal > a.ordinal)
        AS crossing`);
    if ((crossing.rows[0] as { crossing: boolean }).crossing) {
      for (;;) {
        const changed = await q(`
          WITH dk_first AS (SELECT dk, min(ordinal) AS first FROM statement_facts WHERE reach GROUP BY dk),
          settled AS (
            SELECT f.ordinal, (k.first < f.ordinal OR coalesce(d.first < f.ordinal, false)) AS own_taken
              FROM statement_facts f
              JOIN statement_k1_first k ON k.key = f.k1
              LEFT JOIN dk_first d ON d.dk = f.k1)
          UPDATE statement_facts f
             SET own_taken = s.own_taken, reach = NOT s.own_taken AND f.dk IS NOT NULL, plain = false
            FROM settled s WHERE s.ordinal = f.ordinal AND s.own_taken IS DISTINCT FROM f.own_taken`);
        if (changed.rowCount === 0) break;
      }
    }
    // The key a line without our reference was found to be, taken before it: by an earlier line's own key,
    // or by an earlier line found to be the same payout or batch.
    await q(`
      WITH dk_first AS (SELECT dk, min(ordinal) AS first FROM statement_facts WHERE reach GROUP BY dk)
      UPDATE statement_facts f
         SET match_taken = coalesce(k.first < f.ordinal, false) OR coalesce(d.first < f.ordinal, false)
        FROM statement_facts g
        LEFT JOIN statement_k1_first k ON k.key = g.dk
        LEFT JOIN dk_first d ON d.dk = g.dk
       WHERE g.ordinal = f.ordinal AND f.reach`);
  }

  /** The lines after `after` (an ordinal), in the statement's order, with their answers; empty at the end. */
  async page(after: number): Promise<{ last: number; lines: StagedLine[] }> {
    const { rows } = await this.connection.query<LineRow>(PAGE_SQL, [after, STATEMENT_PAGE_LINES]);
    if (rows.length === 0) return { last: after, lines: [] };
    const last = rows[rows.length - 1]!.ordinal;
    const batches = await this.batchMembers(rows);
    // Only a line that nothing names is asked for the payouts it may be.
    const unnamed = rows.some((r) => r.named_id === null && r.via === null && !r.own_taken);
    const candidates = unnamed ? await this.candidates(after, last) : new Map<number, BookPayout[]>();
    const lines = rows.map((row): StagedLine => {
      const k1 = `${row.type}:${row.reference}`;
      return {
        line: lineOf(row),
        ...(row.named_id !== null && { named: bookPayout(row, 'named_') }),
        ...(row.utr_id !== null && { byUtr: bookPayout(row, 'utr_') }),
        ...(row.named_batch !== null && { batchNamed: batches.get(row.named_batch) }),
        ...(row.total_batch !== null && { batchTotalling: batches.get(row.total_batch) }),
        candidates: candidates.get(row.ordinal) ?? [],
        seenKeys: [...(row.own_taken ? [k1] : []), ...(row.match_taken && row.dk !== null ? [row.dk] : [])],
      };
    });
    return { last, lines };
  }

  /**
   * The payouts of a kind the statement is silent about, after payout `after` (an id), in id order; empty at
   * the end. `valueDates`: the statement's dates.
   */
  async silentPayouts(kind: StagedPayoutKind, valueDates: readonly string[], after: bigint): Promise<BookPayout[]> {
    const { rows } = await this.connection.query<BookRow>(SILENT_SQL[kind], [
      after.toString(),
      STATEMENT_PAGE_LINES,
      [...valueDates],
    ]);
    return rows.map((row) => bookPayout(row, ''));
  }

  /** The payouts of earlier runs' breaks of a missing movement that this run's books hold. */
  async payoutsWithEarlierBreaks(): Promise<Set<string>> {
    const { rows } = await this.connection.query<{ ack_no: string }>('SELECT ack_no FROM statement_earlier_breaks');
    return new Set(rows.map((r) => r.ack_no));
  }

  /**
   * How many lines are plainly matched: our reference names a payout paid here of the line's amount, in a
   * debit dated up to today whose key no earlier line took, and no earlier run called it missing. The
   * matcher would say `matched` of each and do nothing more, so they are counted here, not read back.
   */
  async plainlyMatched(): Promise<number> {
    const { rows } = await this.connection.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM statement_facts WHERE plain',
    );
    return rows[0]!.n;
  }

  /** Ends the transaction: the staging tables go with it. */
  async close(): Promise<void> {
    await this.connection.query('COMMIT');
  }

  /** Abandons the run (a refused file, an error): nothing of it stays. */
  async abandon(): Promise<void> {
    if (this.copy && !this.copy.writableEnded) {
      // A COPY cannot be ended by ROLLBACK alone: end it with the data refused, then roll back.
      this.copy.destroy(new Error('statement run abandoned'));
      await this.copyDone?.catch(() => undefined);
    }
    await this.connection.query('ROLLBACK');
  }

  private async batchMembers(rows: readonly LineRow[]): Promise<Map<string, BookPayout[]>> {
    const keys = [...new Set(rows.flatMap((r) => [r.named_batch, r.total_batch]).filter((k) => k !== null))];
    const members = new Map<string, BookPayout[]>();
    if (keys.length === 0) return members;
    const { rows: found } = await this.connection.query<BookRow>(
      `SELECT ${BOOK_COLUMNS('b', '')} FROM statement_book b WHERE b.batch_key = ANY($1::bigint[]) ORDER BY b.id`,
      [keys],
    );
    for (const row of found) {
      const key = row.batch_key!;
      members.set(key, [...(members.get(key) ?? []), bookPayout(row, '')]);
    }
    return members;
  }

  private async candidates(after: number, last: number): Promise<Map<number, BookPayout[]>> {
    const { rows } = await this.connection.query<BookRow & { ordinal: number }>(CANDIDATES_SQL, [after, last]);
    const found = new Map<number, BookPayout[]>();
    for (const row of rows) found.set(row.ordinal, [...(found.get(row.ordinal) ?? []), bookPayout(row, '')]);
    return found;
  }
}

// COPY's text format: \N for null, and the backslash, tab, newline and carriage return escaped.
function copyField(value: string | number | bigint | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value !== 'string') return value.toString();
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

// Every payout the statement names — by our reference, or by its UTR — and every payout settled (IST) on one
// of its dates, each with the (IST) day it was first sent to the rail (its first move to SUBMITTING, or its
// acceptance if it never was sent), before which none of its money can have come back. For matching beyond
// the reference, also every payout of a line's amount settled or accepted within a day of the statement's
// dates, and every payout of a bulk batch a line names (as its reference or a word of its narration, for a
// line without our reference) or that was recorded on those dates, with its beneficiary's name and its
// batch; and every payout reversed here on those dates, with the day, unless a statement line made the
// reversal. Only the statement's bank's payouts ($3), where there are several banks.
const BOOK_SQL = `
  CREATE TEMPORARY TABLE statement_book ON COMMIT DROP AS
  WITH days AS (
    SELECT (d::timestamp AT TIME ZONE $2) AS day_start, ((d + 1)::timestamp AT TIME ZONE $2) AS day_end
      FROM unnest($1::date[]) AS d
  ), tokens AS (
    SELECT reference AS token FROM statement_lines
    UNION
    SELECT t FROM statement_lines l, regexp_split_to_table(coalesce(l.narration, ''), '[^A-Za-z0-9]+') AS t
     WHERE l.without_our_reference AND t <> ''
  ), wanted AS (
    SELECT id FROM payouts WHERE ack_no IN (SELECT reference FROM statement_lines)
    UNION
    SELECT id FROM payouts WHERE bank_reference IN (SELECT utr FROM statement_lines)
    UNION
    SELECT p.id FROM days JOIN payouts p ON p.settled_at >= days.day_start AND p.settled_at < days.day_end
     WHERE p.state IN ('SUCCESS', 'REVERSED')
    UNION
    SELECT e.payout_id FROM days JOIN payout_events e
        ON e.to_state = 'REVERSED' AND e.created_at >= days.day_start AND e.created_at < days.day_end
    UNION
    SELECT p.id FROM days JOIN payouts p
        ON (p.settled_at >= days.day_start - interval '1 day' AND p.settled_at < days.day_end + interval '1 day')
        OR (p.created_at >= days.day_start - interval '2 days' AND p.created_at < days.day_end + interval '1 day')
     WHERE p.amount_paise IN (SELECT amount_paise FROM statement_lines)
    UNION
    SELECT i.payout_id FROM bulk_batches b JOIN bulk_batch_items i ON i.batch_id = b.id
     WHERE i.payout_id IS NOT NULL
       AND (b.batch_id IN (SELECT token FROM tokens)
            OR EXISTS (SELECT 1 FROM days
                        WHERE b.created_at >= days.day_start - interval '1 day' AND b.created_at < days.day_end))
  )
  SELECT p.id, p.ack_no::text AS ack_no, p.state::text AS state, p.amount_paise, p.bank_reference::text AS bank_reference,
         p.beneficiary_name::text AS beneficiary_name,
         to_char(p.settled_at AT TIME ZONE $2, 'YYYY-MM-DD') AS settled_on,
         to_char(reversed.at AT TIME ZONE $2, 'YYYY-MM-DD') AS reversed_on,
         to_char(coalesce(sent.at, p.created_at) AT TIME ZONE $2, 'YYYY-MM-DD') AS sent_on,
         b.id AS batch_key, b.batch_id::text AS batch_id,
         (SELECT count(*)::int FROM bulk_batch_items m WHERE m.batch_id = b.id AND m.payout_id IS NOT NULL)
           AS batch_payouts
    FROM wanted JOIN payouts p ON p.id = wanted.id
    LEFT JOIN bulk_batch_items bi ON bi.payout_id = p.id
    LEFT JOIN bulk_batches b ON b.id = bi.batch_id
    LEFT JOIN LATERAL (
      SELECT min(e.created_at) AS at FROM payout_events e WHERE e.payout_id = p.id AND e.to_state = 'SUBMITTING'
    ) sent ON true
    LEFT JOIN LATERAL (
      -- A reversal a statement line made is proven already; one on the rail's or a person's word is not.
      SELECT min(e.created_at) AS at FROM payout_events e
       WHERE e.payout_id = p.id AND e.to_state = 'REVERSED' AND NOT coalesce(e.rail_answer ? 'statementRunId', false)
    ) reversed ON true
   WHERE $3::text IS NULL OR p.bank = $3::text`;

// The payouts of the books an earlier run called missing at the bank — a run in effect, or one still waiting
// for its approval, whose breaks may yet count; never one that was not approved: a movement this run finds of
// one answers that break (the next-day rule, findBreaksBookedLater), which closes when this run takes effect.
const EARLIER_BREAKS_SQL = `
  CREATE TEMPORARY TABLE statement_earlier_breaks ON COMMIT DROP AS
  SELECT DISTINCT b.item->>'reference' AS ack_no
    FROM statement_runs r CROSS JOIN LATERAL jsonb_array_elements(r.break_list) AS b(item)
   WHERE r.breaks > 0 AND ${RUN_STANDS('r')}
     AND b.item->>'kind' IN ('success_here_missing_at_bank', 'reversed_here_missing_at_bank')
     AND b.item->>'reference' IN (SELECT ack_no FROM statement_book)`;

// The bulk batches every payout of which is in the books: only those can be paid by one debit. `sent_on`
// is the day all of them were sent, when it is one day.
const BATCHES_SQL = `
  CREATE TEMPORARY TABLE statement_batches ON COMMIT DROP AS
  SELECT batch_key, min(batch_id) AS batch_id, sum(amount_paise) AS total,
         CASE WHEN count(DISTINCT sent_on) = 1 THEN min(sent_on) END AS sent_on
    FROM statement_book WHERE batch_key IS NOT NULL
   GROUP BY batch_key HAVING count(*) = max(batch_payouts)`;

// Each line's answers that depend on it alone (matchLine, in this order): the payout our reference names;
// for a line that names none, the one payout of its UTR, the one batch it names (its reference or a word of
// its narration) and the one batch whose total it is (debits only); and the key it takes when it is matched
// beyond the reference (`dk`: the batch, or the payout its UTR names) — for a line dated up to today ($1)
// that is not a return only its narration claims.
const FACTS_SQL = `
  CREATE TEMPORARY TABLE statement_facts ON COMMIT DROP AS
  WITH answered AS (
    SELECT l.ordinal, l.type, l.type || ':' || l.reference AS k1, named.id AS named_id,
           l.value_date <= $1::date AND NOT l.without_return_code AS eligible,
           -- An earlier line of the same type and reference took the key (lines beyond the reference may
           -- take it too: settleKeys).
           row_number() OVER (PARTITION BY l.type, l.reference ORDER BY l.ordinal) > 1 AS own_taken,
           named.id IS NOT NULL AND l.type = 'DEBIT' AND l.value_date <= $1::date AND NOT l.without_return_code
             AND named.state IN ('SUCCESS', 'REVERSED') AND named.amount_paise = l.amount_paise
             AND NOT EXISTS (SELECT 1 FROM statement_earlier_breaks e WHERE e.ack_no = named.ack_no) AS plain_if_free,
           CASE WHEN named.id IS NULL THEN (
             SELECT CASE WHEN count(*) = 1 THEN min(u.id) END FROM statement_book u WHERE u.bank_reference = l.utr
           ) END AS utr_id,
           CASE WHEN named.id IS NULL AND l.type = 'DEBIT' THEN (
             SELECT CASE WHEN count(*) = 1 THEN min(c.batch_key) END FROM statement_batches c
              WHERE c.batch_id = l.reference
                 OR c.batch_id IN (SELECT t FROM regexp_split_to_table(coalesce(l.narration, ''), '[^A-Za-z0-9]+') AS t)
           ) END AS named_batch,
           CASE WHEN named.id IS NULL AND l.type = 'DEBIT' THEN (
             SELECT CASE WHEN count(*) = 1 THEN min(c.batch_key) END FROM statement_batches c
              WHERE c.sent_on = to_char(l.value_date, 'YYYY-MM-DD') AND c.total = l.amount_paise
           ) END AS total_batch
      FROM statement_lines l
      LEFT JOIN statement_book named ON named.ack_no = l.reference AND NOT l.without_our_reference
  )
  SELECT a.ordinal, a.k1, a.named_id, a.utr_id, a.named_batch, a.total_batch,
         CASE WHEN a.named_id IS NULL AND a.eligible THEN
           CASE WHEN a.named_batch IS NOT NULL THEN 'batch-named'
                WHEN a.utr_id IS NOT NULL THEN 'utr'
                WHEN a.total_batch IS NOT NULL THEN 'batch-total' END
         END AS via,
         CASE WHEN a.named_id IS NULL AND a.eligible THEN
           CASE WHEN a.named_batch IS NOT NULL THEN 'batch:' || a.named_batch
                WHEN a.utr_id IS NOT NULL THEN a.type || ':' || (SELECT u.ack_no FROM statement_book u WHERE u.id = a.utr_id)
                WHEN a.total_batch IS NOT NULL THEN 'batch:' || a.total_batch END
         END AS dk,
         a.own_taken,
         NOT a.own_taken AND a.named_id IS NULL AND a.eligible
           AND (a.named_batch IS NOT NULL OR a.utr_id IS NOT NULL OR a.total_batch IS NOT NULL) AS reach,
         false AS match_taken,
         a.plain_if_free AND NOT a.own_taken AS plain
    FROM answered a`;

// The payouts some line debited: our reference naming it (a debit dated up to today whose key was free),
// its UTR naming it, or a debit paying its whole batch (the batch's total) — each only when its key was free.
const DEBITED_SQL = `
  CREATE TEMPORARY TABLE statement_debited ON COMMIT DROP AS
  SELECT f.named_id AS id FROM statement_facts f JOIN statement_lines l USING (ordinal)
   WHERE l.type = 'DEBIT' AND f.named_id IS NOT NULL AND NOT f.own_taken AND l.value_date <= $1::date
     AND NOT l.without_return_code
  UNION
  SELECT f.utr_id FROM statement_facts f JOIN statement_lines l USING (ordinal)
   WHERE l.type = 'DEBIT' AND f.reach AND NOT f.match_taken AND f.dk <> f.k1 AND f.via = 'utr'
  UNION
  SELECT b.id FROM statement_facts f JOIN statement_lines l USING (ordinal)
    JOIN statement_batches c ON c.batch_key = CASE f.via WHEN 'batch-named' THEN f.named_batch ELSE f.total_batch END
    JOIN statement_book b ON b.batch_key = c.batch_key
   WHERE f.reach AND NOT f.match_taken AND f.dk <> f.k1 AND f.via IN ('batch-named', 'batch-total')
     AND c.total = l.amount_paise`;

// The payouts a return the bank vouches for (its code, not only its narration) names — by our reference,
// whatever became of the line, or by the UTR of a line whose key was free.
const RETURNED_SQL = `
  CREATE TEMPORARY TABLE statement_returned ON COMMIT DROP AS
  SELECT f.named_id AS id FROM statement_facts f JOIN statement_lines l USING (ordinal)
   WHERE l.type = 'RETURN' AND NOT l.without_return_code AND f.named_id IS NOT NULL
  UNION
  SELECT f.utr_id FROM statement_facts f JOIN statement_lines l USING (ordinal)
   WHERE l.type = 'RETURN' AND f.reach AND NOT f.match_taken AND f.dk <> f.k1 AND f.via = 'utr'`;

const BOOK_COLUMNS = (table: string, prefix: string) =>
  [
    'id',
    'ack_no',
    'state',
    'amount_paise',
    'bank_reference',
    'beneficiary_name',
    'settled_on',
    'reversed_on',
    'sent_on',
    'batch_key',
    'batch_id',
    'batch_payouts',
  ]
    .map((column) =>
      ['id', 'amount_paise', 'batch_key'].includes(column)
        ? `${table}.${column}::text AS ${prefix}${column}`
        : `${table}.${column} AS ${prefix}${column}`,
    )
    .join(', ');

const PAGE_SQL = `
  SELECT l.ordinal, l.file, l.line_number, l.reference, l.without_our_reference, l.without_return_code, l.utr,
         l.amount_paise::text AS amount_paise, l.type, to_char(l.value_date, 'YYYY-MM-DD') AS value_date, l.narration,
         f.own_taken, f.match_taken, f.dk, f.via, f.named_batch::text AS named_batch, f.total_batch::text AS total_batch,
         ${BOOK_COLUMNS('n', 'named_')}, ${BOOK_COLUMNS('u', 'utr_')}
    FROM statement_facts f JOIN statement_lines l USING (ordinal)
    LEFT JOIN statement_book n ON n.id = f.named_id
    LEFT JOIN statement_book u ON u.id = f.utr_id
   WHERE f.ordinal > $1 AND NOT f.plain
   ORDER BY f.ordinal
   LIMIT $2`;

// A line nothing names may be one of the payouts of its amount settled or sent within a day of its value
// date — those whose beneficiary its narration names, when any does. More than three are no suggestion
// (MAX_SUGGESTIONS), so four at most are read.
const CANDIDATES_SQL = `
  SELECT l.ordinal, c.*
    FROM statement_lines l JOIN statement_facts f USING (ordinal)
    CROSS JOIN LATERAL (
      WITH near AS (
        SELECT p.* FROM statement_book p
         WHERE p.amount_paise = l.amount_paise
           AND (abs(p.settled_on::date - l.value_date) <= 1 OR abs(p.sent_on::date - l.value_date) <= 1)
      ), named AS (
        SELECT * FROM near
         WHERE near.beneficiary_name <> ''
           AND strpos(lower(coalesce(l.narration, '')), lower(near.beneficiary_name)) > 0
      ), chosen AS (
        SELECT * FROM named
        UNION ALL
        SELECT * FROM near WHERE NOT EXISTS (SELECT 1 FROM named)
      )
      SELECT ${BOOK_COLUMNS('chosen', '')} FROM chosen ORDER BY chosen.id LIMIT 4
    ) c
   WHERE l.ordinal > $1 AND l.ordinal <= $2
     AND f.named_id IS NULL AND f.via IS NULL AND NOT f.own_taken AND NOT l.without_return_code
   ORDER BY l.ordinal, c.id::bigint`;

// Payouts paid here and settled on the statement's dates ($3) that no line debited; payouts reversed here
// on them on another word than a statement's that no return the bank vouches for brings back.
const SILENT_SQL: Record<StagedPayoutKind, string> = {
  success_here_missing_at_bank: `
    SELECT ${BOOK_COLUMNS('b', '')} FROM statement_book b
     WHERE b.id > $1::bigint AND b.state IN ('SUCCESS', 'REVERSED') AND b.settled_on = ANY($3::text[])
       AND NOT EXISTS (SELECT 1 FROM statement_debited d WHERE d.id = b.id)
     ORDER BY b.id LIMIT $2`,
  reversed_here_missing_at_bank: `
    SELECT ${BOOK_COLUMNS('b', '')} FROM statement_book b
     WHERE b.id > $1::bigint AND b.state = 'REVERSED' AND b.reversed_on = ANY($3::text[])
       AND NOT EXISTS (SELECT 1 FROM statement_returned r WHERE r.id = b.id)
     ORDER BY b.id LIMIT $2`,
};

interface BookRow {
  id: string;
  ack_no: string;
  state: PayoutState;
  amount_paise: string;
  bank_reference: string | null;
  beneficiary_name: string;
  settled_on: string | null;
  reversed_on: string | null;
  sent_on: string;
  batch_key: string | null;
  batch_id: string | null;
  batch_payouts: number | null;
}

type Prefixed<P extends string> = { [K in keyof BookRow as `${P}${K}`]: BookRow[K] | null };

interface LineRow extends Prefixed<'named_'>, Prefixed<'utr_'> {
  ordinal: number;
  file: number | null;
  line_number: number;
  reference: string;
  without_our_reference: boolean;
  without_return_code: boolean;
  utr: string;
  amount_paise: string;
  type: 'DEBIT' | 'RETURN';
  value_date: string;
  narration: string | null;
  own_taken: boolean;
  match_taken: boolean;
  dk: string | null;
  via: string | null;
  named_batch: string | null;
  total_batch: string | null;
}

function lineOf(row: LineRow): MatchableLine {
  return {
    lineNumber: row.line_number,
    ...(row.file !== null && { file: row.file }),
    reference: row.reference,
    ...(row.without_our_reference && { withoutOurReference: true as const }),
    ...(row.without_return_code && { withoutReturnCode: true as const }),
    utr: row.utr,
    amountPaise: BigInt(row.amount_paise),
    type: row.type,
    valueDate: row.value_date,
    ...(row.narration !== null && { narration: row.narration }),
  };
}

function bookPayout(row: object, prefix: string): BookPayout {
  const field = <K extends keyof BookRow>(name: K) =>
    (row as Record<string, unknown>)[`${prefix}${name}`] as BookRow[K];
  const batchKey = field('batch_key');
  return {
    id: BigInt(field('id')),
    ackNo: field('ack_no'),
    state: field('state'),
    amountPaise: BigInt(field('amount_paise')),
    bankReference: field('bank_reference'),
    settledOn: field('settled_on'),
    reversedOn: field('reversed_on'),
    sentOn: field('sent_on'),
    beneficiaryName: field('beneficiary_name'),
    batch:
      batchKey === null ? null : { key: batchKey, batchId: field('batch_id')!, payouts: field('batch_payouts') ?? 0 },
  };
}
