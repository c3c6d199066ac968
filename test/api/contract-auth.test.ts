import { afterAll, describe, expect, it } from 'vitest';
import { hashToken } from '@payout/domain';
import { testPool, testPrisma } from '../support/database.js';
import { issueToken, makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, impsBody, newTransactionId, upiBody, useApi, type ApiResponse } from '../support/api.js';
import {
  expectJson,
  invalidMidBody,
  merchantSnapshot,
  pollUntil,
  sendBytes,
  unauthorizedBody,
} from './contract-expectations.js';

// Authentication (docs/api.md, "Order of checks"), checked before anything else of the request is
// read, on all five endpoints. The credential cache lives 1 ms here, so a suspension, a new token or a
// revocation shows within a few milliseconds; tests wait for it with a short bounded poll, never a sleep.

const prisma = testPrisma();
const pool = testPool();
const api = useApi({ AUTH_CACHE_TTL_MS: '1' });
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

type Credentials = Pick<TestMerchant, 'mid' | 'token'>;

interface Endpoint {
  name: string;
  invalidMidStatus: 'FAILED' | 'BAD REQUEST';
  /** A request that would succeed for an active, funded merchant. */
  send: (credentials: Credentials | undefined, headers?: Record<string, string>) => Promise<ApiResponse>;
  okStatus: number;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST /api/impspayout',
    invalidMidStatus: 'FAILED',
    okStatus: 202,
    send: (merchant, headers) => call(api.current, '/api/impspayout', { merchant, headers, body: impsBody() }),
  },
  {
    name: 'POST /api/payout',
    invalidMidStatus: 'FAILED',
    okStatus: 202,
    send: (merchant, headers) => call(api.current, '/api/payout', { merchant, headers, body: upiBody() }),
  },
  {
    name: 'GET /api/check_payout_status',
    invalidMidStatus: 'FAILED',
    okStatus: 404,
    send: (merchant, headers) =>
      call(api.current, `/api/check_payout_status?TransactionID=${newTransactionId()}`, { merchant, headers }),
  },
  {
    name: 'GET /api/payin/status',
    invalidMidStatus: 'FAILED',
    okStatus: 404,
    send: (merchant, headers) =>
      call(api.current, `/api/payin/status?TransactionID=${newTransactionId()}`, { merchant, headers }),
  },
  {
    name: 'GET /api/checkMainWallet',
    invalidMidStatus: 'BAD REQUEST',
    okStatus: 200,
    send: (merchant, headers) =>
      call(api.current, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant, headers }),
  },
];

const funded = () => makeMerchant(prisma, { balance: '100000.00' });

/**
 * Waits until the API's view of these credentials gives `status` on the harmless wallet lookup (the
 * credential cache is shared by all endpoints), so the request under test is sent exactly once.
 */
