import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordCollection, type PrismaClient } from '@payout/db';
import { newAckNo } from '@payout/domain';
import {
  paiseFromRupees,
  PayoutClient,
  PayoutClientError,
  rupeesFromPaise,
  verifyWebhook,
  type PayoutClientOptions,
} from '@payout/client';
import { newTransactionId } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { useStack } from '../support/stack.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';
import { registerEndpoint } from '../webhooks/webhook-fixtures.js';
import { DropFirstResponseProxy } from './drop-first-response-proxy.js';

// The merchant SDK (packages/client) against the real stack over real HTTP: the API, a worker and the rail
// simulator, whose magic amounts produce every outcome a bank can give.

const stack = useStack();
let db: PrismaClient;

beforeAll(() => {
  db = testPrisma();
});
afterAll(async () => {
  await db.$disconnect();
});

/** A client for the merchant, with retries fast enough for tests. */
function clientFor(merchant: TestMerchant, options: Partial<PayoutClientOptions> = {}): PayoutClient {
  return new PayoutClient({
    baseUrl: stack.current.api.url,
    mid: merchant.mid,
    token: merchant.token,
    retry: { firstDelayMs: 50, maxDelayMs: 200, deadlineMs: 10_000 },
    ...options,
  });
}

const WAIT = { firstDelayMs: 50, maxDelayMs: 200, deadlineMs: 20_000 };

const upi = (overrides: Partial<Parameters<PayoutClient['upiPayout']>[0]> = {}) => ({
  TransactionID: newTransactionId(),
  Amount: '101.00',
  Upi: 'asha.kumar@okhdfc',
  Name: 'Asha Kumar',
  Mobile: '9876543210',
  ...overrides,
});

const imps = (overrides: Partial<Parameters<PayoutClient['impsPayout']>[0]> = {}) => ({
  TransactionID: newTransactionId(),
  Amount: '101.00',
  Account: '123456789012',
  Ifsc: 'HDFC0001234',
  Name: 'Asha Kumar',
  BankName: 'HDFC Bank',
  ...overrides,
});

