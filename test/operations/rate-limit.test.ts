import { afterAll, describe, expect, it } from 'vitest';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, useApi } from '../support/api.js';

const prisma = testPrisma();
const api = useApi({ RATE_LIMIT_POINTS: '5', RATE_LIMIT_WINDOW_MS: '60000' });
afterAll(() => prisma.$disconnect());

const wallet = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';

describe('per-merchant rate limit', () => {
  it('when a merchant goes over its allowance, then it gets 429 with Retry-After and other merchants are unaffected', async () => {
    const busy = await makeMerchant(prisma, { balance: '1.00' });
    const quiet = await makeMerchant(prisma, { balance: '1.00' });
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await call(api.current, wallet, { merchant: busy }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = answers[5]!;
    expect(limited.json).toEqual({
      error: true,
      status_code: 429,
      status: 'TOO MANY REQUESTS',
      message: expect.stringMatching(/^Too many requests/),
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answers[0]!.headers.get('x-ratelimit-remaining')).toBe('4');

    expect((await call(api.current, wallet, { merchant: quiet })).status).toBe(200);
  });

  it('when credentials are wrong, then the merchant’s allowance is not spent', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1.00' });
    for (let i = 0; i < 10; i++) {
      expect((await call(api.current, wallet, { merchant: { mid: merchant.mid, token: 'wrong' } })).status).toBe(401);
    }
    expect((await call(api.current, wallet, { merchant })).status).toBe(200);
  });
});
