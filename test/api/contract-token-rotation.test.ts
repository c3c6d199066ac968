import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOperatorActions } from '@payout/db';
import { tokenDisplayPrefix } from '@payout/domain';
import { testPrisma } from '../support/database.js';
import { issueToken, makeMerchant } from '../support/factories.js';
import { call, useApi, type ApiResponse } from '../support/api.js';
import { documentedBodyErrors, type JsonObject } from '../docs/openapi-checks.js';
import { CONTRACT_MESSAGES, errorBody, expectValidationError, unauthorizedBody } from './contract-expectations.js';

// Contract of POST /api/token/rotate and POST /api/token/revoke: docs/api.md, "Token rotation". A merchant
// rotates its own token with one it holds; both work until the old one revokes itself; it holds at most two,
// and a token never revokes an older one (test/security/merchant-credentials-revocation.test.ts). Every
// answer fits the published OpenAPI document.

const prisma = testPrisma();
const api = useApi();
let document: JsonObject;
beforeAll(async () => {
  document = (await call(api.current, '/openapi.json')).json;
});
afterAll(() => prisma.$disconnect());

const ROTATE = '/api/token/rotate';
const REVOKE = '/api/token/revoke';
const WALLET = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';

function expectDocumented(path: string, res: ApiResponse): void {
  expect(documentedBodyErrors(document, path, 'post', res), res.text).toEqual([]);
}

const activeTokens = (merchantId: number) => prisma.merchantToken.count({ where: { merchantId, revokedAt: null } });

describe('POST /api/token/rotate', () => {
  it('when a merchant rotates, then 200 with the new token once, and the old and new both work until the old is revoked', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });

    const rotated = await call(api.current, ROTATE, { merchant, body: {} });

    expect(rotated.status, rotated.text).toBe(200);
    expectDocumented(ROTATE, rotated);
    const token = String(rotated.json.token);
    expect(rotated.json).toEqual({
      error: false,
      status_code: 200,
      status: 'Success',
      token: expect.stringMatching(/^pgt_[A-Za-z0-9_-]{43}$/),
      prefix: tokenDisplayPrefix(token),
      message: 'New token issued. Revoke the old one once your clients use the new one.',
    });
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    // Only the digest is stored: the token is nowhere in the database.
    const stored = await prisma.merchantToken.findMany({ where: { merchantId: merchant.merchant.id } });
    expect(JSON.stringify(stored)).not.toContain(token);
    const renewed = { mid: merchant.mid, token };
    expect((await call(api.current, WALLET, { merchant })).status).toBe(200);
    expect((await call(api.current, WALLET, { merchant: renewed })).status).toBe(200);

    // The old token retires itself once the clients use the new one.
    const revoked = await call(api.current, REVOKE, {
      merchant,
      body: { TokenPrefix: tokenDisplayPrefix(merchant.token) },
    });

    expect(revoked.status, revoked.text).toBe(200);
    expectDocumented(REVOKE, revoked);
    expect(revoked.json).toEqual({
      error: false,
      status_code: 200,
      status: 'Success',
      prefix: tokenDisplayPrefix(merchant.token),
      message: 'Token revoked.',
    });
    // Forgotten at once by the process that revoked it, not after the credential cache's TTL.
    const old = await call(api.current, WALLET, { merchant });
    expect(old.status).toBe(401);
    expect(old.json).toEqual(unauthorizedBody);
    expect((await call(api.current, WALLET, { merchant: renewed })).status).toBe(200);
    const audit = await listOperatorActions(prisma, { merchantId: merchant.merchant.id, limit: 10 });
    expect(audit.map((a) => [a.actor, a.action])).toEqual(
      expect.arrayContaining([
        [`merchant:${merchant.mid}`, 'token.rotate'],
        [`merchant:${merchant.mid}`, 'token.revoke'],
      ]),
    );
  });

  it('when the merchant already holds two active tokens, then 409 naming both and no third token is made', async () => {
    const merchant = await makeMerchant(prisma);
    const second = await issueToken(prisma, merchant.merchant.id);

    const res = await call(api.current, ROTATE, { merchant, body: {} });

    expect(res.status).toBe(409);
    expectDocumented(ROTATE, res);
    const prefixes = `${tokenDisplayPrefix(merchant.token)}, ${tokenDisplayPrefix(second)}`;
    expect(res.json).toEqual(errorBody(409, 'CONFLICT', CONTRACT_MESSAGES.tokenLimit(prefixes)));
    expect(await activeTokens(merchant.merchant.id)).toBe(2);
  });

  it('when a rotation answer was lost, then the 409 names the token never received and the held one revokes it', async () => {
    const merchant = await makeMerchant(prisma);
    const lost = await call(api.current, ROTATE, { merchant, body: {} });
    expect(lost.status).toBe(200);

    const again = await call(api.current, ROTATE, { merchant, body: {} });
    expect(again.status).toBe(409);
    const named = /\((pgt_\S{6}), (pgt_\S{6})\)/.exec(String(again.json.message))!.slice(1);
    const unknown = named.find((prefix) => prefix !== tokenDisplayPrefix(merchant.token))!;
    expect(unknown).toBe(lost.json.prefix);

    expect((await call(api.current, REVOKE, { merchant, body: { TokenPrefix: unknown } })).status).toBe(200);
    expect((await call(api.current, ROTATE, { merchant, body: {} })).status).toBe(200);
  });

  it('when two rotations race from one token, then one is answered a token and the other 409', async () => {
    const merchant = await makeMerchant(prisma);

    const answers = await Promise.all([
      call(api.current, ROTATE, { merchant, body: {} }),
      call(api.current, ROTATE, { merchant, body: {} }),
    ]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await activeTokens(merchant.merchant.id)).toBe(2);
  });

  it('when the token is wrong, the body is not JSON or the method is not POST, then the usual refusals and nothing is made', async () => {
    const merchant = await makeMerchant(prisma);
    const wrong = await call(api.current, ROTATE, { merchant: { mid: merchant.mid, token: 'pgt_wrong' }, body: {} });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual(unauthorizedBody);
    expectDocumented(ROTATE, wrong);
    const notJson = await call(api.current, ROTATE, { merchant, body: 'token please' });
    expect(notJson.status).toBe(400);
    expectDocumented(ROTATE, notJson);
    const get = await call(api.current, ROTATE, { merchant });
    expect(get.status).toBe(405);
    expect(await activeTokens(merchant.merchant.id)).toBe(1);
  });
});

