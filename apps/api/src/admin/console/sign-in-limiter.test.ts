import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProducerConnection } from '@payout/queue';
import { signInLimiter, type SignInLimiterOptions } from './sign-in-limiter.js';

const redis = createProducerConnection(process.env.REDIS_URL!);
beforeAll(async () => {
  if (redis.status !== 'ready') await once(redis, 'ready');
});
afterAll(() => redis.disconnect());

/** A limiter with keys of its own in Redis, so no other test's counts are seen. */
function limiter(options: Partial<SignInLimiterOptions> = {}) {
  return signInLimiter({
    redis,
    prefix: `signin-test-${randomBytes(4).toString('hex')}`,
    attempts: 3,
    addressAttempts: 5,
    windowMs: 60_000,
    maxHashing: 1,
    ...options,
  });
}

describe('signInLimiter', () => {
  it('when one address fails over many usernames, then past its allowance every username waits there, and no other address does', async () => {
    const signIn = limiter();
    for (let i = 0; i < 5; i++) {
      expect(await signIn.blockedFor(`user-${i}`, '198.51.100.1')).toBe(0);
      await signIn.failed(`user-${i}`, '198.51.100.1');
    }
    expect(await signIn.blockedFor('someone-else', '198.51.100.1')).toBeGreaterThan(0);
    expect(await signIn.blockedFor('someone-else', '198.51.100.2')).toBe(0);
  });

  it('when a username fails from one address past its own allowance, then it waits there even under the address allowance', async () => {
    const signIn = limiter();
    for (let i = 0; i < 3; i++) await signIn.failed('asha', '198.51.100.3');
    expect(await signIn.blockedFor('asha', '198.51.100.3')).toBeGreaterThan(0);
    expect(await signIn.blockedFor('omar', '198.51.100.3')).toBe(0);
  });

  it('when a sign-in succeeds, then its pair is forgotten but the address keeps its failures', async () => {
    const signIn = limiter({ attempts: 2, addressAttempts: 3 });
    await signIn.failed('asha', '198.51.100.4');
    await signIn.failed('asha', '198.51.100.4');
    expect(await signIn.blockedFor('asha', '198.51.100.4')).toBeGreaterThan(0);
    await signIn.succeeded('asha', '198.51.100.4');
    expect(await signIn.blockedFor('asha', '198.51.100.4')).toBe(0);

    await signIn.failed('omar', '198.51.100.4');
    expect(await signIn.blockedFor('asha', '198.51.100.4')).toBeGreaterThan(0);
  });

  it('when as many checks compute as allowed, then a further one is refused at once; once one ends, the next runs', async () => {
    const signIn = limiter({ maxHashing: 2 });
    const ends: (() => void)[] = [];
    const check = () => new Promise<string>((resolve) => ends.push(() => resolve('checked')));
    const first = signIn.withHashingSlot(check);
    const second = signIn.withHashingSlot(check);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    let started = false;
    const refused = signIn.withHashingSlot(() => {
      started = true;
      return Promise.resolve('too many');
    });
    expect(refused).toBeUndefined();
    expect(started).toBe(false);

    ends[0]!();
    expect(await first).toBe('checked');
    const third = signIn.withHashingSlot(() => Promise.resolve('third'));
    expect(await third).toBe('third');
    ends[1]!();
    expect(await second).toBe('checked');
  });

  it('when a check fails, then its slot is given back', async () => {
    const signIn = limiter({ maxHashing: 1 });
    await expect(signIn.withHashingSlot(() => Promise.reject(new Error('scrypt failed')))).rejects.toThrow();
    expect(await signIn.withHashingSlot(() => Promise.resolve('next'))).toBe('next');
  });
});