describe('every merchant endpoint through the client', () => {
  it('when an IMPS payout is sent, then pending with the IMPS result (ifsc, string Amount), then final, then a lookup agrees', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const client = clientFor(merchant);
    const request = imps({ Amount: '250.50' });

    const accepted = await client.impsPayout(request);
    expect(accepted).toMatchObject({
      kind: 'pending',
      httpStatus: 202,
      payout: { status: 'PENDING', ifsc: 'HDFC0001234', Amount: '250.50', TransactionID: request.TransactionID },
    });
    expect(accepted.requestId).toEqual(expect.any(String));

    const final = await client.waitForFinal(request.TransactionID, WAIT);
    expect(final).toMatchObject({ kind: 'success', payout: { status: 'Success', mode: 'IMPS', Amount: '250.50' } });

    // The same call again: no second payout, the answer is the payout's state now.
    const replayed = await client.impsPayout(request);
    expect(replayed).toMatchObject({
      kind: 'success',
      httpStatus: 200,
      payout: { Ack_no: accepted.kind === 'pending' ? accepted.payout.Ack_no : '' },
    });
    expect(await client.getMainWallet()).toMatchObject({ kind: 'found', balance: '749.50' });
  });

  it('when a UPI payout with a 23-digit TransactionID is sent as a bigint, then every answer keeps all 23 digits', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const client = clientFor(merchant);
    const transactionId = 98765432109876543210123n;

    const accepted = await client.upiPayout(upi({ TransactionID: transactionId }));
    // UPI PENDING writes both as JSON numbers: 23 digits that JSON.parse would round.
    expect(accepted).toMatchObject({
      kind: 'pending',
      payout: { TransactionID: '98765432109876543210123', Amount: '101.00', account: 'asha.kumar@okhdfc' },
    });
    const final = await client.waitForFinal(transactionId, WAIT);
    expect(final).toMatchObject({ kind: 'success', payout: { TransactionID: '98765432109876543210123' } });
    const replayed = await client.upiPayout(upi({ TransactionID: '98765432109876543210123' }));
    expect(replayed).toMatchObject({
      kind: 'success',
      payout: { TransactionID: '98765432109876543210123', Amount: '101.00' },
    });
    expect(replayed.kind === 'success' && replayed.payout.Bankriff).toMatch(/^[0-9]{12}$/);
  });

  it('when the payout status is asked for an unknown TransactionID, then not_found with the id asked for', async () => {
    const client = clientFor(await makeMerchant(db));
    const notFound = { kind: 'not_found', httpStatus: 404, TransactionID: '123456789012345678901234567890' };
    expect(await client.getPayoutStatus('123456789012345678901234567890')).toMatchObject(notFound);
    expect(
      await client.waitForFinal('123456789012345678901234567890', { ...WAIT, notFoundGraceMs: 200 }),
    ).toMatchObject(notFound);
  });

  it('when a pay-in exists, then found with its exact id and amount; an unknown one is not_found', async () => {
    const merchant = await makeMerchant(db);
    const transactionId = '55555555555555555555555';
    await recordCollection(db, {
      merchantId: merchant.merchant.id,
      transactionId,
      mode: 'INTENT',
      payerAccount: '',
      amountPaise: 50_050n,
      bankReference: '401234567890',
      ackNo: newAckNo(),
      status: 'SUCCESS',
    });
    const client = clientFor(merchant);

    expect(await client.getPayinStatus(BigInt(transactionId))).toMatchObject({
      kind: 'found',
      payin: {
        status: 'SUCCESS',
        mode: 'INTENT',
        TransactionID: transactionId,
        Amount: '500.50',
        Bankriff: '401234567890',
      },
    });
    expect(await client.getPayinStatus('1')).toMatchObject({ kind: 'not_found', TransactionID: '1' });
  });

  it('when the wallet is funded, then its balance; when it never was, then not_found', async () => {
    expect(await clientFor(await makeMerchant(db, { balance: '4765.00' })).getMainWallet()).toMatchObject({
      kind: 'found',
      balance: '4765.00',
      wallet: { status: 'Success', mainwallet: '4765.00' },
    });
    expect(await clientFor(await makeMerchant(db)).getMainWallet()).toMatchObject({
      kind: 'not_found',
      httpStatus: 404,
    });
  });

  it('when the balance does not cover the payout, then failed with the reason, and a replay says the same', async () => {
    const merchant = await makeMerchant(db, { balance: '100.00' });
    const client = clientFor(merchant);
    const request = upi({ Amount: '100.01' });

    const refused = await client.upiPayout(request);
    expect(refused).toMatchObject({
      kind: 'failed',
      httpStatus: 400,
      reason: 'insufficient balance in main wallet',
      payout: { status: 'FAILED', Amount: '100.01', TransactionID: request.TransactionID },
    });
    expect(await client.upiPayout(request)).toMatchObject({
      kind: 'failed',
      reason: 'insufficient balance in main wallet',
    });
    expect(await client.getMainWallet()).toMatchObject({ balance: '100.00' });
  });

  it('when a TransactionID is reused for a different payout, then conflict and nothing changes', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const client = clientFor(merchant);
    const request = upi({ Amount: '101.55' }); // .55 stays pending: the first payout is untouched by the second
    expect((await client.upiPayout(request)).kind).toBe('pending');

    const conflict = await client.upiPayout({ ...request, Amount: '202.00' });
    expect(conflict).toMatchObject({ kind: 'conflict', httpStatus: 409, TransactionID: request.TransactionID });
    expect(await client.getMainWallet()).toMatchObject({ balance: '898.45' });
  });

  it('when members break their rules, then invalid listing each failing member, and nothing is recorded', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const client = clientFor(merchant);
    const request = imps({ Ifsc: 'HDFC1234', Account: '12' });

    const invalid = await client.impsPayout(request);
    expect(invalid).toMatchObject({ kind: 'invalid', httpStatus: 422 });
    expect(invalid.kind === 'invalid' && invalid.errors.map((e) => e.field).sort()).toEqual(['Account', 'Ifsc']);
    expect(await client.getPayoutStatus(request.TransactionID)).toMatchObject({ kind: 'not_found' });
  });

  it('when the token is wrong, then UNAUTHORIZED is thrown at once (credentials are not an outcome)', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const client = clientFor({ ...merchant, token: `${merchant.token}x` });
    const error = await client.upiPayout(upi()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayoutClientError);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', details: { httpStatus: 401 } });
    await expect(clientFor({ ...merchant, mid: 'bad mid!' }).getMainWallet()).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      details: { httpStatus: 400 },
    });
  });
});

