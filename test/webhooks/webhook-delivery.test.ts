import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimWebhookAttempt,
  findPayoutByTransactionId,
  findWebhookDeliveries,
  transitionPayout,
  type PrismaClient,
  type WebhookDeliveryView,
} from '@payout/db';
import { webhookPayload } from '@payout/contract';
import { stringifyJson } from '@payout/domain';
import { createProducerConnection, createWorkerConnection } from '@payout/queue';
import { createLogger } from '@payout/telemetry';
import type { Redis } from 'ioredis';
import { EXIT_FAILED, EXIT_OK } from '@payout/cli';
import { startWebhookWorker, type RunningWebhookWorker } from '../../apps/worker/src/webhooks/index.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { call, newTransactionId } from '../support/api.js';
import { workerConfig } from '../support/stack.js';
import { documentedVerifier, type VerifyWebhook } from './documented-verifier.js';
import { refusingUrl, WebhookReceiver } from './webhook-receiver.js';
import { useStubBank } from '../support/stub-bank.js';
import { askedAndApproved, fourEyes } from '../support/approvals.js';
import { useApi } from '../support/api.js';
import { cli, cliJson, cliJsonAs, payoutAtTheRail, registerEndpoint, setCliAdmin, settle } from './webhook-fixtures.js';

// The webhook worker alone, against this file's database and queue prefix, with retries in milliseconds:
// first retry after 50–100 ms, then 100–200 ms, … up to 400 ms; an endpoint gets 300 ms to answer.
const RETRY = { firstDelayMs: 100, maxDelayMs: 400 };
const TIMEOUT_MS = 300;

const bank = useStubBank();
// The admin listener the CLI's person commands go to; it asks this file's stub bank before a resolution.
const api = useApi(() => ({ RAIL_BASE_URL: bank.current.url }));
let maker: string;
let db: PrismaClient;
let connection: Redis;
let workerConnection: Redis;
let webhooks: RunningWebhookWorker;
let verify: VerifyWebhook;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  db = testPrisma();
  const people = await fourEyes();
  maker = people.maker;
  setCliAdmin(api.current.adminUrl, people.makerKey);
  connection = createProducerConnection(process.env.REDIS_URL!);
  workerConnection = createWorkerConnection(process.env.REDIS_URL!);
  webhooks = await startWebhookWorker(workerConfig({ WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) }), {
    db,
    connection,
    workerConnection,
    logger: createLogger('worker', 'silent'),
    retrySchedule: RETRY,
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
  const r = await WebhookReceiver.start();
  receivers.push(r);
  return r;
}

function finished(payoutId: bigint, count = 1) {
  return eventually(
    () => findWebhookDeliveries(db, payoutId),
    (ds: WebhookDeliveryView[]) => ds.length >= count && ds.every((d) => d.status !== 'PENDING'),
    { what: `${count} finished webhook deliveries`, timeoutMs: 15_000 },
  );
}

/** What the payout's webhook must say: the API's own payout result for it, byte for byte. */
/** The payout result the API answers now, then the payout's state and the delivery's sequence number. */
async function expectedBody(merchantId: number, transactionId: string, sequence = 1): Promise<string> {
  const payout = await findPayoutByTransactionId(db, merchantId, transactionId);
  return stringifyJson(webhookPayload(payout!, sequence));
}