describe('POST /api/token/revoke', () => {
  it('when the only token names itself, then 409 and it keeps working', async () => {
    const merchant = await makeMerchant(prisma);

    const res = await call(api.current, REVOKE, {
      merchant,
      body: { TokenPrefix: tokenDisplayPrefix(merchant.token) },
    });

    expect(res.status).toBe(409);
    expectDocumented(REVOKE, res);
    expect(res.json).toEqual(errorBody(409, 'CONFLICT', CONTRACT_MESSAGES.lastToken));
    expect(await activeTokens(merchant.merchant.id)).toBe(1);
    expect((await call(api.current, WALLET, { merchant })).status).not.toBe(401);
  });

  it('when a newer token names an older one, then 409 and both keep working', async () => {
    const merchant = await makeMerchant(prisma);
    const newer = { mid: merchant.mid, token: await issueToken(prisma, merchant.merchant.id) };

    const res = await call(api.current, REVOKE, {
      merchant: newer,
      body: { TokenPrefix: tokenDisplayPrefix(merchant.token) },
    });

    expect(res.status).toBe(409);
    expectDocumented(REVOKE, res);
    expect(res.json).toEqual(errorBody(409, 'CONFLICT', CONTRACT_MESSAGES.tokenRevokesOlder));
    expect(await activeTokens(merchant.merchant.id)).toBe(2);
  });

  it("when the prefix names no active token of the merchant's (another merchant's, or one already revoked), then 404", async () => {
    const merchant = await makeMerchant(prisma);
    const other = await makeMerchant(prisma);

    const res = await call(api.current, REVOKE, { merchant, body: { TokenPrefix: tokenDisplayPrefix(other.token) } });

    expect(res.status).toBe(404);
    expectDocumented(REVOKE, res);
    expect(res.json).toEqual(errorBody(404, 'NOT FOUND', CONTRACT_MESSAGES.tokenNotFound));
    expect(await activeTokens(other.merchant.id)).toBe(1);
  });

  it('when TokenPrefix is missing or not a prefix, then 422 naming it', async () => {
    const merchant = await makeMerchant(prisma);
    for (const body of [{}, { TokenPrefix: 'abc' }, { TokenPrefix: 12 }]) {
      const res = await call(api.current, REVOKE, { merchant, body });
      expectValidationError(res, ['TokenPrefix']);
      expectDocumented(REVOKE, res);
    }
  });
});