describe('a payout whose answer is lost', () => {
  it('when the connection drops after the API has accepted the payout, then the retry makes no second payout', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const proxy = await DropFirstResponseProxy.start(stack.current.api.port);
    try {
      const client = clientFor(merchant, { baseUrl: proxy.url });
      const request = upi({ Amount: '123.00' });

      const outcome = await client.upiPayout(request);

      expect(proxy.dropped).toBe(1);
      expect(proxy.connections).toBeGreaterThanOrEqual(2);
      expect(['pending', 'success']).toContain(outcome.kind);
      const payouts = await db.payout.findMany({
        where: { merchantId: merchant.merchant.id, transactionId: String(request.TransactionID) },
      });
      expect(payouts).toHaveLength(1);
      expect(outcome.kind !== 'invalid' && outcome.kind !== 'conflict' && outcome.payout.Ack_no).toBe(
        payouts[0]!.ackNo,
      );

      expect(await client.waitForFinal(request.TransactionID, WAIT)).toMatchObject({ kind: 'success' });
      expect(stack.current.railSim.payout(payouts[0]!.ackNo)).toMatchObject({ status: 'SUCCESS' });
      expect(await client.getMainWallet()).toMatchObject({ balance: '877.00' });
    } finally {
      await proxy.close();
    }
  });
});

describe('waitForFinal on every rail-sim outcome', () => {
  it.each([
    ['paid at once (.00)', 'success', undefined, () => upi({ Amount: '101.00' })],
    ['declined (.11)', 'failed', 'declined by beneficiary bank', () => upi({ Amount: '101.11' })],
    ['pending, then paid (.22)', 'success', undefined, () => upi({ Amount: '101.22' })],
    ['paid, reply lost (.33)', 'success', undefined, () => upi({ Amount: '101.33' })],
    ['bank 503 twice, then paid (.44)', 'success', undefined, () => upi({ Amount: '101.44' })],
    ['declined, reply lost (.77)', 'failed', 'declined by beneficiary bank', () => upi({ Amount: '101.77' })],
    ['invalid UPI address', 'failed', 'invalid UPI address', () => upi({ Upi: 'invalid.someone@okhdfc' })],
    ['invalid account (IMPS 0000…)', 'failed', 'invalid beneficiary account', () => imps({ Account: '000012345678' })],
  ] as const)('when the bank has %s, then %s', async (_case, kind, reason, request) => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const client = clientFor(merchant);
    const body = request();
    const accepted = 'Upi' in body ? await client.upiPayout(body) : await client.impsPayout(body);
    expect(accepted.kind).toBe('pending');

    const final = await client.waitForFinal(body.TransactionID, WAIT);
    expect(final.kind).toBe(kind);
    if (final.kind === 'success') expect(final.payout.Bankriff).toMatch(/^[0-9]{12}$/);
    if (final.kind === 'failed') expect(final.reason).toBe(reason);
    // Money: a success keeps the amount out of the wallet, a failure puts it back.
    const left = kind === 'success' ? 100_000n - paiseFromRupees(body.Amount)! : 100_000n;
    expect(await client.getMainWallet()).toMatchObject({ balance: rupeesFromPaise(left) });
  });

  it('when the bank keeps the payout pending (.55), then the last pending outcome once the deadline passes', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const client = clientFor(merchant);
    const body = upi({ Amount: '101.55' });
    expect((await client.upiPayout(body)).kind).toBe('pending');

    const started = Date.now();
    const final = await client.waitForFinal(body.TransactionID, { ...WAIT, deadlineMs: 1_500 });
    expect(final).toMatchObject({ kind: 'pending', payout: { status: 'Pending', TransactionID: body.TransactionID } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
  });
});

