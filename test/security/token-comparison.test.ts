import crypto, { createHash, randomBytes } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import fc from 'fast-check';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashToken, newApiToken, tokenMatchesAny } from '@payout/domain';
import { call, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { issueToken, makeMerchant } from '../support/factories.js';
import { assertProperty } from '../properties/property-replay.js';

// Is the token check timing-safe? A statistical test (time many matching-prefix against non-matching
// guesses and compare the distributions) would be flaky on shared CI machines, whose load swamps
// nanosecond differences, and a pass would prove little. What makes the check safe is its structure,
// and that can be shown exactly:
//   1. the presented token is hashed first, so what is compared are SHA-256 digests: a guess that shares
//      a prefix with the token shares nothing predictable with its digest;
//   2. every stored digest is compared, whether or not an earlier one matched (no early exit reveals
//      which of a merchant's tokens matched, or whether any did before the last);
//   3. each comparison is crypto.timingSafeEqual on two buffers of the same length (32 bytes), whose
//      running time does not depend on the contents; a stored value that is not a 32-byte digest is
//      skipped rather than compared, so no length ever leaks and nothing throws.
// The tests watch crypto.timingSafeEqual itself: node:crypto's exports are patched and the ESM view
// re-synced, so the domain code and the running API call the watcher.

interface Comparison {
  a: Buffer;
  b: Buffer;
}
const comparisons: Comparison[] = [];
const original = crypto.timingSafeEqual;

beforeEach(() => {
  comparisons.length = 0;
  crypto.timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView): boolean => {
    comparisons.push({
      a: Buffer.from(a.buffer, a.byteOffset, a.byteLength),
      b: Buffer.from(b.buffer, b.byteOffset, b.byteLength),
    });
    return original(a, b);
  };
  syncBuiltinESMExports();
});
afterEach(() => {
  crypto.timingSafeEqual = original;
  syncBuiltinESMExports();
});

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

const prisma = testPrisma();
const api = useApi({ RATE_LIMIT_ENABLED: 'false' });
afterAll(() => prisma.$disconnect());

// Stored values that are not a well-formed digest: short, long, odd-length, not hex, empty.
const MALFORMED = [
  '',
  'ab',
  'abc',
  'zz'.repeat(32),
  'f'.repeat(63),
  'f'.repeat(66),
  'not-a-digest',
  '0x' + 'a'.repeat(64),
];

describe('timing-safe token comparison', () => {
  it('when the watcher is installed, then a direct call of crypto.timingSafeEqual is seen (the tests below can fail)', () => {
    expect(crypto.timingSafeEqual(Buffer.from('a'), Buffer.from('a'))).toBe(true);
    expect(comparisons).toHaveLength(1);
  });

  it('when a token is checked against several digests, then each 32-byte digest is compared in constant time, whether it matches first, last or not at all', () => {
    const token = newApiToken();
    const others = [newApiToken(), newApiToken(), newApiToken()].map(hashToken);
    const placements = {
      first: [hashToken(token), ...others],
      last: [...others, hashToken(token)],
      none: others,
    };
    for (const [where, stored] of Object.entries(placements)) {
      comparisons.length = 0;
      expect(tokenMatchesAny(token, stored), where).toBe(where !== 'none');
      expect(comparisons.length, `${where}: one comparison per stored digest`).toBe(stored.length);
      for (const { a, b } of comparisons) {
        expect([a.length, b.length]).toEqual([32, 32]);
        // The token itself never reaches the comparison: one side is always its digest.
        expect(a.equals(sha256(token)) || b.equals(sha256(token))).toBe(true);
      }
    }
  });

  it('when stored values are malformed (short, long, odd, not hex, empty), then they never match, nothing throws, and only well-formed digests are compared', () => {
    const token = newApiToken();
    comparisons.length = 0;
    expect(tokenMatchesAny(token, MALFORMED)).toBe(false);
    expect(comparisons).toEqual([]);
    comparisons.length = 0;
    expect(tokenMatchesAny(token, [...MALFORMED, hashToken(token)])).toBe(true);
    expect(comparisons.map((c) => [c.a.length, c.b.length])).toEqual([[32, 32]]);
  });

  it('when any token is checked against any list of stored values, then it matches exactly when its digest is among them, with only equal-length comparisons', () => {
    const storedValue = (token: string) =>
      fc.oneof(
        fc.constant(hashToken(token)),
        fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
        fc.constantFrom(...MALFORMED),
        fc.string({ maxLength: 80 }),
      );
    const case_ = fc
      .oneof(
        fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => `pgt_${Buffer.from(b).toString('base64url')}`),
        fc.string({ maxLength: 100 }),
        fc.string({ unit: 'binary', maxLength: 50 }),
      )
      .chain((token) => fc.tuple(fc.constant(token), fc.array(storedValue(token), { maxLength: 6 })));
    assertProperty(
      fc.property(case_, ([token, stored]) => {
        comparisons.length = 0;
        const digest = sha256(token).toString('hex');
        expect(tokenMatchesAny(token, stored)).toBe(stored.includes(digest));
        for (const { a, b } of comparisons) expect([a.length, b.length]).toEqual([32, 32]);
        expect(comparisons.length).toBe(stored.filter((s) => /^[0-9a-f]{64}$/i.test(s)).length);
      }),
      500,
      import.meta.url,
    );
  });

  it('when the running API authenticates a merchant with two tokens, then it compares digests with timingSafeEqual for each, for a right and for a wrong token alike', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10.00' });
    const second = await issueToken(prisma, merchant.merchant.id);
    const wallet = '/api/checkMainWallet?PayoutType=Main_Wallet_Balance';
    for (const [token, status] of [
      [second, 200],
      [`${second.slice(0, -1)}x`, 401],
      [randomBytes(8).toString('hex'), 401],
    ] as const) {
      comparisons.length = 0;
      const res = await call(api.current, wallet, { merchant: { mid: merchant.mid, token } });
      expect(res.status).toBe(status);
      expect(comparisons.length, 'both stored digests compared').toBeGreaterThanOrEqual(2);
      for (const { a, b } of comparisons) {
        expect([a.length, b.length]).toEqual([32, 32]);
        expect(a.includes(Buffer.from(token)) || b.includes(Buffer.from(token))).toBe(false);
      }
    }
  });
});
