import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliConfigSchema, loadConfig, webhookDestinationPolicy } from '@payout/config';
import type { PrismaClient } from '@payout/db';
import { EXIT_FAILED, EXIT_OK } from '@payout/cli';
import { PayoutClient } from '@payout/client';
import { call, newTransactionId, upiBody } from '../support/api.js';
import { fourEyes, runCliAs, type CliResult } from '../support/approvals.js';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { useStack } from '../support/stack.js';
import { CONTRACT_MESSAGES, errorBody } from '../api/contract-expectations.js';
import { documentedBodyErrors, type JsonObject } from '../docs/openapi-checks.js';
import { documentedVerifier, type VerifyWebhook } from '../webhooks/documented-verifier.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';

// A merchant's webhook signing secret is the merchant's alone (docs/webhooks.md, "The signing secret"):
// staff set the URL and never see a secret; the merchant fetches one through its own API, and deliveries
// are signed with it. A URL registered before the merchant has a secret holds its deliveries — never sent
// unsigned, never given up — until the merchant fetches one.

const stack = useStack();
let document: JsonObject;
let db: PrismaClient;
let makerKey: string;
let onlooker: ConsolePerson;
let verify: VerifyWebhook;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  db = testPrisma();
  ({ makerKey } = await fourEyes());
  onlooker = await signedInPerson(stack.current.api.adminUrl, 'approver');
  verify = await documentedVerifier();
  document = (await call(stack.current.api, '/openapi.json')).json;
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await db.$disconnect();
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await WebhookReceiver.start();
  receivers.push(started);
  return started;
}

/** The CLI as the maker, judging webhook URLs by the tests' rules (loopback receivers allowed). */
const SECRET = '/api/webhook/secret';

const cli = (...argv: string[]) =>
  runCliAs(stack.current.api.adminUrl, makerKey, argv, {
    webhookDestinations: webhookDestinationPolicy(loadConfig(cliConfigSchema)),
  });
const shown = (result: CliResult) => `${result.stdout}\n${result.stderr}`;

/** A payout the worker settles at the rail simulator (SUCCESS), which records its webhook delivery. */
async function settledPayout(merchant: TestMerchant): Promise<bigint> {
  const TransactionID = newTransactionId();
  const accepted = await call(stack.current.api, '/api/payout', {
    merchant,
    body: upiBody({ TransactionID, Amount: '101.00' }),
  });
  expect(accepted.status, accepted.text).toBe(202);
  const payout = await eventually(
    () => db.payout.findFirst({ where: { merchantId: merchant.merchant.id, transactionId: TransactionID } }),
    (p) => p?.status === 'SUCCESS',
    { what: 'the payout settled' },
  );
  return payout!.id;
}

const deliveriesOf = (payoutId: bigint) => db.webhookDelivery.findMany({ where: { payoutId } });

