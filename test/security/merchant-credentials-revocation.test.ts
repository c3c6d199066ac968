import { afterAll, describe, expect, it } from 'vitest';
import { tokenDisplayPrefix } from '@payout/domain';
import { call, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { CONTRACT_MESSAGES, errorBody, unauthorizedBody } from '../api/contract-expectations.js';

// A leaked token must not be able to take the merchant's own away (docs/api.md, "Token rotation"): a token
// revokes itself while the merchant holds another, or a newer token, never an older one; and however the
// merchant's tokens revoke each other at once, at least one is left.

const prisma = testPrisma();
const api = useApi();
afterAll(() => prisma.$disconnect());

const ROTATE = '/api/token/rotate';
const REVOKE = '/api/token/revoke';
const WALLET = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';

type Holder = Pick<TestMerchant, 'mid' | 'token'>;

/** The merchant's original token and a second one it rotated to (the one that leaks, in these stories). */
async function merchantWithTwoTokens(): Promise<{ merchant: TestMerchant; original: Holder; newer: Holder }> {
  const merchant = await makeMerchant(prisma, { balance: '10.00' });
  const rotated = await call(api.current, ROTATE, { merchant, body: {} });
  expect(rotated.status, rotated.text).toBe(200);
  return { merchant, original: merchant, newer: { mid: merchant.mid, token: String(rotated.json.token) } };
}

const revoke = (by: Holder, named: Holder) =>
  call(api.current, REVOKE, { merchant: by, body: { TokenPrefix: tokenDisplayPrefix(named.token) } });
const works = async (holder: Holder) => (await call(api.current, WALLET, { merchant: holder })).status === 200;
const activeTokens = (merchantId: number) =>
  prisma.merchantToken.findMany({ where: { merchantId, revokedAt: null }, select: { tokenHash: true } });

describe('a merchant revoking its own tokens', () => {
  it('when a leaked newer token tries to revoke the original, then 409 and the original keeps working; the original then revokes the leaked one', async () => {
    const { original, newer: leaked } = await merchantWithTwoTokens();

    const taken = await revoke(leaked, original);

    expect(taken.status).toBe(409);
    expect(taken.json).toEqual(errorBody(409, 'CONFLICT', CONTRACT_MESSAGES.tokenRevokesOlder));
    expect(await works(original)).toBe(true);

    const shut = await revoke(original, leaked);

    expect(shut.status, shut.text).toBe(200);
    expect(await works(original)).toBe(true);
    // Forgotten at once by the process that revoked it.
    const refused = await call(api.current, WALLET, { merchant: leaked });
    expect(refused.status).toBe(401);
    expect(refused.json).toEqual(unauthorizedBody);
  });

  it('when the old token revokes itself after a rotation, then it stops and the new one works; the last token cannot revoke itself', async () => {
    const { merchant, original, newer } = await merchantWithTwoTokens();

    const retired = await revoke(original, original);

    expect(retired.status, retired.text).toBe(200);
    expect(await works(original)).toBe(false);
    expect(await works(newer)).toBe(true);

    const last = await revoke(newer, newer);

    expect(last.status).toBe(409);
    expect(last.json).toEqual(errorBody(409, 'CONFLICT', CONTRACT_MESSAGES.lastToken));
    expect(await works(newer)).toBe(true);
    expect(await activeTokens(merchant.merchant.id)).toHaveLength(1);
  });

  it('when a token names a prefix no active token has, then 404 and nothing changes', async () => {
    const { merchant, original } = await merchantWithTwoTokens();

    const res = await call(api.current, REVOKE, { merchant: original, body: { TokenPrefix: 'pgt_000000' } });

    expect(res.status).toBe(404);
    expect(await activeTokens(merchant.merchant.id)).toHaveLength(2);
  });

  it.each([
    ['each revokes itself', (a: Holder, b: Holder) => [revoke(a, a), revoke(b, b)], [200, 409]],
    ['each revokes the other', (a: Holder, b: Holder) => [revoke(a, b), revoke(b, a)], null],
    ['the older revokes itself and the newer at once', (a: Holder, b: Holder) => [revoke(a, a), revoke(a, b)], null],
  ] as const)(
    'when two tokens race (%s), then the merchant is always left with exactly one working token',
    async (_race, race, statuses) => {
      for (let round = 0; round < 6; round++) {
        const { merchant, original, newer } = await merchantWithTwoTokens();

        const answers = await Promise.all(race(original, newer));

        const got = answers.map((a) => a.status).sort();
        // Whichever ran first decides the other: refused (409), or not believed (401) when its own token was
        // revoked while it waited.
        if (statuses) expect(got).toEqual(statuses);
        else expect([[200, 401].join(), [200, 409].join()]).toContain(got.join());
        expect(await activeTokens(merchant.merchant.id)).toHaveLength(1);
        expect([await works(original), await works(newer)].filter(Boolean)).toHaveLength(1);
      }
    },
  );
});
