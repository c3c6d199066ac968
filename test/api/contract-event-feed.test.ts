import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayoutClient, PayoutClientError, type FeedEvent } from '@payout/client';
import {
  openBankDowntime,
  recordWebhookReplay,
  resolveBankDowntime,
  reversePayout,
  type PayoutSummary,
} from '@payout/db';
import { webhookDestinationPolicy } from '@payout/config';
import { stringifyJson } from '@payout/domain';
import { createLogger } from '@payout/telemetry';
import { WebhookDeliverer } from '../../apps/worker/src/webhooks/deliver-webhook.job.js';
import { WebhookSender } from '../../apps/worker/src/webhooks/webhook-sender.js';
import { call, losslessBody, useApi, type ApiResponse } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { workerConfig } from '../support/stack.js';
import { documentedBodyErrors, type JsonObject } from '../docs/openapi-checks.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';
import { payoutAtTheRail, registerEndpoint, settle } from '../webhooks/webhook-fixtures.js';
import {
  expectJson,
  expectValidationError,
  invalidMidBody,
  merchantSnapshot,
  unauthorizedBody,
} from './contract-expectations.js';

// Contract of GET /api/events (docs/api.md, "Events feed"): every event a webhook carries — a payout settled,
// failed or reversed, a bank downtime started or resolved — in the order recorded, each its position then
// exactly the body its webhook carries (compared with what the real deliverer sends, byte for byte), whether
// or not the merchant has an endpoint; a replay is no new event; pages from a position yield each event once;
// another merchant's events never appear; every bad parameter a 422. Each answer is also checked against the
// OpenAPI document, and the SDK's events() walks the same feed.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
let document: JsonObject;
let endpoint: WebhookReceiver;
let sender: WebhookSender;
let deliverer: WebhookDeliverer;
let banks = 0;

beforeAll(async () => {
  document = (await call(api.current, '/openapi.json')).json;
  endpoint = await WebhookReceiver.start();
  sender = new WebhookSender(webhookDestinationPolicy(workerConfig()));
  // The real deliverer without a queue: the test sends each delivery when it chooses.
  deliverer = new WebhookDeliverer({
    db: prisma,
    scheduler: { scheduleAttempt: () => Promise.resolve(true) },
    logger: createLogger('worker', 'silent'),
    sender,
    timeoutMs: 5_000,
    retryForMs: 60_000,
    schedule: { firstDelayMs: 15_000, maxDelayMs: 60_000 },
  });
});
afterAll(async () => {
  await sender.close();
  await endpoint.close();
  await prisma.$disconnect();
  await pool.end();
});

type Query = Record<string, string | string[]>;
type FeedItem = Record<string, unknown> & { position: string };
interface Page {
  events: FeedItem[];
  next_after: string;
}

function feedPath(query: Query = {}): string {
  const parts = Object.entries(query).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`),
  );
  return parts.length ? `/api/events?${parts.join('&')}` : '/api/events';
}

async function feed(merchant: Pick<TestMerchant, 'mid' | 'token'>, query: Query = {}): Promise<ApiResponse> {
  const res = await call(api.current, feedPath(query), { merchant });
  expect(documentedBodyErrors(document, '/api/events', 'get', res), res.text).toEqual([]);
  return res;
}

/** A 200 page, parsed losslessly (numbers keep their literal). */
async function page(merchant: TestMerchant, query: Query = {}): Promise<Page> {
  const res = await feed(merchant, query);
  expect(res.status, res.text).toBe(200);
  return losslessBody(res) as unknown as Page;
}

/** Every event of the merchant's feed, one page of `limit` after another from `after`. */
async function walk(
  merchant: TestMerchant,
  limit: number,
  after = '0',
): Promise<{ events: FeedItem[]; pages: number }> {
  const events: FeedItem[] = [];
  let pages = 0;
  for (;;) {
    const current = await page(merchant, { after, limit: String(limit) });
    pages += 1;
    events.push(...current.events);
    expect(current.next_after).toBe(current.events.at(-1)?.position ?? after);
    if (current.events.length < limit) return { events, pages };
    after = current.next_after;
  }
}

/** Items as plain JSON (numbers as JS numbers), for comparing members; ids of up to 15 digits stay exact. */
const plain = (items: FeedItem[]) => JSON.parse(stringifyJson(items)) as FeedItem[];

/** The item without its position: what its webhook carries, written as the webhook writes it. */
const webhookText = ({ position: _position, ...body }: FeedItem) => stringifyJson(body);

/** Sends the delivery with the real deliverer and answers the body the endpoint received, exactly as sent. */
async function delivered(deliveryId: bigint | null | undefined): Promise<string> {
  const before = endpoint.received.length;
  expect(await deliverer.deliver(deliveryId!, 1)).toBe('DELIVERED');
  const requests = await endpoint.requests(before + 1);
  return requests[before]!.body;
}

async function lastItem(merchant: TestMerchant): Promise<FeedItem> {
  return (await walk(merchant, 500)).events.at(-1)!;
}

/** A bank alias of its own per downtime: at most one downtime is open per bank and mode. */
const newBank = () => `feed${++banks}`;

async function downtimeDeliveryOf(merchant: TestMerchant, downtimeCause: 'DOWNTIME_STARTED' | 'DOWNTIME_RESOLVED') {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id::text FROM webhook_deliveries WHERE merchant_id = $1 AND cause = $2 ORDER BY id DESC LIMIT 1`,
    [merchant.merchant.id, downtimeCause],
  );
  return BigInt(rows[0]!.id);
}