async function awaitCredentialStatus(credentials: Credentials, status: number): Promise<void> {
  const last = await pollUntil(
    () => call(api.current, '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant: credentials }),
    (res) => res.status === status,
  );
  expect(last.status, `credentials not yet seen as ${status}: ${last.text}`).toBe(status);
}

describe.each(ENDPOINTS)('$name authentication', (endpoint) => {
  it('when both headers are missing, then 401 UNAUTHORIZED with the contract message', async () => {
    expectJson(await endpoint.send(undefined), 401, unauthorizedBody);
  });

  it('when the headers are present but empty, then 401 UNAUTHORIZED', async () => {
    expectJson(await endpoint.send(undefined, { MID: '', Token: '' }), 401, unauthorizedBody);
  });

  it('when only the Token is missing, then 401 even though the MID is malformed', async () => {
    expectJson(await endpoint.send(undefined, { MID: 'bad.mid' }), 401, unauthorizedBody);
  });

  it('when the MID is well formed (64 characters) but unknown, then 401', async () => {
    const merchant = await funded();
    expectJson(await endpoint.send({ mid: 'U'.repeat(64), token: merchant.token }), 401, unauthorizedBody);
  });

  it(`when the MID is 65 characters, then 400 "Please Input Valid MID" with status ${endpoint.invalidMidStatus}`, async () => {
    const merchant = await funded();
    expectJson(
      await endpoint.send({ mid: 'M'.repeat(65), token: merchant.token }),
      400,
      invalidMidBody(endpoint.invalidMidStatus),
    );
  });

  it("when the MID is one merchant's and the Token another's, then 401 and nothing changes for either", async () => {
    const merchant = await funded();
    const other = await funded();
    const before = [
      await merchantSnapshot(pool, merchant.merchant.id),
      await merchantSnapshot(pool, other.merchant.id),
    ];

    expectJson(await endpoint.send({ mid: merchant.mid, token: other.token }), 401, unauthorizedBody);

    expect([
      await merchantSnapshot(pool, merchant.merchant.id),
      await merchantSnapshot(pool, other.merchant.id),
    ]).toEqual(before);
  });

  it(`when the merchant is suspended, then 400 "Please Input Valid MID" with status ${endpoint.invalidMidStatus}, and it works again once re-activated`, async () => {
    const merchant = await funded();
    expect((await endpoint.send(merchant)).status).toBe(endpoint.okStatus);
    await prisma.merchant.update({ where: { id: merchant.merchant.id }, data: { status: 'SUSPENDED' } });
    await awaitCredentialStatus(merchant, 400);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const refused = await endpoint.send(merchant);

    expectJson(refused, 400, invalidMidBody(endpoint.invalidMidStatus));
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);

    await prisma.merchant.update({ where: { id: merchant.merchant.id }, data: { status: 'ACTIVE' } });
    await awaitCredentialStatus(merchant, 200);
    const back = await endpoint.send(merchant);
    expect(back.status, back.text).toBe(endpoint.okStatus);
  });

  it('when a suspended merchant presents a wrong token, then 401 (the token is checked before the suspension)', async () => {
    const merchant = await funded();
    await prisma.merchant.update({ where: { id: merchant.merchant.id }, data: { status: 'SUSPENDED' } });

    expectJson(await endpoint.send({ mid: merchant.mid, token: `${merchant.token}0` }), 401, unauthorizedBody);
  });

  it('when the merchant holds a second active token, then both tokens work', async () => {
    const merchant = await funded();
    expect((await endpoint.send(merchant)).status).toBe(endpoint.okStatus);
    const second = await issueToken(prisma, merchant.merchant.id);

    await awaitCredentialStatus({ mid: merchant.mid, token: second }, 200);

    const withSecond = await endpoint.send({ mid: merchant.mid, token: second });
    const withFirst = await endpoint.send(merchant);

    expect([withFirst.status, withSecond.status], withSecond.text).toEqual([endpoint.okStatus, endpoint.okStatus]);
  });

  it('when a token is revoked, then it is refused with 401 and the other active token still works', async () => {
    const merchant = await funded();
    const second = await issueToken(prisma, merchant.merchant.id);
    expect((await endpoint.send(merchant)).status).toBe(endpoint.okStatus);
    await prisma.merchantToken.update({
      where: { tokenHash: hashToken(merchant.token) },
      data: { revokedAt: new Date() },
    });

    await awaitCredentialStatus(merchant, 401);
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    const refused = await endpoint.send(merchant);

    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
    expectJson(refused, 401, unauthorizedBody);
    expect((await endpoint.send({ mid: merchant.mid, token: second })).status).toBe(endpoint.okStatus);
  });
});

describe('authentication comes before anything else of the request', () => {
  it('when credentials are missing and the body is not JSON, then 401, not 400', async () => {
    const res = await call(api.current, '/api/impspayout', { body: '{not json' });

    expectJson(res, 401, unauthorizedBody);
  });

  it('when credentials are missing and there is no Content-Type, then 401, not 415', async () => {
    const res = await sendBytes(api.current.url, '/api/payout', { body: new TextEncoder().encode('{}') });

    expectJson(res, 401, unauthorizedBody);
  });

  it('when the MID is malformed and the body is invalid, then 400 "Please Input Valid MID", not a body error', async () => {
    const merchant = await funded();

    const res = await call(api.current, '/api/impspayout', {
      merchant: { mid: 'bad.mid', token: merchant.token },
      body: '[1,2,3]',
    });

    expectJson(res, 400, invalidMidBody('FAILED'));
  });

  it('when the Token is wrong and the body fails validation, then 401, not 422', async () => {
    const merchant = await funded();

    const res = await call(api.current, '/api/payout', {
      merchant: { mid: merchant.mid, token: 'pgt_wrong' },
      body: { Amount: 'lots' },
    });

    expectJson(res, 401, unauthorizedBody);
  });

  it('when credentials are missing on the lookups with bad queries, then 401, not 422 or 400', async () => {
    const payout = await call(api.current, '/api/check_payout_status?TransactionID=abc');
    const payin = await call(api.current, '/api/payin/status');
    const wallet = await call(api.current, '/api/checkMainWallet?PayoutType=nope');

    expectJson(payout, 401, unauthorizedBody);
    expectJson(payin, 401, unauthorizedBody);
    expectJson(wallet, 401, unauthorizedBody);
  });

  it('when a suspended merchant sends a payout, then nothing is recorded and no balance moves', async () => {
    const merchant = await funded();
    await prisma.merchant.update({ where: { id: merchant.merchant.id }, data: { status: 'SUSPENDED' } });
    const before = await merchantSnapshot(pool, merchant.merchant.id);

    // Never authenticated before, so the API has nothing cached: the first request sees the suspension.
    const res = await call(api.current, '/api/impspayout', { merchant, body: impsBody() });

    expectJson(res, 400, invalidMidBody('FAILED'));
    expect(await merchantSnapshot(pool, merchant.merchant.id)).toEqual(before);
  });
});
