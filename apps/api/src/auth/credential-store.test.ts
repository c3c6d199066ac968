import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '@payout/db';
import { hashToken, newApiToken, tokenDisplayPrefix } from '@payout/domain';
import { CredentialStore } from './credential-store.js';

const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 2, connectTimeoutMs: 5_000 });
afterAll(() => db.$disconnect());

async function merchantWithToken() {
  const token = newApiToken();
  const mid = `CS${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const merchant = await db.merchant.create({
    data: {
      mid,
      name: 'Cache test',
      tokens: { create: { tokenHash: hashToken(token), tokenPrefix: tokenDisplayPrefix(token) } },
    },
  });
  return { merchant, mid };
}

describe('CredentialStore', () => {
  it('when a MID is looked up twice within the TTL, then the second answer comes from the cache', async () => {
    const { merchant, mid } = await merchantWithToken();
    const store = new CredentialStore(db, 60_000);
    expect((await store.lookup(mid))?.merchant.status).toBe('ACTIVE');
    await db.merchant.update({ where: { id: merchant.id }, data: { status: 'SUSPENDED' } });
    expect((await store.lookup(mid))?.merchant.status).toBe('ACTIVE');
    store.forget(mid);
    expect((await store.lookup(mid))?.merchant.status).toBe('SUSPENDED');
  });

  it('when a MID is unknown, then null is cached too', async () => {
    const store = new CredentialStore(db, 60_000);
    const mid = `NOPE${Date.now()}`;
    expect(await store.lookup(mid)).toBeNull();
    await db.merchant.create({ data: { mid, name: 'Late' } });
    expect(await store.lookup(mid)).toBeNull();
  });

  it('when a recheck comes within a second of the last read, then the cache answers; after that, the database does', async () => {
    const { merchant, mid } = await merchantWithToken();
    let now = 1_000_000;
    const store = new CredentialStore(db, 60_000, 100, () => now);
    expect((await store.lookup(mid))?.activeTokenHashes).toHaveLength(1);
    await db.merchantToken.create({
      data: { merchantId: merchant.id, tokenHash: hashToken(newApiToken()), tokenPrefix: 'pgt_x' },
    });

    now += 500;
    expect((await store.recheck(mid))?.activeTokenHashes).toHaveLength(1);
    now += 600;
    expect((await store.recheck(mid))?.activeTokenHashes).toHaveLength(2);
  });
});
