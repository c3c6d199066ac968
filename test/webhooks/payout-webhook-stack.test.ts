import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWebhookDeliveries, type PrismaClient } from '@payout/db';
import { call, impsBody, upiBody } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { useStack } from '../support/stack.js';
import { documentedVerifier, type VerifyWebhook } from './documented-verifier.js';
import { WebhookReceiver } from './webhook-receiver.js';
import { registerEndpoint } from './webhook-fixtures.js';

// The whole path: a merchant's payout through the API, settled by the worker from the rail simulator's
// answer, notified to the merchant's endpoint with exactly the body the API gives for that payout.

const stack = useStack();
let db: PrismaClient;
let endpoint: WebhookReceiver;
let verify: VerifyWebhook;

beforeAll(async () => {
  db = testPrisma();
  endpoint = await WebhookReceiver.start();
  verify = await documentedVerifier();
});
afterAll(async () => {
  await endpoint.close();
  await db.$disconnect();
});

describe('payout webhooks end to end', () => {
  it.each([
    ['UPI', 'SUCCESS', () => upiBody({ TransactionID: '98765432109876543210987', Amount: '250.00' })],
    ['IMPS', 'FAILED', () => impsBody({ Amount: '250.11' })],
  ] as const)(
    'when the %s payout settles %s at the rail, then the merchant is POSTed the payout result the API gives, signed',
    async (mode, outcome, body) => {
      const merchant = await makeMerchant(db, { balance: '1000.00' });
      const secret = await registerEndpoint(db, merchant, endpoint.url);
      const request = body();
      const path = mode === 'UPI' ? '/api/payout' : '/api/impspayout';
      const accepted = await call(stack.current.api, path, { merchant, body: request });
      expect(accepted.status).toBe(202);

      const delivered = await eventually(
        () => Promise.resolve(endpoint.received.filter((r) => r.body.includes(accepted.json.Ack_no as string))),
        (rs) => rs.length > 0,
        { what: 'the webhook of the payout' },
      );
      // The same request again answers the payout's current state: the body every merchant already parses,
      // which the webhook carries as it is, followed by the state as an event and the delivery's sequence.
      const replayed = await call(stack.current.api, path, { merchant, body: request });
      expect(replayed.json.status).toBe(outcome);
      const event = outcome === 'SUCCESS' ? 'payout.success' : 'payout.failed';
      expect(delivered[0]!.body).toBe(`${replayed.text.slice(0, -1)},"event":"${event}","sequence":1}`);
      expect(delivered[0]!.headers['x-webhook-sequence']).toBe('1');
      expect(verify(delivered[0]!.body, delivered[0]!.headers['x-webhook-signature'] as string, secret)).toBe(true);

      const payoutId = (await db.payout.findFirstOrThrow({ where: { ackNo: accepted.json.Ack_no as string } })).id;
      const [delivery] = await eventually(
        () => findWebhookDeliveries(db, payoutId),
        (ds) => ds[0]?.status === 'DELIVERED',
        { what: 'the delivery recorded as delivered' },
      );
      expect(delivery).toMatchObject({ cause: 'SETTLEMENT', attempts: [{ attempt: 1, statusCode: 200 }] });
    },
  );
});