describe('GET /api/events found (200)', () => {
  it('when a merchant with an endpoint has payouts settled, failed and reversed and a downtime starts and ends, then each event is listed in order, its item exactly the body its webhook carried', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    await registerEndpoint(prisma, merchant, endpoint.url);
    const paid = await payoutAtTheRail(prisma, merchant, { mode: 'UPI', transactionId: '12345678901234567890123' });
    const failed = await payoutAtTheRail(prisma, merchant, { mode: 'IMPS' });
    const bank = newBank();

    // Each webhook is sent the moment its event is recorded, and the feed read then: the item is the body sent.
    const steps: [string, () => Promise<bigint | null>][] = [
      ['payout.success', async () => (await settle(prisma, paid, 'SUCCESS')).webhookDeliveryId],
      ['payout.failed', async () => (await settle(prisma, failed, 'FAILED')).webhookDeliveryId],
      [
        'downtime.started',
        async () => {
          await openBankDowntime(prisma, { bank, mode: 'UPI', status: 'DOWN' });
          return downtimeDeliveryOf(merchant, 'DOWNTIME_STARTED');
        },
      ],
      [
        'payout.reversed',
        async () =>
          (
            await reversePayout(prisma, paid.id, {
              source: 'rail',
              note: { reason: 'test: the beneficiary bank returned it', actor: 'test' },
            })
          ).webhookDeliveryId,
      ],
      [
        'downtime.resolved',
        async () => {
          await resolveBankDowntime(prisma, { bank, mode: 'UPI' });
          return downtimeDeliveryOf(merchant, 'DOWNTIME_RESOLVED');
        },
      ],
    ];
    const positions: string[] = [];
    const bodies: string[] = [];
    for (const [event, record] of steps) {
      const body = await delivered(await record());
      const item = await lastItem(merchant);
      expect(item.event, body).toBe(event);
      expect(webhookText(item)).toBe(body);
      positions.push(item.position);
      bodies.push(body);
    }
    // The 23-digit TransactionID of a UPI SUCCESS is a JSON number literal with every digit, in both.
    expect(bodies[0]).toContain('"TransactionID":12345678901234567890123,');

    expect(positions).toEqual(['1', '2', '3', '4', '5']);
    const { events } = await walk(merchant, 500);
    expect(events.map((e) => [e.position, e.event, String(e.sequence)])).toEqual([
      ['1', 'payout.reversed', '1'], // the payout as it is now, under its first event's number
      ['2', 'payout.failed', '1'],
      ['3', 'downtime.started', '1'],
      ['4', 'payout.reversed', '2'],
      ['5', 'downtime.resolved', '2'],
    ]);
  });

  it('when an operator replays a webhook, then the feed holds no new event: a replay sends again an event it already has', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    await registerEndpoint(prisma, merchant, endpoint.url);
    const payout = await payoutAtTheRail(prisma, merchant);
    await settle(prisma, payout, 'SUCCESS');
    const before = await page(merchant);

    const replay = await recordWebhookReplay(prisma, merchant.merchant.id, payout.transactionId, 'operator:test:asha');
    expect(replay.kind).toBe('queued');
    const body = await delivered(replay.kind === 'queued' ? replay.deliveryId : null);

    expect(await page(merchant)).toEqual(before);
    // The replay's body is the same event's, under the next number of the payout (docs/webhooks.md, "Ordering").
    const { sequence, ...replayed } = JSON.parse(body) as Record<string, unknown>;
    const {
      position: _position,
      sequence: listed,
      ...item
    } = JSON.parse(webhookText(before.events[0]!)) as Record<string, unknown> & { position?: string };
    expect([listed, sequence]).toEqual([1, 2]);
    expect(replayed).toEqual(item);
  });

  it('when a merchant has no endpoint, then its feed still lists every event, numbered as its webhooks would have been', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const paid = await payoutAtTheRail(prisma, merchant, { mode: 'IMPS' });
    const failed = await payoutAtTheRail(prisma, merchant);
    const bank = newBank();

    await settle(prisma, paid, 'SUCCESS');
    await openBankDowntime(prisma, { bank, mode: 'IMPS', status: 'DEGRADED' });
    await settle(prisma, failed, 'FAILED');
    await reversePayout(prisma, paid.id, { source: 'statement', note: { reason: 'test: money back', actor: 'test' } });
    await resolveBankDowntime(prisma, { bank, mode: 'IMPS' });

    const { rows } = await pool.query('SELECT 1 FROM webhook_deliveries WHERE merchant_id = $1', [
      merchant.merchant.id,
    ]);
    expect(rows, 'nothing to send it to: no delivery').toEqual([]);
    const events = plain((await walk(merchant, 500)).events);
    expect(events.map((e) => [e.position, e.event, e.sequence, e.TransactionID ?? e.bank])).toEqual([
      ['1', 'payout.reversed', 1, paid.transactionId],
      ['2', 'downtime.started', 1, bank],
      ['3', 'payout.failed', 1, failed.transactionId],
      ['4', 'payout.reversed', 2, paid.transactionId],
      ['5', 'downtime.resolved', 2, bank],
    ]);
    // Exactly the members of the webhooks a merchant with an endpoint is sent.
    expect(Object.keys(events[0]!)).toEqual([
      'position',
      'error',
      'status_code',
      'status',
      'account',
      'ifsc',
      'Amount',
      'Bankriff',
      'Ack_no',
      'TransactionID',
      'message',
      'event',
      'sequence',
    ]);
    expect(events[1]).toEqual({
      position: '2',
      mode: 'IMPS',
      bank,
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      status: 'DEGRADED',
      event: 'downtime.started',
      sequence: 1,
    });
  });

  it('when a merchant’s endpoint is disabled while a downtime starts, then that event is not sent but is in its feed', async () => {
    const merchant = await makeMerchant(prisma);
    await registerEndpoint(prisma, merchant, endpoint.url);
    await pool.query(
      `UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'test' WHERE merchant_id = $1`,
      [merchant.merchant.id],
    );
    const bank = newBank();

    await openBankDowntime(prisma, { bank, mode: 'UPI', status: 'DOWN' });

    const { rows } = await pool.query('SELECT 1 FROM webhook_deliveries WHERE merchant_id = $1', [
      merchant.merchant.id,
    ]);
    expect(rows).toEqual([]);
    expect((await page(merchant)).events).toMatchObject([{ position: '1', event: 'downtime.started', bank }]);
  });

  it('when the feed is read a page at a time from the last position, then every event comes once, in order, whatever the page size', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payouts: PayoutSummary[] = [];
    for (let i = 0; i < 7; i++) payouts.push(await payoutAtTheRail(prisma, merchant));
    for (const [i, payout] of payouts.entries()) await settle(prisma, payout, i % 3 ? 'SUCCESS' : 'FAILED');

    const whole = await walk(merchant, 500);
    expect(whole.events.map((e) => e.position)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(whole.events.map((e) => String(e.TransactionID))).toEqual(payouts.map((p) => p.transactionId));
    for (const limit of [1, 2, 3, 7]) {
      const paged = await walk(merchant, limit);
      expect(paged.events, `limit ${limit}`).toEqual(whole.events);
      expect(paged.pages).toBe(Math.floor(7 / limit) + 1);
    }
    // From a position in the middle: only what follows it.
    expect((await walk(merchant, 2, '4')).events).toEqual(whole.events.slice(4));
    // Past the end: empty, and next_after stays where it was asked.
    expect((await feed(merchant, { after: '9000000000000000000' })).json).toEqual({
      error: false,
      status_code: 200,
      status: 'Success',
      events: [],
      next_after: '9000000000000000000',
    });
  });

  it('when another merchant reads its feed, then none of this merchant’s events appear, only its own and the downtimes it was told of', async () => {
    const victim = await makeMerchant(prisma, { balance: '1000.00' });
    await registerEndpoint(prisma, victim, endpoint.url);
    const intruder = await makeMerchant(prisma, { balance: '1000.00' });
    const theirs = await payoutAtTheRail(prisma, victim);
    const mine = await payoutAtTheRail(prisma, intruder);
    await settle(prisma, theirs, 'SUCCESS');
    await settle(prisma, mine, 'SUCCESS');
    const bank = newBank();
    await openBankDowntime(prisma, { bank, mode: 'UPI', status: 'DOWN' });

    const seen = (await walk(intruder, 500)).events;
    expect(seen.map((e) => [e.position, e.event, String(e.TransactionID ?? e.bank)])).toEqual([
      ['1', 'payout.success', mine.transactionId],
      ['2', 'downtime.started', bank],
    ]);
    const text = (await feed(intruder)).text;
    expect(text).not.toContain(theirs.transactionId);
    expect(text).not.toContain(theirs.ackNo);
    // The victim's own feed has its payout, at its own position 1.
    expect((await page(victim)).events[0]).toMatchObject({ position: '1', Ack_no: theirs.ackNo });
  });
});

