import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimIdempotencyKey, deleteExpiredIdempotencyKeys } from '@payout/db';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, newTransactionId, useApi, type ApiResponse } from '../support/api.js';
import { registerEndpoint } from '../webhooks/webhook-fixtures.js';
import { documentedBodyErrors, type JsonObject } from '../docs/openapi-checks.js';

// Contract of the Idempotency-Key header on every merchant POST: docs/api.md, "Idempotency keys". The same key
// and request within 24 hours is answered the first answer again, byte for byte; the same key with another
// request is 422; a key whose first request is still running is 409; a secret shown once is never stored.

const prisma = testPrisma();
const api = useApi();
let document: JsonObject;
beforeAll(async () => {
  document = (await call(api.current, '/openapi.json')).json;
});
afterAll(() => prisma.$disconnect());

const IMPS = '/api/impspayout';
const OTHER_REQUEST = 'This Idempotency-Key was used with another request.';
const IN_PROGRESS = 'A request with this Idempotency-Key is still in progress; retry later.';
const MALFORMED = 'Idempotency-Key must be 1 to 255 visible ASCII characters.';

function post(merchant: TestMerchant, path: string, body: unknown, key: string): Promise<ApiResponse> {
  return call(api.current, path, { merchant, body, headers: { 'Idempotency-Key': key } });
}

const payoutCount = (merchant: TestMerchant) => prisma.payout.count({ where: { merchantId: merchant.merchant.id } });
const availablePaise = async (merchant: TestMerchant) =>
  (await prisma.wallet.findUnique({ where: { merchantId: merchant.merchant.id } }))!.availablePaise;

describe('Idempotency-Key on a payout', () => {
  it('when the same key and body are sent again, then the first answer comes back byte for byte, marked as replayed, and one payout exists', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = impsBody({ TransactionID: newTransactionId() });
    const key = randomUUID();

    const first = await post(merchant, IMPS, body, key);
    const again = await post(merchant, IMPS, body, key);

    expect(first.status, first.text).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(202);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(await payoutCount(merchant)).toBe(1);
    expect(await availablePaise(merchant)).toBe(100_000n - 10_100n);
  });

  it('when the same key comes with another body, then 422 naming the header, and no payout is made', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const key = randomUUID();
    expect((await post(merchant, IMPS, impsBody({ TransactionID: newTransactionId() }), key)).status).toBe(202);

    const other = await post(merchant, IMPS, impsBody({ TransactionID: newTransactionId() }), key);

    expect(other.status).toBe(422);
    expect(other.json).toEqual({
      error: true,
      status_code: 422,
      status: 'VALIDATION ERROR',
      message: OTHER_REQUEST,
      errors: [{ field: 'Idempotency-Key', message: OTHER_REQUEST }],
    });
    expect(documentedBodyErrors(document, IMPS, 'post', other)).toEqual([]);
    expect(await payoutCount(merchant)).toBe(1);
  });

  it('when the same key is sent to another endpoint with the same body, then 422: the path is part of the request', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const key = randomUUID();
    const body = impsBody({ TransactionID: newTransactionId() });
    expect((await post(merchant, IMPS, body, key)).status).toBe(202);

    const elsewhere = await post(merchant, '/api/payout/cancel', body, key);

    expect(elsewhere.status).toBe(422);
    expect(elsewhere.json.message).toBe(OTHER_REQUEST);
  });

  it('when the first request with a key is still running, then a second with the same key and body is 409 and changes nothing', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const key = randomUUID();
    const bodyText = JSON.stringify(impsBody({ TransactionID: newTransactionId() }));
    // The first request, claimed as the API claims it and not answered yet.
    const requestDigest = createHash('sha256').update(`POST ${IMPS}\n`).update(bodyText).digest('hex');
    const held = await claimIdempotencyKey(
      prisma,
      { merchantId: merchant.merchant.id, key, requestDigest },
      { ttlMs: 86_400_000, leaseMs: 120_000 },
    );
    expect(held.kind).toBe('claimed');

    const second = await post(merchant, IMPS, bodyText, key);

    expect(second.status).toBe(409);
    expect(second.json).toEqual({ error: true, status_code: 409, status: 'CONFLICT', message: IN_PROGRESS });
    expect(documentedBodyErrors(document, IMPS, 'post', second)).toEqual([]);
    expect(await payoutCount(merchant)).toBe(0);
  });

  it('when two requests with the same key and body arrive at once, then one payout is made and each gets its answer or the in-progress refusal', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const body = impsBody({ TransactionID: newTransactionId() });
    const key = randomUUID();

    const answers = await Promise.all(Array.from({ length: 8 }, () => post(merchant, IMPS, body, key)));

    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 202 || s === 409),
      statuses.join(),
    ).toBe(true);
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((a) => a.text)).size).toBe(1);
    expect(await payoutCount(merchant)).toBe(1);
    expect(await availablePaise(merchant)).toBe(100_000n - 10_100n);
  });

  it('when two merchants send the same key, then each runs its own request', async () => {
    const first = await makeMerchant(prisma, { balance: '1000.00' });
    const second = await makeMerchant(prisma, { balance: '1000.00' });
    const key = randomUUID();

    const a = await post(first, IMPS, impsBody({ TransactionID: newTransactionId() }), key);
    const b = await post(second, IMPS, impsBody({ TransactionID: newTransactionId() }), key);

    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect([await payoutCount(first), await payoutCount(second)]).toEqual([1, 1]);
  });

  it('when a key is past its 24 hours, then it is a new key: another body runs, and the sweep deletes expired keys', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const key = randomUUID();
    expect((await post(merchant, IMPS, impsBody({ TransactionID: newTransactionId() }), key)).status).toBe(202);
    await prisma.$executeRaw`UPDATE idempotency_keys SET expires_at = now() - interval '1 second'
                              WHERE merchant_id = ${merchant.merchant.id} AND key = ${key}`;

    const later = await post(merchant, IMPS, impsBody({ TransactionID: newTransactionId() }), key);

    expect(later.status, later.text).toBe(202);
    expect(await payoutCount(merchant)).toBe(2);
    const staleKey = randomUUID();
    expect((await post(merchant, IMPS, impsBody({ TransactionID: newTransactionId() }), staleKey)).status).toBe(202);
    await prisma.$executeRaw`UPDATE idempotency_keys SET expires_at = now() - interval '1 second'
                              WHERE merchant_id = ${merchant.merchant.id} AND key = ${staleKey}`;
    expect(await deleteExpiredIdempotencyKeys(prisma, 1_000)).toBeGreaterThanOrEqual(1);
    const left = await prisma.$queryRaw<{ key: string }[]>`
      SELECT key FROM idempotency_keys WHERE merchant_id = ${merchant.merchant.id} ORDER BY key`;
    expect(left.map((r) => r.key)).toEqual([key]);
  });

  it('when a refused request is sent again with its key, then the refusal comes back and the request is not run again', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const key = randomUUID();
    const body = impsBody({ TransactionID: newTransactionId(), Amount: 'ten' });

    const first = await post(merchant, IMPS, body, key);
    const again = await post(merchant, IMPS, body, key);

    expect(first.status).toBe(422);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('a malformed Idempotency-Key', () => {
  const malformed: [string, string][] = [
    ['empty', ''],
    ['longer than 255', 'k'.repeat(256)],
    ['with a space', 'two words'],
    ['with a character outside ASCII', 'clé'],
  ];

  it.each(malformed)('when the key is %s, then 400 and nothing is made', async (_why, key) => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });

    const res = await call(api.current, IMPS, {
      merchant,
      body: impsBody({ TransactionID: newTransactionId() }),
      headers: { 'Idempotency-Key': key },
    });

    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: true, status_code: 400, status: 'BAD REQUEST', message: MALFORMED });
    expect(await payoutCount(merchant)).toBe(0);
  });

  it('when the key is 255 visible characters, then it is taken', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const res = await post(merchant, IMPS, impsBody({ TransactionID: newTransactionId() }), '~'.repeat(255));
    expect(res.status, res.text).toBe(202);
  });

  it('when every merchant POST in the published document is sent a malformed key, then each refuses it with 400 before doing anything', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const paths = document.paths as Record<string, Record<string, unknown>>;
    const posts = Object.keys(paths).filter((path) => paths[path]!.post !== undefined);
    expect(posts).toEqual(expect.arrayContaining([IMPS, '/api/payout', '/api/payout/cancel', '/api/bulkpayout']));
    expect(posts.length).toBeGreaterThanOrEqual(9);

    for (const path of posts) {
      const res = await call(api.current, path, { merchant, body: {}, headers: { 'Idempotency-Key': 'two words' } });
      expect([path, res.status, res.json.message]).toEqual([path, 400, MALFORMED]);
    }
    expect(await prisma.merchantToken.count({ where: { merchantId: merchant.merchant.id } })).toBe(1);
  });
});

