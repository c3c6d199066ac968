import { afterAll, describe, expect, it } from 'vitest';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, upiBody, useApi, type ApiResponse } from '../support/api.js';
import { credentialHeaders, errorBody, expectJson, merchantSnapshot, sendBytes } from './contract-expectations.js';

// docs/api.md, "Errors at large" and "Response bodies": always a JSON object with error, status_code (= HTTP status) and status;
// unknown route 404, wrong method 405, POST without application/json 415, body not JSON or not an object
// 400, body over 16 KiB 413. None of them may change anything in the database.

const prisma = testPrisma();
const pool = testPool();
const api = useApi();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const KIB_16 = 16 * 1024;

/** Sends `send` for a funded merchant and proves nothing of that merchant changed. */
async function withoutChange(send: (merchant: TestMerchant) => Promise<ApiResponse>): Promise<ApiResponse> {
  const merchant = await makeMerchant(prisma, { balance: '1000000.00' });
  const before = await merchantSnapshot(pool, merchant.merchant.id);
  const res = await send(merchant);
  expect(await merchantSnapshot(pool, merchant.merchant.id), 'database changed').toEqual(before);
  return res;
}

/** An IMPS body padded with an ignored member to exactly `bytes` bytes of JSON. */
function impsBodyOfSize(bytes: number): string {
  const empty = JSON.stringify(impsBody({ Padding: '' }));
  const text = JSON.stringify({ ...(JSON.parse(empty) as object), Padding: 'p'.repeat(bytes - empty.length) });
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

describe('unknown route (404)', () => {
  it.each([
    { method: 'GET', path: '/api/nope' },
    { method: 'POST', path: '/api/impspayout/extra' },
    { method: 'GET', path: '/' },
    { method: 'DELETE', path: '/api/payouts/123' },
  ])('when $method $path is asked, then 404 NOT FOUND as a JSON error body', async ({ method, path }) => {
    const res = await withoutChange((merchant) =>
      call(api.current, path, { merchant, method, ...(method === 'POST' && { body: impsBody() }) }),
    );

    expectJson(res, 404, errorBody(404, 'NOT FOUND'));
  });
});

describe('wrong method (405)', () => {
  it.each([
    { method: 'GET', path: '/api/impspayout' },
    { method: 'PUT', path: '/api/impspayout' },
    { method: 'GET', path: '/api/payout' },
    { method: 'DELETE', path: '/api/payout' },
    { method: 'POST', path: '/api/check_payout_status?TransactionID=1' },
    { method: 'PATCH', path: '/api/payin/status?TransactionID=1' },
    { method: 'POST', path: '/api/checkMainWallet?PayoutType=Main_Wallet_Balance' },
  ])('when $method $path is asked, then 405 METHOD NOT ALLOWED as a JSON error body', async ({ method, path }) => {
    const res = await withoutChange((merchant) =>
      call(api.current, path, {
        merchant,
        method,
        ...(method !== 'GET' && method !== 'DELETE' && { body: impsBody() }),
      }),
    );

    expectJson(res, 405, errorBody(405, 'METHOD NOT ALLOWED'));
  });
});

describe('POST without application/json (415)', () => {
  it.each([
    { path: '/api/impspayout', contentType: 'text/plain' },
    { path: '/api/payout', contentType: 'application/x-www-form-urlencoded' },
    { path: '/api/impspayout', contentType: 'multipart/form-data; boundary=x' },
    { path: '/api/payout', contentType: 'application/xml' },
  ])('when $path is posted as $contentType, then 415 UNSUPPORTED MEDIA TYPE', async ({ path, contentType }) => {
    const body = JSON.stringify(path === '/api/payout' ? upiBody() : impsBody());
    const res = await withoutChange((merchant) =>
      call(api.current, path, { merchant, body, headers: { 'Content-Type': contentType } }),
    );

    expectJson(res, 415, errorBody(415, 'UNSUPPORTED MEDIA TYPE'));
  });

  it.each(['/api/impspayout', '/api/payout'])(
    'when %s is posted with no Content-Type at all, then 415 UNSUPPORTED MEDIA TYPE',
    async (path) => {
      const res = await withoutChange((merchant) =>
        sendBytes(api.current.url, path, {
          headers: credentialHeaders(merchant),
          body: new TextEncoder().encode(JSON.stringify(impsBody())),
        }),
      );

      expectJson(res, 415, errorBody(415, 'UNSUPPORTED MEDIA TYPE'));
    },
  );
});

describe('body that is not a JSON object (400)', () => {
  it.each([
    { name: 'not JSON', body: 'Amount=101.00&TransactionID=1' },
    { name: 'truncated JSON', body: '{"TransactionID":"1","Amount":' },
    { name: 'a JSON array', body: '[]' },
    { name: 'a JSON array holding a valid body', body: JSON.stringify([impsBody()]) },
    { name: 'JSON null', body: 'null' },
    { name: 'a JSON string', body: '"payout"' },
    { name: 'a JSON number', body: '101.00' },
    { name: 'empty', body: '' },
  ])('when the body is $name, then 400 BAD REQUEST as a JSON error body', async ({ body }) => {
    const res = await withoutChange((merchant) => call(api.current, '/api/impspayout', { merchant, body }));

    expectJson(res, 400, errorBody(400, 'BAD REQUEST'));
  });
});

describe('body over 16 KiB (413)', () => {
  it('when a valid body is one byte over 16 KiB, then 413 PAYLOAD TOO LARGE and nothing is recorded', async () => {
    const body = impsBodyOfSize(KIB_16 + 1);

    const res = await withoutChange((merchant) => call(api.current, '/api/impspayout', { merchant, body }));

    expectJson(res, 413, errorBody(413, 'PAYLOAD TOO LARGE'));
  });

  it('when a UPI body is 64 KiB, then 413 PAYLOAD TOO LARGE', async () => {
    const res = await withoutChange((merchant) =>
      call(api.current, '/api/payout', { merchant, body: upiBody({ Description: 'd'.repeat(64 * 1024) }) }),
    );

    expectJson(res, 413, errorBody(413, 'PAYLOAD TOO LARGE'));
  });

  it('when a valid body is exactly 16 KiB, then it is not refused for its size', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });

    const res = await call(api.current, '/api/impspayout', { merchant, body: impsBodyOfSize(KIB_16) });

    expect(res.status, res.text).toBe(202);
  });
});