describe('GET /api/events refused', () => {
  let merchant: TestMerchant;
  beforeAll(async () => {
    merchant = await makeMerchant(prisma, { balance: '10.00' });
  });

  it.each<[string, Query, string[]]>([
    ['a parameter the feed does not have', { cursor: 'abc' }, ['cursor']],
    ['a parameter in another letter case', { After: '1' }, ['After']],
    ['after twice', { after: ['1', '2'] }, ['after']],
    ['limit twice', { limit: ['5', '5'] }, ['limit']],
    ['after not digits', { after: 'last' }, ['after']],
    ['after negative', { after: '-1' }, ['after']],
    ['after past the largest position', { after: '9223372036854775808' }, ['after']],
    ['limit 0', { limit: '0' }, ['limit']],
    ['limit 501', { limit: '501' }, ['limit']],
    ['limit not a whole number', { limit: '2.5' }, ['limit']],
    ['several faults', { after: 'x', limit: '-1', since: '2026-11-28' }, ['after', 'limit', 'since']],
  ])('when given %s, then 422 VALIDATION ERROR naming it, and nothing changes', async (_name, query, fields) => {
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    expectValidationError(await feed(merchant, query), fields);
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });

  it('when the MID is not well formed, then 400 "FAILED" as on the status lookup; missing or wrong credentials 401, before the query is read', async () => {
    expectJson(await feed({ ...merchant, mid: 'bad.mid' }), 400, invalidMidBody('FAILED'));
    expectJson(await feed({ ...merchant, token: 'pgt_wrong' }, { limit: '0' }), 401, unauthorizedBody);
    expectJson(await call(api.current, '/api/events'), 401, unauthorizedBody);
  });

  it('when another method is used, then 405; a path below it is 404', async () => {
    expect((await call(api.current, '/api/events', { merchant, method: 'POST', body: {} })).status).toBe(405);
    expect((await call(api.current, '/api/events/1', { merchant })).status).toBe(404);
  });
});