describe('payout webhooks', () => {
  it('when the endpoint fails twice then succeeds, then it gets the same signed payload once more per retry and every attempt is recorded', async () => {
    const endpoint = await receiver();
    endpoint.answerWith(500, 503);
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const secret = await registerEndpoint(db, merchant, endpoint.url);
    // 23 digits: the UPI SUCCESS body writes it as a number literal, which must keep every digit.
    const payout = await payoutAtTheRail(db, merchant, { transactionId: '12345678901234567890123' });
    const settlement = await settle(db, payout, 'SUCCESS');
    expect(settlement.webhookDeliveryId).not.toBeNull();
    webhooks.deliverSoon(settlement.webhookDeliveryId!);

    const requests = await endpoint.requests(3);
    const [delivery] = await finished(payout.id);
    const body = await expectedBody(merchant.merchant.id, payout.transactionId);
    expect(body).toContain('"TransactionID":12345678901234567890123');
    expect(body).toContain('"Amount":101.00');
    for (const [index, request] of requests.entries()) {
      expect(request.body).toBe(body);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-webhook-id']).toBe(settlement.webhookDeliveryId!.toString());
      expect(request.headers['x-webhook-attempt']).toBe(String(index + 1));
      expect(verify(request.body, request.headers['x-webhook-signature'] as string, secret)).toBe(true);
      expect(verify(request.body, request.headers['x-webhook-signature'] as string, `${secret}x`)).toBe(false);
    }
    // Backoff: the second wait is at least half of a step twice as long as the first.
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(RETRY.firstDelayMs / 2);
    expect(requests[2]!.at - requests[1]!.at).toBeGreaterThanOrEqual(RETRY.firstDelayMs);

    expect(delivery).toMatchObject({ cause: 'SETTLEMENT', status: 'DELIVERED', requestedBy: 'settlement' });
    expect(delivery!.finishedAt).not.toBeNull();
    expect(delivery!.attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, null],
      [2, 503, null],
      [3, 200, null],
    ]);
    for (const attempt of delivery!.attempts) {
      expect(attempt.url).toBe(endpoint.url);
      expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    }
    // Nothing left to send: a sweep finds no due delivery, and the endpoint got exactly three requests.
    const sweep = await webhooks.sweeper.sweepOnce();
    if (sweep.swept) expect(sweep.overdue).toBe(0);
    expect(endpoint.received).toHaveLength(3);
  });

  it('when the endpoint never answers in time, then the attempt is cut off at the time-out, recorded, and retried', async () => {
    const endpoint = await receiver();
    endpoint.answerWith('hang');
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const secret = await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant, { mode: 'IMPS' });
    const settlement = await settle(db, payout, 'FAILED');
    webhooks.deliverSoon(settlement.webhookDeliveryId!);

    const [delivery] = await finished(payout.id);
    expect(delivery!.status).toBe('DELIVERED');
    expect(delivery!.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [null, `no answer within ${TIMEOUT_MS} ms`],
      [200, null],
    ]);
    expect(delivery!.attempts[0]!.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    const requests = await endpoint.requests(2);
    const body = await expectedBody(merchant.merchant.id, payout.transactionId);
    expect(JSON.parse(body)).toMatchObject({ error: true, status_code: 400, status: 'FAILED', ifsc: 'HDFC0001234' });
    for (const request of requests) {
      expect(request.body).toBe(body);
      expect(verify(request.body, request.headers['x-webhook-signature'] as string, secret)).toBe(true);
    }
  });

  it('when the endpoint refuses connections, then the error is recorded and the delivery retried until it listens', async () => {
    const endpoint = await receiver();
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await registerEndpoint(db, merchant, await refusingUrl());
    const payout = await payoutAtTheRail(db, merchant);
    const settlement = await settle(db, payout, 'SUCCESS');
    webhooks.deliverSoon(settlement.webhookDeliveryId!);

    await eventually(
      () => findWebhookDeliveries(db, payout.id),
      (ds) => (ds[0]?.attempts.length ?? 0) >= 2,
      { what: 'two refused attempts' },
    );
    // Moving the URL keeps the merchant's secret.
    await cliJson('merchant', 'webhook', '--mid', merchant.mid, '--url', endpoint.url);
    const [delivery] = await finished(payout.id);
    expect(delivery!.status).toBe('DELIVERED');
    const refused = delivery!.attempts.slice(0, -1);
    expect(refused.every((a) => a.statusCode === null && /ECONNREFUSED/.test(a.error ?? ''))).toBe(true);
    expect(delivery!.attempts.at(-1)).toMatchObject({ statusCode: 200, url: endpoint.url });
  });

  it('when an attempt was claimed by a worker that died, then after its lease the sweeper sends the next attempt and the lost one stays on record', async () => {
    const endpoint = await receiver();
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const secret = await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant);
    const settlement = await settle(db, payout, 'SUCCESS');
    // A worker claims attempt 1 and dies before sending; its lease has run out.
    const claimed = await claimWebhookAttempt(db, settlement.webhookDeliveryId!, 1, new Date(Date.now() - 1_000));
    expect(claimed?.url).toBe(endpoint.url);

    const [request] = await endpoint.requests(1);
    expect(request!.headers['x-webhook-attempt']).toBe('2');
    expect(verify(request!.body, request!.headers['x-webhook-signature'] as string, secret)).toBe(true);
    const [delivery] = await finished(payout.id);
    expect(delivery!.attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, null, null],
      [2, 200, null],
    ]);
  });

  it('when an operator resolves a payout under review, then the sweeper delivers its webhook', async () => {
    const endpoint = await receiver();
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const secret = await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant);
    for (const state of ['AWAITING_RAIL', 'MANUAL_REVIEW'] as const) {
      await transitionPayout(db, payout.id, state, { nextCheckAt: null }, { reason: 'test', actor: 'test' });
    }
    bank.current.answer(payout.ackNo, { status: 'SUCCESS', utr: 'UTR777000111' });

    const resolved = await askedAndApproved(
      cliJsonAs,
      'payout',
      'resolve',
      '--mid',
      merchant.mid,
      '--TransactionID',
      payout.transactionId,
      '--as',
      'success',
      '--utr',
      'UTR777000111',
    );
    expect(resolved).toMatchObject({ state: 'EXECUTED' });

    const [request] = await endpoint.requests(1);
    expect(JSON.parse(request!.body)).toMatchObject({ status: 'SUCCESS', Bankriff: 'UTR777000111' });
    expect(request!.body).toBe(await expectedBody(merchant.merchant.id, payout.transactionId));
    expect(verify(request!.body, request!.headers['x-webhook-signature'] as string, secret)).toBe(true);
    const [delivery] = await finished(payout.id);
    expect(delivery!.status).toBe('DELIVERED');
  });

  it('when an operator replays a webhook, then a fresh delivery sends the same result again under a new id', async () => {
    const endpoint = await receiver();
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const secret = await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant);
    const settlement = await settle(db, payout, 'SUCCESS');
    webhooks.deliverSoon(settlement.webhookDeliveryId!);
    await finished(payout.id);

    const replay = await cliJson(
      'webhook',
      'replay',
      '--mid',
      merchant.mid,
      '--TransactionID',
      payout.transactionId,
      '--note',
      'merchant lost it',
    );
    expect(replay).toMatchObject({ payoutStatus: 'SUCCESS', queued: true });

    const [first, second] = await endpoint.requests(2);
    // The same result, as a later event of the payout: the replay was recorded second.
    expect(first!.body).toBe(await expectedBody(merchant.merchant.id, payout.transactionId, 1));
    expect(second!.body).toBe(await expectedBody(merchant.merchant.id, payout.transactionId, 2));
    expect([first!.headers['x-webhook-sequence'], second!.headers['x-webhook-sequence']]).toEqual(['1', '2']);
    expect(second!.headers['x-webhook-id']).toBe(replay.deliveryId);
    expect(second!.headers['x-webhook-id']).not.toBe(first!.headers['x-webhook-id']);
    expect(verify(second!.body, second!.headers['x-webhook-signature'] as string, secret)).toBe(true);
    const deliveries = await finished(payout.id, 2);
    expect(deliveries.map((d) => [d.cause, d.status, d.requestedBy])).toEqual([
      ['SETTLEMENT', 'DELIVERED', 'settlement'],
      ['REPLAY', 'DELIVERED', `operator:cli:${maker}`],
    ]);

    const shown = await cliJson('webhook', 'show', '--mid', merchant.mid, '--TransactionID', payout.transactionId);
    expect((shown.deliveries as unknown[]).length).toBe(2);
  });

  it('when a replay is asked for a pending payout, an unknown one, or a merchant without a URL, then nothing is queued', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const pending = await payoutAtTheRail(db, merchant);
    const replay = (transactionId: string, mid = merchant.mid) =>
      cli('webhook', 'replay', '--mid', mid, '--TransactionID', transactionId);

    const noUrl = await replay(pending.transactionId);
    expect(noUrl.status).toBe(EXIT_FAILED);
    await registerEndpoint(db, merchant, 'http://127.0.0.1:1/unused');
    const stillPending = await replay(pending.transactionId);
    expect(stillPending.status).toBe(EXIT_FAILED);
    expect(stillPending.stderr).toContain('still PENDING');
    const unknown = await replay(newTransactionId());
    expect(unknown.status).toBe(EXIT_FAILED);
    expect(await findWebhookDeliveries(db, pending.id)).toEqual([]);
  });

  it('when the secret is rotated, then deliveries carry a signature for each secret and either verifies', async () => {
    const endpoint = await receiver();
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    await cliJson('merchant', 'webhook', '--mid', merchant.mid, '--url', endpoint.url);
    // The merchant fetches a secret, then rotates it, through its own API (docs/webhooks.md, "The signing secret").
    const fetchSecret = () => call(api.current, '/api/webhook/secret', { merchant, body: {} });
    const registered = await fetchSecret();
    const rotated = await fetchSecret();
    const [oldSecret, newSecret] = [String(registered.json.secret), String(rotated.json.secret)];
    expect(newSecret).not.toBe(oldSecret);
    expect(registered.json.previous_valid_until).toBeNull();
    expect(rotated.json.previous_valid_until).not.toBeNull();

    const payout = await payoutAtTheRail(db, merchant);
    const settlement = await settle(db, payout, 'SUCCESS');
    webhooks.deliverSoon(settlement.webhookDeliveryId!);
    const [request] = await endpoint.requests(1);
    const header = request!.headers['x-webhook-signature'] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verify(request!.body, header, newSecret)).toBe(true);
    expect(verify(request!.body, header, oldSecret)).toBe(true);
  });

  it('when a delivery is older than the tolerance or its body was altered, then the documented check refuses it', async () => {
    const endpoint = await receiver();
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const secret = await registerEndpoint(db, merchant, endpoint.url);
    const payout = await payoutAtTheRail(db, merchant);
    webhooks.deliverSoon((await settle(db, payout, 'SUCCESS')).webhookDeliveryId!);
    const [request] = await endpoint.requests(1);
    const header = request!.headers['x-webhook-signature'] as string;
    const t = Number(/t=([0-9]+)/.exec(header)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);

    expect(verify(request!.body, header, secret, 300, t + 299)).toBe(true);
    expect(verify(request!.body, header, secret, 300, t + 301)).toBe(false);
    expect(verify(request!.body.replace('SUCCESS', 'FAILED'), header, secret)).toBe(false);
    expect(verify(request!.body, header.replace(/t=[0-9]+/, `t=${t + 1}`), secret, 300, t)).toBe(false);
    expect(verify(request!.body, undefined, secret)).toBe(false);
  });
});

