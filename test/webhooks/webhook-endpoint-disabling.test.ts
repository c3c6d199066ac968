import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWebhookDeliveries, listOperatorActions, type PrismaClient } from '@payout/db';
import { EXIT_OK } from '@payout/cli';
import { createProducerConnection, createWorkerConnection } from '@payout/queue';
import { createLogger } from '@payout/telemetry';
import { startWebhookWorker, type RunningWebhookWorker } from '../../apps/worker/src/webhooks/index.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { workerConfig } from '../support/stack.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { useApi } from '../support/api.js';
import { fourEyes } from '../support/approvals.js';
import { cli, cliJson, payoutAtTheRail, registerEndpoint, setCliAdmin, settle } from './webhook-fixtures.js';

// A retry window of 2 s instead of 24 hours, with retries 50 ms to 400 ms apart.
const RETRY_FOR_MS = 2_000;

// The admin listener `webhook enable` goes to, as the person whose key the CLI holds.
const api = useApi();
let operator: string;
let db: PrismaClient;
let connection: Redis;
let workerConnection: Redis;
let webhooks: RunningWebhookWorker;
let endpoint: WebhookReceiver;

beforeAll(async () => {
  db = testPrisma();
  const people = await fourEyes();
  operator = people.maker;
  setCliAdmin(api.current.adminUrl, people.makerKey);
  connection = createProducerConnection(process.env.REDIS_URL!);
  workerConnection = createWorkerConnection(process.env.REDIS_URL!);
  webhooks = await startWebhookWorker(workerConfig({ WEBHOOK_RETRY_FOR_MS: String(RETRY_FOR_MS) }), {
    db,
    connection,
    workerConnection,
    logger: createLogger('worker', 'silent'),
    retrySchedule: { firstDelayMs: 100, maxDelayMs: 400 },
  });
  endpoint = await WebhookReceiver.start();
});

afterAll(async () => {
  await webhooks.close();
  await endpoint.close();
  connection.disconnect();
  workerConnection.disconnect();
  await db.$disconnect();
});

describe('webhook endpoint disabling', () => {
  it("when the endpoint fails for a whole retry window, then it is disabled and the merchant's deliveries are held, not lost, until `webhook enable` resumes them", async () => {
    endpoint.answerWith(...Array.from({ length: 100 }, () => 500));
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant);
    const settlement = await settle(db, payout, 'FAILED');
    webhooks.deliverSoon(settlement.webhookDeliveryId!);

    const [delivery] = await eventually(
      () => findWebhookDeliveries(db, payout.id),
      (ds) => ds[0]?.status === 'HELD',
      { what: 'the delivery held', timeoutMs: 10_000 },
    );
    const attempts = delivery!.attempts;
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts.every((a) => a.statusCode === 500)).toBe(true);
    expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_a, i) => i + 1));
    expect(endpoint.received).toHaveLength(attempts.length);
    // Held only when the next attempt (at most 400 ms away) would have fallen outside the window.
    expect(Date.now()).toBeGreaterThan(delivery!.createdAt.getTime() + RETRY_FOR_MS - 400);
    expect(delivery!.nextAttemptAt).toBeNull();
    expect(delivery!.finishedAt).toBeNull();
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { merchantId: merchant.merchant.id } });
    expect(stored.disabledAt).not.toBeNull();
    expect(stored.disabledReason).toMatch(
      /^all \d+ attempts of delivery \d+ failed over its whole retry window; the last answered 500$/,
    );

    // A payout settled while the endpoint is disabled: its delivery is recorded and kept, nothing is sent.
    const later = await payoutAtTheRail(db, merchant);
    const laterSettlement = await settle(db, later, 'SUCCESS');
    webhooks.deliverSoon(laterSettlement.webhookDeliveryId!);
    const [laterDelivery] = await eventually(
      () => findWebhookDeliveries(db, later.id),
      (ds) => ds[0]?.status === 'HELD',
      { what: 'the later delivery held', timeoutMs: 10_000 },
    );
    expect(laterDelivery!.attempts).toEqual([]);
    const sweep = await webhooks.sweeper.sweepOnce();
    if (sweep.swept) expect(sweep).toMatchObject({ overdue: 0, released: 0 });
    expect(endpoint.received).toHaveLength(attempts.length);

    const listed = await cliJson('webhook', 'disabled');
    expect(listed.endpoints).toContainEqual(
      expect.objectContaining({ mid: merchant.mid, url: endpoint.url, held: 2, reason: stored.disabledReason }),
    );

    // The merchant fixed its endpoint; the operator enables it again.
    endpoint.answerOk();
    endpoint.received.length = 0;
    const enabled = await cliJson('webhook', 'enable', '--mid', merchant.mid, '--note', 'merchant fixed it');
    expect(enabled).toMatchObject({ mid: merchant.mid, resumed: 2, queued: true });

    const requests = await endpoint.requests(2);
    expect(requests.map((r) => (JSON.parse(r.body) as { Ack_no: string }).Ack_no).sort()).toEqual(
      [payout.ackNo, later.ackNo].sort(),
    );
    const [resumed] = await eventually(
      () => findWebhookDeliveries(db, payout.id),
      (ds) => ds[0]?.status === 'DELIVERED',
      { what: 'the held delivery delivered' },
    );
    // It carried on from the attempts it had, in a fresh window.
    expect(resumed!.attempts.at(-1)).toMatchObject({ attempt: attempts.length + 1, statusCode: 200 });
    await eventually(
      () => findWebhookDeliveries(db, later.id),
      (ds) => ds[0]?.status === 'DELIVERED',
      { what: 'the later delivery delivered' },
    );
    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 5 });
    expect(audit[0]).toMatchObject({ action: 'webhook.enable', actor: `cli:${operator}`, reason: 'merchant fixed it' });
    expect((await cliJson('webhook', 'disabled')).endpoints).not.toContainEqual(
      expect.objectContaining({ mid: merchant.mid }),
    );
  });

  it('when a delivery is held although its endpoint is no longer disabled (a claim that raced the enabling), then the sweeper resumes it', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant);
    await db.webhookEndpoint.update({
      where: { merchantId: merchant.merchant.id },
      data: { disabledAt: new Date(), disabledReason: 'test: disabled' },
    });
    const settlement = await settle(db, payout, 'SUCCESS');
    webhooks.deliverSoon(settlement.webhookDeliveryId!);
    await eventually(
      () => findWebhookDeliveries(db, payout.id),
      (ds) => ds[0]?.status === 'HELD',
      { what: 'the delivery held' },
    );
    // The enabling committed after the claim had seen the endpoint disabled: the delivery stayed held.
    await db.webhookEndpoint.update({
      where: { merchantId: merchant.merchant.id },
      data: { disabledAt: null, disabledReason: null },
    });

    // Only a sweep can resume it now (this one, or the worker's own on its interval).
    await webhooks.sweeper.sweepOnce();
    const [delivered] = await eventually(
      () => findWebhookDeliveries(db, payout.id),
      (ds) => ds[0]?.status === 'DELIVERED',
      { what: 'the resumed delivery delivered' },
    );
    expect(delivered!.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([[1, 200]]);
  });

  it('when the endpoint is not disabled, then `webhook enable` says so and changes nothing', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerEndpoint(db, merchant, endpoint.url);
    const result = await cli('webhook', 'enable', '--mid', merchant.mid);
    expect(result.status).not.toBe(EXIT_OK);
    expect(result.stderr).toContain('is not disabled');
    expect(await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 5 })).toEqual([]);
  });
});