describe('the SDK’s events', () => {
  const clientFor = (merchant: TestMerchant) =>
    new PayoutClient({
      baseUrl: api.current.url,
      mid: merchant.mid,
      token: merchant.token,
      retry: { firstDelayMs: 20, maxDelayMs: 100, deadlineMs: 5_000 },
    });

  async function collect(items: AsyncIterable<FeedEvent>, stopAfter = Infinity): Promise<FeedEvent[]> {
    const all: FeedEvent[] = [];
    for await (const item of items) {
      all.push(item);
      if (all.length === stopAfter) break;
    }
    return all;
  }

  it('when iterated, then it yields every event once, in order, as the feed lists them; resumed from the last position applied, it yields only what followed', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payouts: PayoutSummary[] = [];
    for (let i = 0; i < 5; i++) payouts.push(await payoutAtTheRail(prisma, merchant, { mode: i % 2 ? 'UPI' : 'IMPS' }));
    for (const payout of payouts.slice(0, 3)) await settle(prisma, payout, 'SUCCESS');
    const client = clientFor(merchant);

    const firstRun = await collect(client.events({ limit: 2 }), 2);
    // The merchant stops after applying two, events are recorded meanwhile, and it comes back from the last it
    // applied.
    await settle(prisma, payouts[3]!, 'SUCCESS');
    await settle(prisma, payouts[4]!, 'FAILED');
    const secondRun = await collect(client.events({ after: firstRun.at(-1)!.position, limit: 2 }));

    expect([...firstRun, ...secondRun].map((e) => e.position)).toEqual(['1', '2', '3', '4', '5']);
    expect(secondRun.map((e) => e.event)).toEqual(['payout.success', 'payout.success', 'payout.failed']);
    // The feed's items, with Amount and TransactionID as exact strings (a UPI SUCCESS writes them as numbers).
    const listed = (await walk(merchant, 500)).events.slice(2);
    const exact = listed.map((e) => ({ ...e, Amount: String(e.Amount), TransactionID: String(e.TransactionID) }));
    expect(secondRun).toEqual(JSON.parse(stringifyJson(exact)));
    expect(secondRun[1]).toMatchObject({ Amount: '101.00', TransactionID: payouts[3]!.transactionId });
  });

  it('when the gateway refuses the query, then iterating throws INVALID_REQUEST naming it', async () => {
    const merchant = await makeMerchant(prisma);

    const error = await collect(clientFor(merchant).events({ limit: 501 })).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PayoutClientError);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', details: { httpStatus: 422 } });
    expect((error as PayoutClientError).details.last).toContain('"field":"limit"');
  });
});
