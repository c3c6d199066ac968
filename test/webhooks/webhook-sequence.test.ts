import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '@payout/client';
import { findWebhookDeliveries, recordWebhookReplay, reversePayout, type PrismaClient } from '@payout/db';
import { webhookDestinationPolicy } from '@payout/config';
import { createLogger } from '@payout/telemetry';
import { WebhookDeliverer } from '../../apps/worker/src/webhooks/deliver-webhook.job.js';
import { WebhookSender } from '../../apps/worker/src/webhooks/webhook-sender.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { workerConfig } from '../support/stack.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { payoutAtTheRail, registerEndpoint, settle } from './webhook-fixtures.js';

// The sequence number of docs/webhooks.md ("Ordering"): given when the event is recorded, carried in the
// signed body, so a merchant can drop a delivery that arrives after a later one.

let db: PrismaClient;
let endpoint: WebhookReceiver;
let sender: WebhookSender;
let deliverer: WebhookDeliverer;

beforeAll(async () => {
  db = testPrisma();
  endpoint = await WebhookReceiver.start();
  sender = new WebhookSender(webhookDestinationPolicy(workerConfig()));
  // The real deliverer without a queue: the test decides which delivery goes first.
  deliverer = new WebhookDeliverer({
    db,
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
  await db.$disconnect();
});

/** What a merchant does (docs/webhooks.md): apply a delivery only if its sequence is above the last applied. */
class MerchantBooks {
  readonly applied = new Map<string, { sequence: number; type: string }>();
  readonly dropped: number[] = [];

  async receive(rawBody: string, headers: Record<string, string | string[] | undefined>, secret: string) {
    const verified = await verifyWebhook({ rawBody, headers, secret });
    if (!verified.ok) throw new Error(`refused: ${verified.reason}`);
    const { event } = verified;
    const key = event.payout!.TransactionID;
    const last = this.applied.get(key);
    if (last && event.sequence! <= last.sequence) {
      this.dropped.push(event.sequence!);
      return;
    }
    this.applied.set(key, { sequence: event.sequence!, type: event.type });
  }
}

describe('webhook sequence numbers', () => {
  it('when a reversal is delivered before the settlement it followed, then the late settlement delivery carries a lower sequence and the merchant drops it', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const secret = await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant);
    const settled = await settle(db, payout, 'SUCCESS');
    const reversed = await reversePayout(db, payout.id, {
      source: 'rail',
      note: { reason: 'test: the beneficiary bank returned it', actor: 'test' },
    });

    // The reversal's delivery goes out first; the settlement's, held up somewhere, arrives after it.
    expect(await deliverer.deliver(reversed.webhookDeliveryId!, 1)).toBe('DELIVERED');
    expect(await deliverer.deliver(settled.webhookDeliveryId!, 1)).toBe('DELIVERED');
    const [first, second] = await endpoint.requests(2);
    const firstBody = JSON.parse(first!.body) as Record<string, unknown>;
    const secondBody = JSON.parse(second!.body) as Record<string, unknown>;

    expect([first!.headers['x-webhook-id'], second!.headers['x-webhook-id']]).toEqual([
      String(reversed.webhookDeliveryId),
      String(settled.webhookDeliveryId),
    ]);
    expect(firstBody).toMatchObject({ status: 'FAILED', event: 'payout.reversed', sequence: 2 });
    expect(first!.headers['x-webhook-sequence']).toBe('2');
    // Every delivery carries the payout as it is now: the late one too, under its own, lower number.
    expect(secondBody).toMatchObject({ status: 'FAILED', event: 'payout.reversed', sequence: 1 });
    expect(second!.headers['x-webhook-sequence']).toBe('1');

    const books = new MerchantBooks();
    await books.receive(first!.body, first!.headers, secret);
    await books.receive(second!.body, second!.headers, secret);
    expect(books.applied.get(payout.transactionId)).toEqual({ sequence: 2, type: 'payout.reversed' });
    expect(books.dropped).toEqual([1]);
  });

  it('when a settled payout gets events recorded concurrently, then each gets its own number and they rise by one', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant);
    await settle(db, payout, 'FAILED');

    const replays = await Promise.all(
      Array.from({ length: 12 }, (_x, i) =>
        recordWebhookReplay(db, merchant.merchant.id, payout.transactionId, `operator:test:${i}`),
      ),
    );
    expect(replays.every((r) => r.kind === 'queued')).toBe(true);

    const deliveries = await findWebhookDeliveries(db, payout.id);
    // Numbered as each took the payout's counter, which need not be the order of their ids: that is why
    // merchants order by the sequence, not by X-Webhook-Id.
    const numbers = deliveries.map((d) => d.sequence).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 13 }, (_x, i) => i + 1));
    expect(deliveries.find((d) => d.sequence === 1)!.cause).toBe('SETTLEMENT');
  });

  it('when a delivery is inserted with a sequence of its own, then the trigger numbers it anyway', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant);
    await settle(db, payout, 'SUCCESS');
    await db.$executeRaw`
      INSERT INTO webhook_deliveries (merchant_id, payout_id, cause, next_attempt_at, requested_by, sequence)
      VALUES (${merchant.merchant.id}, ${payout.id}, 'REPLAY', now(), 'test', 99)`;
    const deliveries = await findWebhookDeliveries(db, payout.id);
    expect(deliveries.map((d) => d.sequence)).toEqual([1, 2]);
  });
});
