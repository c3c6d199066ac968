import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '@payout/client';
import {
  findDowntimeWebhookDeliveries,
  findWebhookDeliveries,
  openBankDowntime,
  resolveBankDowntime,
  type PrismaClient,
} from '@payout/db';
import { createProducerConnection, createWorkerConnection } from '@payout/queue';
import { createLogger } from '@payout/telemetry';
import type { Redis } from 'ioredis';
import { startWebhookWorker, type RunningWebhookWorker } from '../../apps/worker/src/webhooks/index.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { workerConfig } from '../support/stack.js';
import { documentedVerifier, type VerifyWebhook } from './documented-verifier.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { payoutAtTheRail, registerEndpoint, settle } from './webhook-fixtures.js';

// Downtime webhooks (docs/webhooks.md, "Downtime webhooks"): opening or resolving a bank's downtime records,
// in the same statement, one delivery per merchant with an enabled endpoint; the webhook sweeper queues them
// (nothing calls deliverSoon here), and the worker signs and numbers them like payout webhooks.

let db: PrismaClient;
let connection: Redis;
let workerConnection: Redis;
let webhooks: RunningWebhookWorker;
let verify: VerifyWebhook;
const receivers: WebhookReceiver[] = [];
let banks = 0;

beforeAll(async () => {
  db = testPrisma();
  connection = createProducerConnection(process.env.REDIS_URL!);
  workerConnection = createWorkerConnection(process.env.REDIS_URL!);
  // The periodic sweep is an hour away: each test sweeps once itself, so the sweeper is shown to find them.
  webhooks = await startWebhookWorker(workerConfig({ SWEEP_INTERVAL_MS: '3600000' }), {
    db,
    connection,
    workerConnection,
    logger: createLogger('worker', 'silent'),
    retrySchedule: { firstDelayMs: 100, maxDelayMs: 400 },
  });
  verify = await documentedVerifier();
});