describe('Idempotency-Key on an operation that shows a secret once', () => {
  it('when a token rotation is sent again with its key, then 409 names the new token by its prefix, no second token is made, and no token is stored', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });
    const key = randomUUID();

    const rotated = await post(merchant, '/api/token/rotate', {}, key);
    const again = await post(merchant, '/api/token/rotate', {}, key);

    expect(rotated.status, rotated.text).toBe(200);
    const token = String(rotated.json.token);
    expect(again.status).toBe(409);
    expect(again.json.message).toContain(`issued a new token (${String(rotated.json.prefix)})`);
    expect(documentedBodyErrors(document, '/api/token/rotate', 'post', again)).toEqual([]);
    expect(await prisma.merchantToken.count({ where: { merchantId: merchant.merchant.id, revokedAt: null } })).toBe(2);
    const stored = await prisma.$queryRaw<{ body: string }[]>`
      SELECT body FROM idempotency_keys WHERE merchant_id = ${merchant.merchant.id} AND key = ${key}`;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.body).toContain(String(rotated.json.prefix));
    expect(stored[0]!.body).not.toContain(token);
  });

  it('when a webhook secret is fetched again with its key, then 409 and the secret is not stored', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });
    await registerEndpoint(prisma, merchant, 'https://acme.example/hooks');
    const key = randomUUID();

    const issued = await post(merchant, '/api/webhook/secret', {}, key);
    const again = await post(merchant, '/api/webhook/secret', {}, key);

    expect(issued.status, issued.text).toBe(200);
    expect(again.status).toBe(409);
    const stored = await prisma.$queryRaw<{ body: string }[]>`
      SELECT body FROM idempotency_keys WHERE merchant_id = ${merchant.merchant.id} AND key = ${key}`;
    expect(stored[0]!.body).not.toContain(String(issued.json.secret));
  });
});
