import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newAckNo, newApiToken, tokenDisplayPrefix, type PayoutInstructionRecord } from '@payout/domain';
import { createPrismaClient, type SqlStatement } from '../client.js';
import { createMerchant } from './merchant-repository.js';
import { findPayoutPage, payoutPageStatement, type PayoutPageFilters, type PayoutPageQuery } from './payout-list.js';
import { acceptPayouts } from './payout-repository.js';
import { creditWallet } from './wallet-repository.js';

// The payout list's statement as PostgreSQL plans it for a merchant with a long history among other merchants':
// every page, filtered or not, first or deep, is a range read of `payouts (merchant_id, created_at DESC,
// id DESC)` in the index's own order — never a scan of the table, never a sort of the merchant's payouts.

const INDEX = 'payouts_merchant_id_created_at_id_idx';
const HISTORY = 4_000;

const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 2, connectTimeoutMs: 5_000 });
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: 1 });
let merchantId: number;

async function merchantWith(payouts: number, balancePaise: bigint): Promise<number> {
  const token = newApiToken();
  const mid = `PL${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  const merchant = await createMerchant(db, {
    mid,
    name: `List ${mid}`,
    firstTokenHash: hashToken(token),
    firstTokenPrefix: tokenDisplayPrefix(token),
  });
  if (balancePaise > 0n) await creditWallet(db, merchant.id, balancePaise, `opening-${mid}`);
  const instruction = (n: number): PayoutInstructionRecord => ({
    merchantId: merchant.id,
    transactionId: `${merchant.id}${String(n).padStart(6, '0')}`,
    mode: n % 3 === 0 ? 'IMPS' : 'UPI',
    amountPaise: 10_000n,
    ackNo: newAckNo(),
    account: n % 3 === 0 ? '123456789012' : 'asha@okhdfc',
    ifsc: n % 3 === 0 ? 'HDFC0001234' : null,
    name: 'Asha',
    bankName: null,
    mobile: null,
    email: null,
    description: null,
    scheduledAt: null,
  });
  for (let start = 0; start < payouts; start += 500) {
    const chunk = Array.from({ length: Math.min(500, payouts - start) }, (_, i) => instruction(start + i));
    await acceptPayouts(db, chunk);
  }
  return merchant.id;
}

beforeAll(async () => {
  // Funded for half its payouts: the rest are recorded FAILED (insufficient balance), so statuses vary.
  merchantId = await merchantWith(HISTORY, 10_000n * BigInt(HISTORY / 2));
  for (let other = 0; other < 3; other++) await merchantWith(1_500, 10_000n * 1_500n);
  await pool.query(`UPDATE payouts SET bank = 'primary' WHERE merchant_id = $1 AND id % 4 = 0`, [merchantId]);
  await pool.query('ANALYZE payouts');
}, 120_000);
afterAll(async () => {
  await db.$disconnect();
  await pool.end();
});

const NO_FILTERS: PayoutPageFilters = { from: null, to: null, status: null, mode: null, batchId: null, bank: null };

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
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

const query = (overrides: Partial<PayoutPageQuery> = {}): PayoutPageQuery => ({
  merchantId,
  filters: NO_FILTERS,
  after: null,
  limit: 100,
  ...overrides,
});

/** Where the merchant's `n`th newest payout stands in the list. */
async function positionAt(n: number): Promise<NonNullable<PayoutPageQuery['after']>> {
  const page = await findPayoutPage({ primary: db }, query({ limit: n }));
  const payout = page.payouts.at(-1)!;
  return { createdAt: payout.createdAt, id: payout.id };
}

describe('the payout list statement', () => {
  const hourAgo = new Date(Date.now() - 3_600_000);
  // Each case: the query, and what the index read must seek to (beyond the merchant) rather than filter out.
  it.each<[string, () => Partial<PayoutPageQuery> | Promise<Partial<PayoutPageQuery>>, RegExp]>([
    ['the first page', () => ({}), /^\(merchant_id = \d+\)$/],
    ['a page deep into the history', async () => ({ after: await positionAt(HISTORY / 2) }), /ROW\(created_at, id\) </],
    ['a page of 1,000', () => ({ limit: 1_000 }), /^\(merchant_id = \d+\)$/],
    [
      'a time window',
      () => ({ filters: { ...NO_FILTERS, from: hourAgo, to: new Date() } }),
      /created_at >= .*created_at </,
    ],
    ['a status', () => ({ filters: { ...NO_FILTERS, status: 'FAILED' } }), /^\(merchant_id = \d+\)$/],
    ['a mode', () => ({ filters: { ...NO_FILTERS, mode: 'IMPS' } }), /^\(merchant_id = \d+\)$/],
    ['a bank', () => ({ filters: { ...NO_FILTERS, bank: 'primary' } }), /^\(merchant_id = \d+\)$/],
  ])(
    'when planned for %s, then it reads the index in its order, and no scan or sort of payouts',
    async (_name, make, seek) => {
      const nodes = await planOf(payoutPageStatement(query(await make())));

      const payoutReads = nodes.filter((n) => n['Relation Name'] === 'payouts');
      expect(
        payoutReads.map((n) => [n['Node Type'], n['Index Name']]),
        JSON.stringify(nodes),
      ).toEqual([['Index Scan', INDEX]]);
      expect(payoutReads[0]!['Index Cond']).toMatch(seek);
      expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
      expect(nodes.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    },
  );

  // A filter few payouts pass may be read another way (all the merchant's payouts, then sorted): a page of
  // them needs most of the history either way. Still only this merchant's, never the table.
  it.each<[string, PayoutPageFilters]>([
    ['a rare combination of filters', { ...NO_FILTERS, mode: 'IMPS', bank: 'primary', status: 'SUCCESS' }],
    ['one bulk batch', { ...NO_FILTERS, batchId: '20240601' }],
  ])('when planned for %s, then payouts are never scanned whole', async (_name, filters) => {
    const nodes = await planOf(payoutPageStatement(query({ filters })));

    expect(nodes.filter((n) => n['Relation Name'] === 'payouts' && n['Node Type'] === 'Seq Scan')).toEqual([]);
  });
});

describe('findPayoutPage', () => {
  it('when pages are read one after another from the cursor of the last, then they hold every payout of the merchant once, newest first', async () => {
    const seen: bigint[] = [];
    let after: PayoutPageQuery['after'] = null;
    let previous: { createdAt: Date; id: bigint } | null = null;
    for (;;) {
      const page = await findPayoutPage({ primary: db }, query({ after, limit: 700 }));
      for (const payout of page.payouts) {
        expect(payout.merchantId).toBe(merchantId);
        if (previous) {
          const older =
            payout.createdAt < previous.createdAt ||
            (payout.createdAt.getTime() === previous.createdAt.getTime() && payout.id < previous.id);
          expect(older, `${payout.id} after ${previous.id}`).toBe(true);
        }
        previous = payout;
        seen.push(payout.id);
      }
      if (!page.more) break;
      const last = page.payouts.at(-1)!;
      after = { createdAt: last.createdAt, id: last.id };
    }

    const { rows } = await pool.query<{ id: string }>('SELECT id::text FROM payouts WHERE merchant_id = $1', [
      merchantId,
    ]);
    expect(seen).toHaveLength(HISTORY);
    expect(new Set(seen).size).toBe(HISTORY);
    expect(new Set(seen.map(String))).toEqual(new Set(rows.map((r) => r.id)));
  });

  it('when the rest of a filtered list fits one page, then it says no more follow', async () => {
    const filters: PayoutPageFilters = { ...NO_FILTERS, mode: 'IMPS' };
    const imps = Math.ceil(HISTORY / 3);
    const first = await findPayoutPage({ primary: db }, query({ limit: 1_000, filters }));
    expect(first.payouts).toHaveLength(1_000);
    expect(first.more).toBe(true);

    const rest = await findPayoutPage(
      { primary: db },
      query({ limit: imps - 1_000, after: first.payouts.at(-1)!, filters }),
    );
    expect(rest.payouts).toHaveLength(imps - 1_000);
    expect(rest.payouts.every((p) => p.mode === 'IMPS')).toBe(true);
    expect(rest.more).toBe(false);
  });

  it('when the "replica" is a server that is no standby, then it is never read: the primary answers', async () => {
    // The server's own maintenance database has no payouts table: a page read there would fail.
    const elsewhere = new URL(process.env.DATABASE_URL!);
    elsewhere.pathname = '/postgres';
    const notAStandby = createPrismaClient({ url: elsewhere.toString(), poolSize: 1, connectTimeoutMs: 5_000 });
    try {
      const page = await findPayoutPage({ primary: db, replica: notAStandby }, query({ limit: 10 }));
      expect(page.payouts).toHaveLength(10);
      expect(page.more).toBe(true);
    } finally {
      await notAStandby.$disconnect();
    }
  });
});
