import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newAckNo, newApiToken, tokenDisplayPrefix, type PayoutInstructionRecord } from '@payout/domain';
import { createPrismaClient, type SqlStatement } from '../client.js';
import { createMerchant } from './merchant-repository.js';
import { acceptPayouts } from './payout-repository.js';
import { creditWallet } from './wallet-repository.js';
import {
  findStatementPage,
  openStatement,
  statementEntriesStatement,
  statementPageStatement,
  type StatementPage,
  type StatementPageQuery,
} from './wallet-statement.js';

// The statement's reads (docs/api.md, "Statement") for a merchant with two months of history among other
// merchants': its balances agree with the ledger summed by hand wherever the period starts, pages walk every
// entry once in time order, and every read is a range of `ledger_entries_statement_idx` — the sums of the index
// alone — never a scan of the table.

const INDEX = 'ledger_entries_statement_idx';
const DAY_MS = 86_400_000;
const PAYOUTS = 3_000;

const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 2, connectTimeoutMs: 5_000 });
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: 1 });
let merchantId: number;
// When the merchant's history begins: 60 days ago, its entries spread evenly up to now.
const began = new Date(Date.now() - 60 * DAY_MS);

async function merchantWith(payouts: number): Promise<number> {
  const token = newApiToken();
  const mid = `ST${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  const merchant = await createMerchant(db, {
    mid,
    name: `Statement ${mid}`,
    firstTokenHash: hashToken(token),
    firstTokenPrefix: tokenDisplayPrefix(token),
  });
  await creditWallet(db, merchant.id, 10_000n * BigInt(payouts), `opening-${mid}`);
  const instruction = (n: number): PayoutInstructionRecord => ({
    merchantId: merchant.id,
    transactionId: `${merchant.id}${String(n).padStart(6, '0')}`,
    mode: 'UPI',
    amountPaise: 5_000n + BigInt(n % 7),
    ackNo: newAckNo(),
    account: 'asha@okhdfc',
    ifsc: null,
    name: 'Asha',
    bankName: null,
    mobile: null,
    email: null,
    description: null,
    scheduledAt: null,
  });
  for (let start = 0; start < payouts; start += 500) {
    await acceptPayouts(
      db,
      Array.from({ length: Math.min(500, payouts - start) }, (_, i) => instruction(start + i)),
    );
    await creditWallet(db, merchant.id, 1_234n + BigInt(start), `top-up-${mid}-${start}`);
  }
  return merchant.id;
}

beforeAll(async () => {
  merchantId = await merchantWith(PAYOUTS);
  for (let other = 0; other < 2; other++) await merchantWith(1_500);
  // Two months of history: the merchant's entries in posting order, evenly from `began` to now (both legs of an
  // entry keep one time), a few sharing a millisecond so the id has ties to break.
  await pool.query(
    `UPDATE ledger_entries l SET created_at = $2::timestamptz + (now() - $2::timestamptz) * r.n / r.total
       FROM (SELECT id, dense_rank() OVER (ORDER BY id / 4) AS n, count(*) OVER () / 4 + 1 AS total
               FROM ledger_entries WHERE merchant_id = $1) r
      WHERE l.id = r.id`,
    [merchantId, began],
  );
  await pool.query('VACUUM ANALYZE ledger_entries');
}, 180_000);
afterAll(async () => {
  await db.$disconnect();
  await pool.end();
});

/** The main wallet's balance at `at` summed by hand: every MAIN_WALLET leg posted before it. */
async function balanceAt(at: Date | null): Promise<bigint> {
  const { rows } = await pool.query<{ sum: string }>(
    `SELECT coalesce(sum(amount_paise), 0)::text AS sum FROM ledger_entries
      WHERE merchant_id = $1 AND account = 'MAIN_WALLET' AND ($2::timestamptz IS NULL OR created_at < $2)`,
    [merchantId, at],
  );
  return BigInt(rows[0]!.sum);
}

const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

const query = (overrides: Partial<StatementPageQuery> = {}): StatementPageQuery => ({
  merchantId,
  period: { from: daysAgo(30), to: daysAgo(20) },
  after: null,
  limit: 100,
  ...overrides,
});

describe('findStatementPage', () => {
  // Near the start of the history the entries before `from` are summed; near its end, the wallet less those since.
  it.each([
    ['before the history began', daysAgo(70)],
    ['just after it began', daysAgo(58)],
    ['in its middle', daysAgo(30)],
    ['a day ago', daysAgo(1)],
    ['a moment ago', new Date(Date.now() - 1_000)],
    ['tomorrow', daysAgo(-1)],
  ])(
    'when the period starts %s, then the opening and closing balances are the ledger summed by hand',
    async (_when, from) => {
      for (const to of [new Date(from.getTime() + 2 * DAY_MS), null]) {
        const page = await findStatementPage({ primary: db }, query({ period: { from, to } }));
        expect(page).not.toBeNull();
        expect(page!.openingPaise, `from ${from.toISOString()}`).toBe(await balanceAt(from));
        expect(page!.closingPaise, `to ${to?.toISOString()}`).toBe(await balanceAt(to));
        expect(page!.balanceBeforePaise).toBe(page!.openingPaise);
      }
    },
  );

  it('when pages are read one after another from the last entry of each, then they hold every entry of the period once, oldest first, the balances running on', async () => {
    const period = { from: daysAgo(40), to: daysAgo(10) };
    const seen: bigint[] = [];
    let after: StatementPageQuery['after'] = null;
    let running = await balanceAt(period.from);
    let previous: { createdAt: Date; id: bigint } | null = null;
    for (;;) {
      const page: StatementPage = (await findStatementPage({ primary: db }, query({ period, after, limit: 333 })))!;
      expect(page.balanceBeforePaise).toBe(running);
      for (const entry of page.entries) {
        expect(entry.createdAt >= period.from && entry.createdAt < period.to).toBe(true);
        if (previous) {
          const later =
            entry.createdAt > previous.createdAt ||
            (entry.createdAt.getTime() === previous.createdAt.getTime() && entry.id > previous.id);
          expect(later, `${entry.id} after ${previous.id}`).toBe(true);
        }
        previous = entry;
        running += entry.amountPaise;
        seen.push(entry.id);
      }
      expect(page.closingPaise).toBe(await balanceAt(period.to));
      if (!page.more) break;
      after = page.entries.at(-1)!;
    }

    expect(running).toBe(await balanceAt(period.to));
    const { rows } = await pool.query<{ id: string }>(
      `SELECT id::text FROM ledger_entries
        WHERE merchant_id = $1 AND account = 'MAIN_WALLET' AND created_at >= $2 AND created_at < $3`,
      [merchantId, period.from, period.to],
    );
    expect(seen.length).toBeGreaterThan(1_000);
    expect(seen.map(String)).toEqual(expect.arrayContaining(rows.map((r) => r.id)));
    expect(new Set(seen).size).toBe(rows.length);
  });

  it('when the merchant has no wallet, then there is no statement', async () => {
    const token = newApiToken();
    const mid = `SN${Date.now().toString(36)}`;
    const merchant = await createMerchant(db, {
      mid,
      name: mid,
      firstTokenHash: hashToken(token),
      firstTokenPrefix: tokenDisplayPrefix(token),
    });
    expect(await findStatementPage({ primary: db }, query({ merchantId: merchant.id }))).toBeNull();
    expect(
      await openStatement({ primary: db }, { merchantId: merchant.id, period: query().period, batch: 10 }),
    ).toBeNull();
  });

  it('when the "replica" is a server that is no standby, then it is never read: the primary answers', async () => {
    // The server's own maintenance database has no ledger: a statement read there would fail.
    const elsewhere = new URL(process.env.DATABASE_URL!);
    elsewhere.pathname = '/postgres';
    const notAStandby = createPrismaClient({ url: elsewhere.toString(), poolSize: 1, connectTimeoutMs: 5_000 });
    try {
      const page = await findStatementPage({ primary: db, replica: notAStandby }, query());
      expect(page!.openingPaise).toBe(await balanceAt(query().period.from));
    } finally {
      await notAStandby.$disconnect();
    }
  });
});

describe('openStatement', () => {
  it('when iterated, then it yields the same entries as the pages, a batch at a time', async () => {
    const period = { from: daysAgo(25), to: daysAgo(15) };
    const statement = (await openStatement({ primary: db }, { merchantId, period, batch: 97 }))!;
    expect(statement.openingPaise).toBe(await balanceAt(period.from));
    const ids: bigint[] = [];
    for await (const entry of statement.entries) ids.push(entry.id);
    const page = (await findStatementPage({ primary: db }, query({ period, limit: 1_000 })))!;
    expect(page.more).toBe(false);
    expect(ids).toEqual(page.entries.map((e) => e.id));
    expect(ids.length).toBeGreaterThan(97 * 3);
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** The plan PostgreSQL makes for the statement with these very parameters, as sqlRows sends it (unnamed). */
async function planOf(statement: SqlStatement): Promise<PlanNode[]> {
  let text = statement.strings[0]!;
  for (let i = 1; i < statement.strings.length; i++) text += `$${i}${statement.strings[i]}`;
  const values = statement.values.map((v) => (typeof v === 'bigint' ? v.toString() : v));
  const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    node.Plans?.forEach(walk);
  };
  walk(rows[0]!['QUERY PLAN'][0].Plan);
  return nodes;
}

describe('the statement reads', () => {
  const deep = { createdAt: daysAgo(25), id: 1n };
  // Each case: the statement, what its page read must seek to in the index rather than filter out, and how many
  // balance reads it has (the history's start, the two ways to the opening balance, the period's sums).
  it.each<[string, () => SqlStatement, RegExp, number]>([
    [
      'a first page of a recent period',
      () => statementPageStatement(query({ period: { from: daysAgo(2), to: null } })),
      /created_at >= /,
      4,
    ],
    [
      'a first page of an old period',
      () => statementPageStatement(query({ period: { from: daysAgo(55), to: daysAgo(50) } })),
      /created_at >= .*created_at < /,
      4,
    ],
    [
      'a page deep into a period',
      () => statementPageStatement(query({ after: deep, limit: 1_000 })),
      /ROW\(created_at, id\) > /,
      4,
    ],
    [
      'a batch of the CSV',
      () => statementEntriesStatement({ ...query(), after: deep, limit: 1_000 }),
      /ROW\(created_at, id\) > /,
      0,
    ],
  ])(
    'when planned for %s, then every read of the ledger is a range of the statement index, its sums of the index alone',
    async (_name, make, seek, balances) => {
      const nodes = await planOf(make());

      const ledgerReads = nodes.filter((n) => /account = 'MAIN_WALLET'/.test(n['Index Cond'] ?? ''));
      expect(ledgerReads.length, JSON.stringify(nodes)).toBeGreaterThan(0);
      expect(new Set(ledgerReads.map((n) => n['Index Name']))).toEqual(new Set([INDEX]));
      expect(ledgerReads.map((n) => n['Index Cond'])).toContainEqual(expect.stringMatching(seek));
      expect(nodes.filter((n) => n['Relation Name'] === 'ledger_entries' && n['Node Type'] === 'Seq Scan')).toEqual([]);
      // A balance is a sum (or the first entry's time) read from the index without touching the table.
      const balanceReads = nodes.filter(
        (n) => ['Aggregate', 'Limit'].includes(n['Node Type']) && n.Plans?.length === 1,
      );
      const ofTheIndex = balanceReads.flatMap((n) => n.Plans!).filter((n) => n['Index Name'] === INDEX);
      expect(new Set(ofTheIndex).size, JSON.stringify(nodes)).toBe(balances);
      for (const read of ofTheIndex) expect(read['Node Type'], JSON.stringify(read)).toBe('Index Only Scan');
    },
  );
});
