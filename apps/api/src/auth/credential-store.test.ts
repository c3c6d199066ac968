import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '@payout/db';
import { AppError, hashToken, newApiToken, tokenDisplayPrefix } from '@payout/domain';
import { countingStatements } from '../../../../test/support/counting-statements.js';
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
    const store = new CredentialStore(db, { ttlMs: 60_000 });
    expect((await store.lookup(mid))?.merchant.status).toBe('ACTIVE');
    await db.merchant.update({ where: { id: merchant.id }, data: { status: 'SUSPENDED' } });
    expect((await store.lookup(mid))?.merchant.status).toBe('ACTIVE');
    store.forget(mid);
    expect((await store.lookup(mid))?.merchant.status).toBe('SUSPENDED');
  });

  it('when a known merchant is looked up in the second half of its TTL, then the cache answers at once and the entry is refreshed behind it', async () => {
    const { merchant, mid } = await merchantWithToken();
    let now = 1_000_000;
    const store = new CredentialStore(db, { ttlMs: 10_000, now: () => now });
    expect((await store.lookup(mid))?.merchant.status).toBe('ACTIVE');
    await db.merchant.update({ where: { id: merchant.id }, data: { status: 'SUSPENDED' } });
    now += 9_500; // past any refresh point (the second half of the TTL), still within the TTL
    expect((await store.lookup(mid))?.merchant.status).toBe('ACTIVE');
    await store.idle();
    expect((await store.lookup(mid))?.merchant.status).toBe('SUSPENDED');
    now += 10_001; // the refreshed entry is trusted for a whole TTL from its own read, no longer
    await db.merchant.update({ where: { id: merchant.id }, data: { status: 'ACTIVE' } });
    expect((await store.lookup(mid))?.merchant.status).toBe('ACTIVE');
  });

  it('when a token has authenticated before, then the cache vouches for it, even past its TTL, until a read shows it revoked', async () => {
    const token = newApiToken();
    const mid = `CS${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    const merchant = await db.merchant.create({
      data: { mid, name: 'Vouch test', tokens: { create: { tokenHash: hashToken(token), tokenPrefix: 'pgt_v' } } },
    });
    let now = 1_000_000;
    const store = new CredentialStore(db, { ttlMs: 1_000, now: () => now });
    expect(store.vouchedCredentials(mid, hashToken(token), '127.0.0.1')).toBeUndefined();
    const read = await store.lookup(mid);
    // The very entry the lookup answers with, so authenticate compares nothing twice.
    expect(store.vouchedCredentials(mid, hashToken(token), '127.0.0.1')).toBe(read);
    expect(store.vouchedCredentials(mid, hashToken(newApiToken()), '127.0.0.1')).toBeUndefined();
    expect(store.vouchedCredentials(`OTHER${mid}`, hashToken(token), '127.0.0.1')).toBeUndefined();

    now += 60_000; // long past the TTL: the next lookup reads the database, but the word stands until then
    expect(store.vouchedCredentials(mid, hashToken(token), '127.0.0.1')).toBe(read);
    await db.merchantToken.updateMany({ where: { merchantId: merchant.id }, data: { revokedAt: new Date() } });
    expect((await store.lookup(mid))?.activeTokenHashes).toEqual([]);
    expect(store.vouchedCredentials(mid, hashToken(token), '127.0.0.1')).toBeUndefined();
  });

  it('when a MID is unknown, then null is cached too', async () => {
    const store = new CredentialStore(db, { ttlMs: 60_000 });
    const mid = `NOPE${Date.now()}`;
    expect(await store.lookup(mid)).toBeNull();
    await db.merchant.create({ data: { mid, name: 'Late' } });
    expect(await store.lookup(mid)).toBeNull();
  });

  it('when a recheck comes within a second of the last read, then the cache answers; after that, the database does', async () => {
    const { merchant, mid } = await merchantWithToken();
    let now = 1_000_000;
    const store = new CredentialStore(db, { ttlMs: 60_000, now: () => now });
    expect((await store.lookup(mid))?.activeTokenHashes).toHaveLength(1);
    await db.merchantToken.create({
      data: { merchantId: merchant.id, tokenHash: hashToken(newApiToken()), tokenPrefix: 'pgt_x' },
    });

    now += 500;
    expect((await store.recheck(mid))?.activeTokenHashes).toHaveLength(1);
    now += 600;
    expect((await store.recheck(mid))?.activeTokenHashes).toHaveLength(2);
  });

  it('when a flood of unknown MIDs overflows the unknown-MID cache, then a known merchant is still served from its cache', async () => {
    const { merchant, mid } = await merchantWithToken();
    const store = new CredentialStore(db, { ttlMs: 60_000, maxKnown: 10, maxUnknown: 10, maxInFlight: 4 });
    expect((await store.lookup(mid))?.merchant.status).toBe('ACTIVE');
    await db.merchant.update({ where: { id: merchant.id }, data: { status: 'SUSPENDED' } });

    for (let i = 0; i < 100; i++) expect(await store.lookup(`FLOOD${Date.now()}${i}`)).toBeNull();

    // Still the cached copy: had the flood evicted it, the database's SUSPENDED would show.
    expect((await store.lookup(mid))?.merchant.status).toBe('ACTIVE');
  });

  it('when look-ups of never-seen MIDs pile up beyond the cap, then the excess is refused at once with a 503', async () => {
    let refused = 0;
    const store = new CredentialStore(db, {
      ttlMs: 60_000,
      maxInFlight: 1,
      maxWaiting: 2,
      onSaturated: () => refused++,
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => store.lookup(`BURST${Date.now()}${i}`)),
    );
    const answered = outcomes.filter((o) => o.status === 'fulfilled');
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(answered).toHaveLength(3);
    expect(answered.every((o) => o.value === null)).toBe(true);
    expect(rejected).toHaveLength(7);
    expect(rejected.every((o) => o.reason instanceof AppError && o.reason.httpStatus === 503)).toBe(true);
    expect(refused).toBe(7);
  });

  it('when a known merchant needs a refresh while unknown MIDs wait, then its look-up goes ahead of them', async () => {
    const { mid } = await merchantWithToken();
    let now = 1_000_000;
    const store = new CredentialStore(db, { ttlMs: 1_000, maxInFlight: 1, maxWaiting: 100, now: () => now });
    await store.lookup(mid);
    now += 5_000; // expired: the next lookup reads the database again, in the known lane

    const order: string[] = [];
    const unknown = Array.from({ length: 20 }, (_, i) =>
      store.lookup(`QUEUED${Date.now()}${i}`).then(() => order.push('unknown')),
    );
    const known = store.lookup(mid).then((c) => {
      order.push('known');
      return c;
    });
    await Promise.all([...unknown, known]);
    // The first unknown MID already held the only slot; the known merchant is next, not 20th.
    expect(order.indexOf('known')).toBeLessThanOrEqual(1);
    expect((await known)?.merchant.mid).toBe(mid);
  });

  it('when many known merchants are due for a refresh together, then one statement refreshes them all and a revoked token stops matching', async () => {
    const merchants = await Promise.all(Array.from({ length: 5 }, () => merchantWithToken()));
    let now = 1_000_000;
    const counted = countingStatements(db);
    const store = new CredentialStore(counted.client, { ttlMs: 10_000, maxInFlight: 1, now: () => now });
    for (const { mid } of merchants) expect((await store.lookup(mid))?.activeTokenHashes).toHaveLength(1);
    const [revoked, ...others] = merchants;
    await db.merchantToken.updateMany({ where: { merchantId: revoked!.merchant.id }, data: { revokedAt: new Date() } });
    await db.merchant.update({ where: { id: others[0]!.merchant.id }, data: { status: 'SUSPENDED' } });

    now += 9_500; // every entry past its refresh point, all still within the TTL
    const statementsBefore = counted.statements();
    for (const { mid } of merchants) expect(await store.lookup(mid)).not.toBeNull(); // answered from the cache
    await store.idle();
    expect(counted.statements()).toBe(statementsBefore + 1);

    expect((await store.lookup(revoked!.mid))?.activeTokenHashes).toEqual([]);
    expect((await store.lookup(others[0]!.mid))?.merchant.status).toBe('SUSPENDED');
    expect((await store.lookup(others[1]!.mid))?.merchant.status).toBe('ACTIVE');
  });
});