/** Everything staff could read about the merchant's webhook: the audit log and the console's pages. */
async function staffView(mid: string, merchantId: number): Promise<string> {
  const audit = await db.operatorAction.findMany({ where: { merchantId } });
  const pages = await Promise.all(
    [`/console/merchants/${mid}`, '/console/lists/failed-webhooks'].map(
      async (path) => (await onlooker.page(path)).html,
    ),
  );
  const rows = JSON.stringify(audit, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  return `${rows}\n${pages.join('\n')}`;
}

describe("a merchant's webhook signing secret", () => {
  it('when staff register a URL, then no secret is shown, deliveries wait; the merchant fetches its secret and the waiting delivery arrives signed with it', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const endpoint = await receiver();

    const registered = await cli('merchant', 'webhook', '--mid', merchant.mid, '--url', endpoint.url, '--json');

    expect(registered.status, registered.stderr).toBe(EXIT_OK);
    expect(JSON.parse(registered.stdout)).toMatchObject({
      mid: merchant.mid,
      url: endpoint.url,
      secretPrefix: null,
      awaitingSecret: true,
    });
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { merchantId: merchant.merchant.id } });
    expect(stored).toMatchObject({ signingSecret: null, secretPrefix: null, disabledAt: expect.any(Date) as Date });

    // A payout settles meanwhile: its delivery is kept, not sent and not given up.
    const first = await settledPayout(merchant);
    await eventually(
      () => deliveriesOf(first),
      (ds) => ds.length === 1 && ds[0]!.status === 'HELD',
      { what: 'the delivery held for the missing secret' },
    );
    expect(endpoint.received).toEqual([]);
    // Enabling it by hand would send what nobody can verify: refused.
    const enabled = await cli('webhook', 'enable', '--mid', merchant.mid);
    expect(enabled.status).toBe(EXIT_FAILED);
    expect(enabled.stderr).toMatch(/fetch its signing secret/);

    const client = new PayoutClient({ baseUrl: stack.current.api.url, mid: merchant.mid, token: merchant.token });
    const fetched = await client.rotateWebhookSecret();

    expect(fetched).toMatchObject({ kind: 'issued', previousValidUntil: null, httpStatus: 200 });
    if (fetched.kind !== 'issued') throw new Error('no secret');
    expect(fetched.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(fetched.prefix).toBe(fetched.secret.slice(0, 12));
    const [request] = await endpoint.requests(1);
    expect(verify(request!.body, request!.headers['x-webhook-signature'] as string, fetched.secret)).toBe(true);
    await eventually(
      () => deliveriesOf(first),
      (ds) => ds[0]?.status === 'DELIVERED',
      { what: 'the held delivery delivered' },
    );

    const view = await staffView(merchant.mid, merchant.merchant.id);
    expect(view).toContain(fetched.prefix);
    expect(view).not.toContain(fetched.secret);
    expect(view).not.toContain(fetched.secret.slice(12));
    expect(shown(registered) + shown(enabled)).not.toContain(fetched.secret);
  });

  it('when staff move the URL, then the merchant’s secret is kept and never shown; when the merchant rotates, deliveries carry both signatures for a day', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const [before, after] = [await receiver(), await receiver()];
    expect((await cli('merchant', 'webhook', '--mid', merchant.mid, '--url', before.url)).status).toBe(EXIT_OK);
    const fetched = await call(stack.current.api, SECRET, { merchant, body: {} });
    expect(fetched.status, fetched.text).toBe(200);
    expect(documentedBodyErrors(document, SECRET, 'post', fetched), fetched.text).toEqual([]);
    expect(fetched.headers.get('cache-control')).toBe('no-store');
    const secret = String(fetched.json.secret);

    const moved = await cli('merchant', 'webhook', '--mid', merchant.mid, '--url', after.url, '--json');

    expect(moved.status, moved.stderr).toBe(EXIT_OK);
    expect(JSON.parse(moved.stdout)).toMatchObject({
      url: after.url,
      secretPrefix: secret.slice(0, 12),
      awaitingSecret: false,
    });
    expect(shown(moved)).not.toContain(secret);
    const second = await settledPayout(merchant);
    const [kept] = await after.requests(1);
    expect(verify(kept!.body, kept!.headers['x-webhook-signature'] as string, secret)).toBe(true);
    await eventually(
      () => deliveriesOf(second),
      (ds) => ds[0]?.status === 'DELIVERED',
      { what: 'delivered' },
    );

    const rotated = await call(stack.current.api, SECRET, { merchant, body: {} });

    expect(rotated.status).toBe(200);
    expect(documentedBodyErrors(document, SECRET, 'post', rotated), rotated.text).toEqual([]);
    const renewed = String(rotated.json.secret);
    expect(renewed).not.toBe(secret);
    expect(Date.parse(String(rotated.json.previous_valid_until))).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    await settledPayout(merchant);
    const [, both] = await after.requests(2);
    const header = both!.headers['x-webhook-signature'] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verify(both!.body, header, renewed)).toBe(true);
    expect(verify(both!.body, header, secret)).toBe(true);
    const view = await staffView(merchant.mid, merchant.merchant.id);
    for (const s of [secret, renewed]) expect(view).not.toContain(s);
  });

  it('when no URL is registered, then the merchant is told so and nothing is made', async () => {
    const merchant = await makeMerchant(db);

    const res = await call(stack.current.api, SECRET, { merchant, body: {} });

    expect(res.status).toBe(404);
    expect(documentedBodyErrors(document, SECRET, 'post', res), res.text).toEqual([]);
    expect(res.json).toEqual(errorBody(404, 'NOT FOUND', CONTRACT_MESSAGES.webhookNotRegistered));
    expect(await db.webhookEndpoint.count({ where: { merchantId: merchant.merchant.id } })).toBe(0);
  });
});