describe('webhooks verified by the client', () => {
  let endpoint: WebhookReceiver;
  beforeAll(async () => {
    endpoint = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await endpoint.close();
  });

  it('when the worker delivers a real webhook, then it verifies to the typed event; tampered, old or wrongly keyed, it is refused', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const secret = await registerEndpoint(db, merchant, endpoint.url);
    const client = clientFor(merchant);
    const transactionId = '12345678901234567890123';
    const accepted = await client.upiPayout(upi({ TransactionID: transactionId, Amount: '250.00' }));
    expect(accepted.kind).toBe('pending');

    const [delivery] = await endpoint.requests(1);
    const received = { rawBody: delivery!.body, headers: delivery!.headers };

    const verified = await verifyWebhook({ ...received, secret });
    expect(verified).toMatchObject({
      ok: true,
      event: {
        type: 'payout.success',
        deliveryId: delivery!.headers['x-webhook-id'],
        attempt: 1,
        payout: { status: 'SUCCESS', TransactionID: transactionId, Amount: '250.00', account: 'asha.kumar@okhdfc' },
      },
    });
    // The body is the very payout result the API answers now.
    const final = await client.upiPayout(upi({ TransactionID: transactionId, Amount: '250.00' }));
    expect(verified.ok && verified.event.payout).toEqual(final.kind === 'success' ? final.payout : undefined);

    const tampered = delivery!.body.replace('250.00', '950.00');
    expect(await verifyWebhook({ ...received, rawBody: tampered, secret })).toMatchObject({
      ok: false,
      reason: 'signature_mismatch',
    });
    const signedAt = verified.ok ? verified.event.signedAt : 0;
    expect(await verifyWebhook({ ...received, secret, now: (signedAt + 301) * 1000 })).toMatchObject({
      ok: false,
      reason: 'timestamp_outside_window',
    });
    expect(await verifyWebhook({ ...received, secret: 'whsec_not_the_merchants' })).toMatchObject({
      ok: false,
      reason: 'signature_mismatch',
    });
  });
});

