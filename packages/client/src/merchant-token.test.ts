import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newMerchantToken, tokenDigest } from './merchant-token.js';

describe('newMerchantToken', () => {
  it('when a token is made, then it has the gateway’s format, its first 10 characters as prefix and its SHA-256 as digest', async () => {
    const made = await newMerchantToken();

    expect(made.token).toMatch(/^pgt_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(made.token.slice(0, 10));
    expect(made.sha256).toBe(createHash('sha256').update(made.token, 'utf8').digest('hex'));
    expect(await tokenDigest(made.token)).toBe(made.sha256);
  });

  it('when many are made, then no two are alike and every base64url character turns up', async () => {
    const made = await Promise.all(Array.from({ length: 200 }, () => newMerchantToken()));

    expect(new Set(made.map((m) => m.token)).size).toBe(200);
    const alphabet = new Set(made.flatMap((m) => m.token.slice(4).split('')));
    expect(alphabet.has('-') && alphabet.has('_')).toBe(true);
    expect(alphabet.size).toBe(64);
  });
});
