import { afterAll, describe, expect, it } from 'vitest';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody, useApi } from '../support/api.js';

const prisma = testPrisma();
// A long cache, so these tests show what happens while a merchant's credentials are cached.
const api = useApi({ AUTH_CACHE_TTL_MS: '60000' });
afterAll(() => prisma.$disconnect());

const wallet = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';

describe('cached credentials', () => {
  it('when wrong tokens are tried repeatedly, then they are refused without a database query for each', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });
    expect((await call(api.current, wallet, { merchant })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(api.current, wallet, { merchant: { mid: merchant.mid, token: `guess-${i}` } }),
      ),
    );
    expect(answers.every((a) => a.status === 401)).toBe(true);
  });

  it('when a replay changes the beneficiary name, then it is a conflict', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });
    const body = impsBody({ Amount: '1.00' });
    expect((await call(api.current, '/api/impspayout', { merchant, body })).status).toBe(202);
    const renamed = await call(api.current, '/api/impspayout', { merchant, body: { ...body, Name: 'Someone Else' } });
    expect(renamed.status).toBe(409);
    const sameAgain = await call(api.current, '/api/impspayout', {
      merchant,
      body: { ...body, Email: 'other@example.com' },
    });
    expect(sameAgain.status).toBe(202);
  });
});
