import { afterAll, describe, expect, it } from 'vitest';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { call, useApi } from '../support/api.js';
import { unauthorizedBody } from './contract-expectations.js';

// A merchant's IP allow-list (docs/api.md, "IP allow-list"): a right token from an address outside the
// list is answered exactly as a wrong token; the same token from inside works. The address is the one
// TRUST_PROXY_HOPS yields: behind one proxy, the last X-Forwarded-For entry; with no proxy, the socket's.

const prisma = testPrisma();
const behindProxy = useApi({ TRUST_PROXY_HOPS: '1' });
const direct = useApi({ TRUST_PROXY_HOPS: '0' });
afterAll(() => prisma.$disconnect());

const WALLET = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';

async function merchantAllowing(cidrs: string[]): Promise<TestMerchant> {
  const merchant = await makeMerchant(prisma, { balance: '25.00' });
  await prisma.merchant.update({ where: { id: merchant.merchant.id }, data: { ipAllowlist: cidrs } });
  return merchant;
}

const from = (address: string) => ({ 'X-Forwarded-For': `198.51.100.250, ${address}` });

describe('IP allow-list', () => {
  it('when a token is used from outside the list, then 401 with the wrong-token body; from inside, it works', async () => {
    const merchant = await merchantAllowing(['203.0.113.0/24', '2001:db8:5::/48']);

    const outside = await call(behindProxy.current, WALLET, { merchant, headers: from('203.0.114.7') });
    expect(outside.status).toBe(401);
    expect(outside.json).toEqual(unauthorizedBody);
    const wrongToken = await call(behindProxy.current, WALLET, {
      merchant: { mid: merchant.mid, token: 'pgt_wrong' },
      headers: from('203.0.113.7'),
    });
    expect(outside.text).toBe(wrongToken.text);

    const inside = await call(behindProxy.current, WALLET, { merchant, headers: from('203.0.113.7') });
    expect(inside.status, inside.text).toBe(200);
    expect(inside.json.mainwallet).toBe('25.00');
    expect((await call(behindProxy.current, WALLET, { merchant, headers: from('2001:db8:5::9') })).status).toBe(200);
    expect((await call(behindProxy.current, WALLET, { merchant, headers: from('2001:db8:6::9') })).status).toBe(401);
    // Refused again after a success: the cache that knows the token good does not know the address.
    expect((await call(behindProxy.current, WALLET, { merchant, headers: from('203.0.114.7') })).status).toBe(401);
  });

  it('when the API trusts no proxy, then X-Forwarded-For is not the address: the socket is', async () => {
    const merchant = await merchantAllowing(['203.0.113.0/24']);
    const local = await merchantAllowing(['127.0.0.0/8', '::1/128']);

    const claimed = await call(direct.current, WALLET, { merchant, headers: from('203.0.113.7') });
    expect(claimed.status).toBe(401);
    expect(claimed.json).toEqual(unauthorizedBody);
    expect((await call(direct.current, WALLET, { merchant: local })).status).toBe(200);
  });

  it('when the list is empty, then the token works from anywhere', async () => {
    const merchant = await merchantAllowing([]);
    expect((await call(behindProxy.current, WALLET, { merchant, headers: from('192.0.2.44') })).status).toBe(200);
    expect((await call(behindProxy.current, WALLET, { merchant, headers: from('2001:db8::1') })).status).toBe(200);
  });
});
