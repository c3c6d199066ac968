import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWebhookDeliveries, type PrismaClient } from '@payout/db';
import { createProducerConnection, createWorkerConnection } from '@payout/queue';
import { createLogger } from '@payout/telemetry';
import { startWebhookWorker, type RunningWebhookWorker } from '../../apps/worker/src/webhooks/index.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { workerConfig } from '../support/stack.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { payoutAtTheRail, registerEndpoint, settle } from './webhook-fixtures.js';

// A retry window of 2 s instead of 24 hours, with retries 50 ms to 400 ms apart.
const RETRY_FOR_MS = 2_000;

let db: PrismaClient;
let connection: Redis;
let workerConnection: Redis;
let webhooks: RunningWebhookWorker;
let endpoint: WebhookReceiver;

beforeAll(async () => {
  db = testPrisma();
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

describe('webhook retry window', () => {
  it('when the endpoint keeps failing, then attempts stop once the retry window is over and the delivery is given up', async () => {
    endpoint.answerWith(...Array.from({ length: 100 }, () => 500));
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant);
    const settlement = await settle(db, payout, 'FAILED');
    webhooks.deliverSoon(settlement.webhookDeliveryId!);

    const [delivery] = await eventually(
      () => findWebhookDeliveries(db, payout.id),
      (ds) => ds[0]?.status === 'FAILED',
      { what: 'the delivery given up', timeoutMs: 10_000 },
    );
    const attempts = delivery!.attempts;
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(attempts.every((a) => a.statusCode === 500)).toBe(true);
    expect(attempts.map((a) => a.attempt)).toEqual(attempts.map((_a, i) => i + 1));
    expect(endpoint.received).toHaveLength(attempts.length);
    // Given up only when the next attempt (at most 400 ms away) would have fallen outside the window.
    const windowEnd = delivery!.createdAt.getTime() + RETRY_FOR_MS;
    expect(delivery!.finishedAt!.getTime()).toBeGreaterThan(windowEnd - 400);
    expect(delivery!.nextAttemptAt).toBeNull();
    const sweep = await webhooks.sweeper.sweepOnce();
    if (sweep.swept) expect(sweep.due).toBe(0);
  });
});
