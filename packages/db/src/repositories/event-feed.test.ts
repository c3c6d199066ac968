import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hashToken,
  newAckNo,
  newApiToken,
  newWebhookSecret,
  tokenDisplayPrefix,
  webhookSecretDisplayPrefix,
} from '@payout/domain';
import { eventually } from '../../../../test/support/eventually.js';
import { createPrismaClient, type SqlStatement } from '../client.js';
import { eventPageStatement, findEventPage, type EventPageQuery } from './event-feed.js';
import { createMerchant } from './merchant-repository.js';
import { acceptPayouts } from './payout-repository.js';
import { creditWallet } from './wallet-repository.js';
import { registerWebhookEndpoint } from './webhook-endpoint-repository.js';

// A merchant's events feed as PostgreSQL reads it: a page is a range of (merchant_id, position) in the deliveries
// and in the unsent events, however long the merchant's history among other merchants'; and positions become
// visible in order, an event never appearing below one already read.

/** The merchant's history, in thirds: downtime starts sent, payout results sent, downtime starts unsent. */
const THIRD = 1_000;
const HISTORY = 3 * THIRD;

const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 2, connectTimeoutMs: 5_000 });
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: 4 });
let merchantId: number;

async function newMerchant(options: { endpoint: boolean }): Promise<number> {
  const token = newApiToken();
  const mid = `EV${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  const merchant = await createMerchant(db, {
    mid,
    name: `Events ${mid}`,
    firstTokenHash: hashToken(token),
    firstTokenPrefix: tokenDisplayPrefix(token),
  });
  if (options.endpoint) {
    const secret = newWebhookSecret();
    const endpoint = {
      url: 'https://hooks.example.com/payouts',
      secret,
      secretPrefix: webhookSecretDisplayPrefix(secret),
    };
    await registerWebhookEndpoint(db, merchant.id, endpoint, 86_400_000);
  }
  return merchant.id;
}

/** `count` payouts of the merchant, accepted (the tests record their events with the writer itself). */
async function payoutsOf(merchant: number, count: number): Promise<bigint[]> {
  await creditWallet(db, merchant, 10_000n * BigInt(count), `opening-${merchant}-${Date.now()}`);
  const ids: bigint[] = [];
  for (let start = 0; start < count; start += 500) {
    const accepted = await acceptPayouts(
      db,
      Array.from({ length: Math.min(500, count - start) }, (_, i) => ({
        merchantId: merchant,
        transactionId: `${merchant}${Date.now()}${start + i}`,
        mode: 'UPI' as const,
        amountPaise: 10_000n,
        ackNo: newAckNo(),
        account: 'asha@okhdfc',
        ifsc: null,
        name: 'Asha',
        bankName: null,
        mobile: null,
        email: null,
        description: null,
        scheduledAt: null,
      })),
    );
    for (const a of accepted) {
      if (a.outcome !== 'accepted') throw new Error(`payout not accepted: ${a.outcome}`);
      ids.push(a.payout.id);
    }
  }
  return ids;
}

/** Records each payout's result event, as the settlement does (packages/db/sql/functions/enqueue_payout_webhook.sql). */
async function recordResults(merchant: number, payouts: readonly bigint[]): Promise<void> {
  await pool.query(
    `SELECT enqueue_payout_webhook($1, id, 'SETTLEMENT', 'settlement') FROM unnest($2::bigint[]) WITH ORDINALITY AS p(id, n) ORDER BY n`,
    [merchant, payouts.map(String)],
  );
}

beforeAll(async () => {
  // Four other merchants, two with endpoints, are told of the same downtimes and have payouts and events of their
  // own. The merchant's endpoint is disabled for the last third: those downtime starts are recorded unsent.
  merchantId = await newMerchant({ endpoint: true });
  const others: number[] = [];
  for (let n = 0; n < 4; n++) others.push(await newMerchant({ endpoint: n % 2 === 0 }));
  await pool.query(
    `INSERT INTO bank_downtimes (bank, mode, status, since, resolved_at)
     SELECT 'feedbank' || g, 'UPI', 'DOWN', now() - interval '1 hour', now() FROM generate_series(1, $1) g`,
    [2 * THIRD],
  );
  const tellDowntimes = (third: 'first' | 'last') =>
    pool.query(
      `SELECT enqueue_downtime_webhooks(id, 'DOWNTIME_STARTED')
         FROM (SELECT id FROM bank_downtimes WHERE bank LIKE 'feedbank%' ORDER BY id
               ${third === 'first' ? 'LIMIT $1' : 'OFFSET $1'}) d`,
      [THIRD],
    );
  await tellDowntimes('first');
  await recordResults(merchantId, await payoutsOf(merchantId, THIRD));
  for (const other of others) await recordResults(other, await payoutsOf(other, THIRD));
  await pool.query(
    `UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'test' WHERE merchant_id = $1`,
    [merchantId],
  );
  await tellDowntimes('last');
  await pool.query('ANALYZE webhook_deliveries, unsent_webhook_events, payouts, bank_downtimes');
}, 180_000);

afterAll(async () => {
  await db.$disconnect();
  await pool.end();
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

const query = (overrides: Partial<EventPageQuery> = {}): EventPageQuery => ({
  merchantId,
  after: 0n,
  limit: 100,
  ...overrides,
});

describe('the events feed statement', () => {
  it.each<[string, Partial<EventPageQuery>]>([
    ['the first page', {}],
    ['a page of downtime events', { after: 700n }],
    ['a page of payout events', { after: 1_400n, limit: 500 }],
    ['a page of unsent events', { after: 2_400n }],
    ['a page past the end', { after: 5_000n }],
  ])(
    'when planned for %s, then each table is read by its (merchant, position) index, never scanned',
    async (_name, q) => {
      const nodes = await planOf(eventPageStatement(query(q)));

      // An index scan, or a bitmap of the index when a page reaches the end of a table: a range either way.
      const indexReads = nodes.filter((n) => n['Index Name'] !== undefined && /Index/.test(n['Node Type']));
      const feedIndexes = indexReads.filter(
        (n) => n['Index Name'] !== 'payouts_pkey' && n['Index Name'] !== 'bank_downtimes_pkey',
      );
      expect(feedIndexes.map((n) => n['Index Name']).sort(), JSON.stringify(nodes)).toEqual([
        'unsent_webhook_events_pkey',
        'webhook_deliveries_merchant_id_position_key',
      ]);
      for (const read of feedIndexes)
        expect(read['Index Cond']).toMatch(/^\(\(merchant_id = \d+\) AND \("position" > /);
      const scanned = nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']);
      expect(scanned).not.toContain('webhook_deliveries');
      expect(scanned).not.toContain('unsent_webhook_events');
    },
  );
});

describe('findEventPage', () => {
  it('when pages are read one after another from the last position, then they hold every event of the merchant once, in order', async () => {
    const seen: bigint[] = [];
    let after = 0n;
    for (;;) {
      const page = await findEventPage(db, query({ after, limit: 500 }));
      if (page.length === 0) break;
      seen.push(...page.map((e) => e.position));
      for (const event of page) {
        const payoutThird = event.position > THIRD && event.position <= 2 * THIRD;
        expect(event.subject.kind).toBe(payoutThird ? 'payout' : 'downtime');
      }
      after = page.at(-1)!.position;
    }

    expect(seen).toEqual(Array.from({ length: HISTORY }, (_, i) => BigInt(i + 1)));
    // A payout's result is its first event; the merchant's downtime events are numbered 1, 2, … across every
    // bank, payout events between them or not (docs/webhooks.md).
    const around = (at: number) => findEventPage(db, query({ after: BigInt(at - 2), limit: 4 }));
    expect((await around(THIRD)).map((e) => [e.position, e.subject.kind, e.sequence])).toEqual([
      [999n, 'downtime', 999],
      [1_000n, 'downtime', 1_000],
      [1_001n, 'payout', 1],
      [1_002n, 'payout', 1],
    ]);
    expect((await around(2 * THIRD)).map((e) => [e.position, e.subject.kind, e.sequence])).toEqual([
      [1_999n, 'payout', 1],
      [2_000n, 'payout', 1],
      [2_001n, 'downtime', 1_001],
      [2_002n, 'downtime', 1_002],
    ]);
  });

  it('when an event of a merchant is being recorded, then the next one waits for it to commit, and the feed never shows the later without the earlier', async () => {
    const merchant = await newMerchant({ endpoint: true });
    const neighbour = await newMerchant({ endpoint: true });
    const [first, second] = await payoutsOf(merchant, 2);
    const [elsewhere] = await payoutsOf(neighbour, 1);
    // packages/db/sql/functions/enqueue_payout_webhook.sql, as the settlement calls it.
    const record = (client: Pick<pg.ClientBase, 'query'>, m: number, payout: bigint) =>
      client.query<{ id: string }>(`SELECT enqueue_payout_webhook($1, $2, 'SETTLEMENT', 'test')::text AS id`, [
        m,
        payout.toString(),
      ]);
    const feed = async (m: number) =>
      (await findEventPage(db, { merchantId: m, after: 0n, limit: 10 })).map((e) => e.position);

    const earlier = await pool.connect();
    const later = await pool.connect();
    try {
      await earlier.query('BEGIN');
      const earlierDelivery = BigInt((await record(earlier, merchant, first!)).rows[0]!.id);

      await later.query("BEGIN; SET LOCAL lock_timeout = '20s'");
      const laterPid = (await later.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const earlierPid = (await earlier.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const recordingLater = record(later, merchant, second!);
      await eventually(
        async () =>
          (await pool.query<{ pids: number[] }>('SELECT pg_blocking_pids($1) AS pids', [laterPid])).rows[0]!.pids,
        (pids) => pids.includes(earlierPid),
        { what: "the later event waiting for the earlier one's commit" },
      );

      // Another merchant's event is not held up: its delivery's id, taken after the earlier one's, commits first
      // and is in its own feed at once. Ids alone could not order the feed; positions per merchant do.
      const neighbours = BigInt((await record(pool, neighbour, elsewhere!)).rows[0]!.id);
      expect(neighbours).toBeGreaterThan(earlierDelivery);
      expect(await feed(neighbour)).toEqual([1n]);
      expect(await feed(merchant)).toEqual([]);

      await earlier.query('COMMIT');
      expect(await feed(merchant)).toEqual([1n]);
      await recordingLater;
      expect(await feed(merchant), 'not before it commits').toEqual([1n]);
      await later.query('COMMIT');
      expect(await feed(merchant)).toEqual([1n, 2n]);
    } finally {
      await earlier.query('ROLLBACK').catch(() => undefined);
      await later.query('ROLLBACK').catch(() => undefined);
      earlier.release();
      later.release();
    }
  });

  it('when an event is recorded and rolled back, then its position is given to the next event: positions have no holes', async () => {
    const merchant = await newMerchant({ endpoint: false });
    const [first, second] = await payoutsOf(merchant, 2);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT enqueue_payout_webhook($1, $2, 'SETTLEMENT', 'test')`, [merchant, first!.toString()]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    await pool.query(`SELECT enqueue_payout_webhook($1, $2, 'SETTLEMENT', 'test')`, [merchant, second!.toString()]);

    const page = await findEventPage(db, { merchantId: merchant, after: 0n, limit: 10 });
    expect(page.map((e) => [e.position, e.sequence, e.subject.kind === 'payout' && e.subject.payoutId])).toEqual([
      [1n, 1, second],
    ]);
  });
});