describe('bulk payouts through the client', () => {
  it('when a batch mixes IMPS and UPI with one item failing validation, then each item has its own outcome; a replay answers the same batch; the lookup agrees', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const client = clientFor(merchant);
    const batchId = 98765432109876543210987n + BigInt(Date.now()); // 23 digits, as a bigint
    const request = {
      BatchID: batchId,
      Payouts: [
        { ...imps({ Amount: '100.00' }), Mode: 'IMPS' as const },
        { ...upi({ Amount: '50.00' }), Mode: 'UPI' as const },
        { ...imps({ Amount: '10.00', Ifsc: 'HDFC1234' }), Mode: 'IMPS' as const }, // a malformed IFSC
      ],
    };

    const accepted = await client.bulkPayout(request);
    expect(accepted).toMatchObject({
      kind: 'accepted',
      httpStatus: 202,
      batch: { BatchID: batchId.toString(), total: 3, accepted: 2, failed: 0, rejected: 1 },
    });
    if (accepted.kind !== 'accepted') throw new Error('expected accepted');
    expect(accepted.results).toMatchObject([
      { index: 0, kind: 'pending', payout: { ifsc: 'HDFC0001234', Amount: '100.00' } },
      { index: 1, kind: 'pending', payout: { account: 'asha.kumar@okhdfc', Amount: '50.00' } },
      { index: 2, kind: 'invalid', httpStatus: 422, errors: [{ field: 'Ifsc' }] },
    ]);
    expect(accepted.results[1]).toMatchObject({ payout: { TransactionID: request.Payouts[1]!.TransactionID } });

    // The same batch again: the batch as it stands, no second payout for any item.
    const replayed = await client.bulkPayout(request);
    expect(replayed).toMatchObject({ kind: 'accepted', batch: { BatchID: batchId.toString(), total: 3, rejected: 1 } });
    if (replayed.kind !== 'accepted') throw new Error('expected accepted');
    expect(replayed.results.map((r) => r.kind !== 'invalid' && r.kind !== 'conflict' && r.payout.Ack_no)).toEqual(
      accepted.results.map((r) => r.kind !== 'invalid' && r.kind !== 'conflict' && r.payout.Ack_no),
    );
    expect(await db.payout.count({ where: { merchantId: merchant.merchant.id } })).toBe(2);

    // Different items under the same BatchID: a conflict, nothing changes.
    expect(await client.bulkPayout({ ...request, Payouts: request.Payouts.slice(0, 1) })).toMatchObject({
      kind: 'conflict',
      httpStatus: 409,
      BatchID: batchId.toString(),
    });

    for (const item of request.Payouts.slice(0, 2)) await client.waitForFinal(item.TransactionID, WAIT);
    const status = await client.getBulkPayoutStatus(batchId);
    expect(status).toMatchObject({
      kind: 'found',
      httpStatus: 200,
      batch: { BatchID: batchId.toString(), total: 3, pending: 0, success: 2, failed: 0, rejected: 1 },
      results: [
        { index: 0, kind: 'success', payout: { status: 'Success', mode: 'IMPS', Amount: '100.00' } },
        { index: 1, kind: 'success', payout: { status: 'Success', mode: 'UPI', Amount: '50.00' } },
        { index: 2, kind: 'invalid', httpStatus: 422 },
      ],
    });
    expect(await client.getMainWallet()).toMatchObject({ balance: '850.00' });
    expect(await client.getBulkPayoutStatus('123456789012345678901234567890')).toMatchObject({
      kind: 'not_found',
      httpStatus: 404,
    });
  });

  it('when the connection drops after the API has taken the batch, then the retry sends the same BatchID and makes no second payout', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const proxy = await DropFirstResponseProxy.start(stack.current.api.port);
    try {
      const client = clientFor(merchant, { baseUrl: proxy.url });
      const batchId = newTransactionId();
      const payouts = [
        { ...upi({ Amount: '20.00' }), Mode: 'UPI' as const },
        { ...imps({ Amount: '30.00' }), Mode: 'IMPS' as const },
      ];

      const outcome = await client.bulkPayout({ BatchID: batchId, Payouts: payouts });

      expect(proxy.dropped).toBe(1);
      expect(outcome).toMatchObject({ kind: 'accepted', batch: { BatchID: batchId, total: 2, accepted: 2 } });
      expect(await db.bulkBatch.count({ where: { merchantId: merchant.merchant.id } })).toBe(1);
      expect(await db.payout.count({ where: { merchantId: merchant.merchant.id } })).toBe(2);
      expect(await client.getMainWallet()).toMatchObject({ balance: '950.00' });
    } finally {
      await proxy.close();
    }
  });
});

describe('beneficiary validation through the client', () => {
  it('when an account is checked, then valid with the name the bank holds; one starting 0000 is not_valid', async () => {
    const client = clientFor(await makeMerchant(db));
    expect(await client.validateAccount({ Account: 123456789012n, Ifsc: 'hdfc0001234' })).toMatchObject({
      kind: 'valid',
      httpStatus: 200,
      registeredName: 'ASHA KUMAR',
      validation: { status: 'VALID', account: '123456789012', ifsc: 'HDFC0001234' },
    });
    expect(await client.validateAccount({ Account: '000012345678', Ifsc: 'HDFC0001234' })).toMatchObject({
      kind: 'not_valid',
      validation: { status: 'INVALID', account: '000012345678', registered_name: '' },
    });
    const invalid = await client.validateAccount({ Account: '12', Ifsc: 'HDFC1234' });
    expect(invalid).toMatchObject({ kind: 'invalid', httpStatus: 422 });
    expect(invalid.kind === 'invalid' && invalid.errors.map((e) => e.field).sort()).toEqual(['Account', 'Ifsc']);
  });

  it('when a UPI address is checked, then valid with the name the bank holds; one named invalid… is not_valid', async () => {
    const client = clientFor(await makeMerchant(db));
    expect(await client.validateUpi({ Upi: 'asha.kumar@okhdfc' })).toMatchObject({
      kind: 'valid',
      registeredName: 'ASHA KUMAR',
      validation: { status: 'VALID', upi: 'asha.kumar@okhdfc' },
    });
    expect(await client.validateUpi({ Upi: 'othername.raj@okaxis' })).toMatchObject({
      kind: 'valid',
      registeredName: 'RAVI SHARMA',
    });
    expect(await client.validateUpi({ Upi: 'invalid.someone@okaxis' })).toMatchObject({
      kind: 'not_valid',
      validation: { status: 'INVALID', upi: 'invalid.someone@okaxis', registered_name: '' },
    });
  });
});