describe('merchant webhook (CLI)', () => {
  it('when a URL is registered, then no secret is printed or stored until the merchant fetches its own, and moving the URL keeps it', async () => {
    const merchant = await makeMerchant(db);
    const result = await cli('merchant', 'webhook', '--mid', merchant.mid, '--url', 'https://acme.example/hooks');
    expect(result.status).toBe(EXIT_OK);
    expect(result.stdout).not.toMatch(/whsec_/);
    expect(result.stdout).toMatch(/POST \/api\/webhook\/secret/);
    const waiting = await db.webhookEndpoint.findUniqueOrThrow({ where: { merchantId: merchant.merchant.id } });
    expect(waiting).toMatchObject({ url: 'https://acme.example/hooks', signingSecret: null, secretPrefix: null });
    expect(waiting.disabledAt).not.toBeNull();

    const fetched = await call(api.current, '/api/webhook/secret', { merchant, body: {} });
    const secret = String(fetched.json.secret);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { merchantId: merchant.merchant.id } });
    expect(stored).toMatchObject({ signingSecret: secret, previousSecret: null, disabledAt: null });
    expect(stored.secretPrefix).toBe(secret.slice(0, 12));

    const moved = await cliJson('merchant', 'webhook', '--mid', merchant.mid, '--url', 'https://acme.example/v2');
    expect(moved).toEqual({
      mid: merchant.mid,
      url: 'https://acme.example/v2',
      secretPrefix: secret.slice(0, 12),
      previousSecretValidUntil: null,
      disabledAt: null,
      awaitingSecret: false,
    });
    expect(JSON.stringify(moved)).not.toContain(secret);
  });

  it('when the URL is not http(s), carries credentials, or the MID is unknown, then nothing is registered', async () => {
    const merchant = await makeMerchant(db);
    for (const url of ['ftp://acme.example/x', 'not a url', 'https://user:pw@acme.example/x']) {
      const result = await cli('merchant', 'webhook', '--mid', merchant.mid, '--url', url);
      expect(result.status).toBe(2);
    }
    expect(await db.webhookEndpoint.count({ where: { merchantId: merchant.merchant.id } })).toBe(0);
    const unknown = await cli('merchant', 'webhook', '--mid', 'NOSUCHMID', '--url', 'https://acme.example/x');
    expect(unknown.status).toBe(EXIT_FAILED);
  });
});