afterAll(async () => {
  await webhooks.close();
  await Promise.all(receivers.map((r) => r.close()));
  connection.disconnect();
  workerConnection.disconnect();
  await db.$disconnect();
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start('/hooks/downtimes');
  receivers.push(r);
  return r;
}

/** A bank alias of its own per test: at most one downtime is open per bank and mode. */
function newBank(): string {
  return `bank${++banks}`;
}

async function merchantWithEndpoint(): Promise<{ merchant: TestMerchant; endpoint: WebhookReceiver; secret: string }> {
  const endpoint = await receiver();
  const merchant = await makeMerchant(db, { balance: '1000.00' });
  const secret = await registerEndpoint(db, merchant, endpoint.url);
  return { merchant, endpoint, secret };
}

describe('downtime webhooks', () => {
  it('when a downtime opens and is resolved, then each merchant with an enabled endpoint is sent downtime.started then downtime.resolved, signed and numbered per merchant', async () => {
    const { merchant, endpoint, secret } = await merchantWithEndpoint();
    const disabled = await merchantWithEndpoint();
    await db.webhookEndpoint.update({
      where: { merchantId: disabled.merchant.merchant.id },
      data: { disabledAt: new Date(), disabledReason: 'test: failed its retry window' },
    });
    const withoutEndpoint = await makeMerchant(db);
    const bank = newBank();

    const opened = await openBankDowntime(db, { bank, mode: 'IMPS', status: 'DOWN' });
    expect(opened.opened).toBe(true);
    const [started] = await findDowntimeWebhookDeliveries(db, merchant.merchant.id);
    expect(started).toMatchObject({
      cause: 'DOWNTIME_STARTED',
      sequence: 1,
      status: 'PENDING',
      requestedBy: 'downtime',
    });
    expect(opened.webhookDeliveryIds).toContain(started!.id);
    expect(await findDowntimeWebhookDeliveries(db, disabled.merchant.merchant.id)).toEqual([]);
    expect(await findDowntimeWebhookDeliveries(db, withoutEndpoint.merchant.id)).toEqual([]);

    // The sweeper finds the new delivery in PostgreSQL and queues its first attempt.
    const sweep = await webhooks.sweeper.sweepOnce();
    expect(sweep.swept && sweep.added).toBeGreaterThanOrEqual(1);
    const [first] = await endpoint.requests(1);
    const downtime = await db.bankDowntime.findFirstOrThrow({ where: { bank, mode: 'IMPS' } });
    const since = downtime.since.toISOString();
    expect(first!.body).toBe(
      `{"mode":"IMPS","bank":"${bank}","since":"${since}","status":"DOWN","event":"downtime.started","sequence":1}`,
    );
    expect(first!.headers['x-webhook-id']).toBe(started!.id.toString());
    expect(first!.headers['x-webhook-sequence']).toBe('1');
    expect(verify(first!.body, first!.headers['x-webhook-signature'] as string, secret)).toBe(true);
    expect(verify(first!.body, first!.headers['x-webhook-signature'] as string, `${secret}x`)).toBe(false);

    const resolved = await resolveBankDowntime(db, { bank, mode: 'IMPS' });
    expect(resolved.resolved).toBe(true);
    expect(resolved.webhookDeliveryIds).toHaveLength(opened.webhookDeliveryIds.length);
    await webhooks.sweeper.sweepOnce();
    const [, second] = await endpoint.requests(2);
    expect(second!.body).toBe(
      `{"mode":"IMPS","bank":"${bank}","since":"${since}","status":"DOWN","event":"downtime.resolved","sequence":2}`,
    );
    expect(second!.headers['x-webhook-sequence']).toBe('2');

    // The merchant SDK reads it as a downtime event, with its members.
    const event = await verifyWebhook({ rawBody: second!.body, headers: second!.headers, secret });
    expect(event.ok && event.event).toMatchObject({
      type: 'downtime.resolved',
      sequence: 2,
      payout: undefined,
      downtime: { mode: 'IMPS', bank, since, status: 'DOWN' },
    });
    // The worker records the delivery once the endpoint's answer is in, just after the request arrives.
    const deliveries = await eventually(
      () => findDowntimeWebhookDeliveries(db, merchant.merchant.id),
      (ds) => ds.every((d) => d.status !== 'PENDING'),
      { what: 'both deliveries recorded' },
    );
    expect(deliveries.map((d) => [d.cause, d.sequence, d.status])).toEqual([
      ['DOWNTIME_STARTED', 1, 'DELIVERED'],
      ['DOWNTIME_RESOLVED', 2, 'DELIVERED'],
    ]);
  });

  it('when a downtime is already open, then opening it again records nothing, and resolving none records nothing', async () => {
    const { merchant } = await merchantWithEndpoint();
    const bank = newBank();
    expect((await openBankDowntime(db, { bank, mode: 'UPI', status: 'DEGRADED' })).opened).toBe(true);
    expect(await openBankDowntime(db, { bank, mode: 'UPI', status: 'DOWN' })).toEqual({
      opened: false,
      webhookDeliveryIds: [],
    });
    expect(await resolveBankDowntime(db, { bank, mode: 'IMPS' })).toEqual({ resolved: false, webhookDeliveryIds: [] });
    expect((await findDowntimeWebhookDeliveries(db, merchant.merchant.id)).map((d) => d.cause)).toEqual([
      'DOWNTIME_STARTED',
    ]);
  });

  it('when the transaction that opens a downtime rolls back, then neither the downtime nor its deliveries exist', async () => {
    const { merchant } = await merchantWithEndpoint();
    const bank = newBank();
    await expect(
      db.$transaction(async (tx) => {
        const opened = await openBankDowntime(tx, { bank, mode: 'IMPS', status: 'DOWN' });
        expect(opened.webhookDeliveryIds.length).toBeGreaterThanOrEqual(1);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await db.bankDowntime.count({ where: { bank } })).toBe(0);
    expect(await findDowntimeWebhookDeliveries(db, merchant.merchant.id)).toEqual([]);
  });

  it('when a merchant has downtime events, then its payouts keep their own numbering from 1', async () => {
    const { merchant, endpoint } = await merchantWithEndpoint();
    const bank = newBank();
    await openBankDowntime(db, { bank, mode: 'UPI', status: 'DOWN' });
    await resolveBankDowntime(db, { bank, mode: 'UPI' });
    await openBankDowntime(db, { bank, mode: 'UPI', status: 'DOWN' });
    expect((await findDowntimeWebhookDeliveries(db, merchant.merchant.id)).map((d) => d.sequence)).toEqual([1, 2, 3]);

    const payout = await payoutAtTheRail(db, merchant);
    const settlement = await settle(db, payout, 'SUCCESS');
    const [delivery] = await findWebhookDeliveries(db, payout.id);
    expect(delivery).toMatchObject({ id: settlement.webhookDeliveryId, cause: 'SETTLEMENT', sequence: 1 });
    await webhooks.sweeper.sweepOnce();
    const requests = await endpoint.requests(4);
    const payoutRequest = requests.find((r) => r.body.includes('"event":"payout.success"'));
    expect(payoutRequest?.headers['x-webhook-sequence']).toBe('1');
  });

  it('when a delivery names both subjects, neither, or a cause that does not fit its subject, then the database refuses it', async () => {
    const { merchant } = await merchantWithEndpoint();
    const bank = newBank();
    await openBankDowntime(db, { bank, mode: 'IMPS', status: 'DOWN' });
    const downtime = await db.bankDowntime.findFirstOrThrow({ where: { bank } });
    const payout = await payoutAtTheRail(db, merchant);
    const insert = (payoutId: bigint | null, downtimeId: bigint | null, cause: string) =>
      db.$executeRaw`
        INSERT INTO webhook_deliveries (merchant_id, payout_id, downtime_id, cause, next_attempt_at, requested_by)
        VALUES (${merchant.merchant.id}, ${payoutId}, ${downtimeId}, ${cause}::webhook_delivery_cause, now(), 'test')`;
    await expect(insert(payout.id, downtime.id, 'DOWNTIME_STARTED')).rejects.toThrow(/webhook_deliveries_one_subject/);
    await expect(insert(null, null, 'REPLAY')).rejects.toThrow(/webhook_deliveries_one_subject/);
    await expect(insert(null, downtime.id, 'REPLAY')).rejects.toThrow(/webhook_deliveries_cause_fits_subject/);
    await expect(insert(payout.id, null, 'DOWNTIME_STARTED')).rejects.toThrow(/webhook_deliveries_cause_fits_subject/);
    // The same downtime's start, twice to one merchant: refused too.
    await expect(insert(null, downtime.id, 'DOWNTIME_STARTED')).rejects.toThrow(/downtime_id_cause_merchant_id/);
  });
});