describe('rotating your own token', () => {
  it('when the connection drops after the API rotated the token, then the retry carries the same Idempotency-Key: no second token, and the outcome names the one never received', async () => {
    const merchant = await makeMerchant(db, { balance: '10.00' });
    const proxy = await DropFirstResponseProxy.start(stack.current.api.port);
    try {
      const client = clientFor(merchant, { baseUrl: proxy.url });

      const outcome = await client.rotateToken();

      expect(proxy.dropped).toBe(1);
      const tokens = await db.merchantToken.findMany({ where: { merchantId: merchant.merchant.id, revokedAt: null } });
      expect(tokens).toHaveLength(2);
      expect(outcome).toMatchObject({ kind: 'at_limit', httpStatus: 409 });
      const [unseen] = outcome.kind === 'at_limit' ? outcome.activePrefixes : [];
      expect(unseen).toMatch(/^pgt_/);
      expect(unseen).not.toBe(merchant.token.slice(0, 10));
      expect(tokens.filter((t) => unseen!.startsWith(t.tokenPrefix) || t.tokenPrefix.startsWith(unseen!))).toHaveLength(
        1,
      );
    } finally {
      await proxy.close();
    }
  });

  it('when a token is rotated and the old one revokes itself, then only the new one works; limits and mistakes are outcomes', async () => {
    const merchant = await makeMerchant(db, { balance: '10.00' });
    const old = clientFor(merchant);

    const rotated = await old.rotateToken();
    expect(rotated).toMatchObject({ kind: 'rotated', httpStatus: 200 });
    if (rotated.kind !== 'rotated') throw new Error('not rotated');
    expect(rotated.prefix).toBe(rotated.token.slice(0, 10));
    const renewed = clientFor({ ...merchant, token: rotated.token });
    expect(await renewed.getMainWallet()).toMatchObject({ kind: 'found', balance: '10.00' });

    expect(await old.rotateToken()).toMatchObject({
      kind: 'at_limit',
      httpStatus: 409,
      activePrefixes: [merchant.token.slice(0, 10), rotated.prefix],
    });
    // A newer token never revokes an older one: a token rotated from a leaked one cannot lock you out.
    expect(await renewed.revokeToken(merchant.token.slice(0, 10))).toMatchObject({ kind: 'refused', httpStatus: 409 });
    expect(await old.revokeToken('nonsense')).toMatchObject({ kind: 'invalid', httpStatus: 422 });

    expect(await old.revokeToken(merchant.token.slice(0, 10))).toMatchObject({
      kind: 'revoked',
      prefix: merchant.token.slice(0, 10),
    });
    expect(await renewed.revokeToken(merchant.token.slice(0, 10))).toMatchObject({ kind: 'not_found' });
    // The one left cannot revoke itself: you would be locked out.
    expect(await renewed.revokeToken(rotated.prefix)).toMatchObject({ kind: 'refused', httpStatus: 409 });
    await expect(old.getMainWallet()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(await renewed.getMainWallet()).toMatchObject({ kind: 'found' });
  });
});
