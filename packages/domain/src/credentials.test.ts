import { describe, expect, it } from 'vitest';
import { digestMatchesAny, hashToken, newApiToken, tokenDisplayPrefix, tokenMatchesAny } from './credentials.js';

describe('API tokens', () => {
  it('when issued, then tokens are long, random and prefixed', () => {
    const a = newApiToken();
    const b = newApiToken();
    expect(a).toMatch(/^pgt_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('when hashed, then the digest is hex SHA-256 and does not contain the token', () => {
    const token = newApiToken();
    const digest = hashToken(token);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain(token.slice(4));
  });

  it('when the token matches one of several digests, then it is accepted', () => {
    const old = newApiToken();
    const current = newApiToken();
    const stored = [hashToken(old), hashToken(current)];
    expect(tokenMatchesAny(old, stored)).toBe(true);
    expect(tokenMatchesAny(current, stored)).toBe(true);
  });

  it('when the token matches none, or there are none, then it is refused', () => {
    expect(tokenMatchesAny(newApiToken(), [hashToken(newApiToken())])).toBe(false);
    expect(tokenMatchesAny(newApiToken(), [])).toBe(false);
    expect(tokenMatchesAny('', [hashToken('x')])).toBe(false);
  });

  it('when a stored digest is malformed, then it never matches', () => {
    expect(tokenMatchesAny('x', ['zz', ''])).toBe(false);
    // A real digest with garbage after it is not a digest.
    expect(tokenMatchesAny('x', [`${hashToken('x')}zz`])).toBe(false);
    expect(tokenMatchesAny('x', [hashToken('x').toUpperCase()])).toBe(false);
  });

  it('when shown to operators, then only the first characters appear', () => {
    const token = newApiToken();
    expect(tokenDisplayPrefix(token)).toBe(token.slice(0, 10));
  });

  it('when a token is hashed once, then its digest matches where the token does and nowhere else', () => {
    const token = newApiToken();
    const other = hashToken(newApiToken());
    expect(digestMatchesAny(hashToken(token), [other, hashToken(token)])).toBe(true);
    expect(digestMatchesAny(hashToken(token), [other])).toBe(false);
    expect(digestMatchesAny(hashToken(token), [hashToken(token).toUpperCase()])).toBe(false);
  });
});
