import { describe, expect, it } from 'vitest';
import { hashToken } from './credentials.js';
import {
  claimsPersonalCredential,
  credentialExpiry,
  isPersonalCredential,
  MAX_SIGN_IN_TTL_MS,
  newPersonalCredential,
  personalCredentialPrefix,
} from './personal-credentials.js';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-11-27T10:00:00Z');

describe('personal credentials', () => {
  it('when issued, then each kind has its own prefix, and only the digest of the token is to be stored', () => {
    const key = newPersonalCredential('API_KEY');
    const signIn = newPersonalCredential('SIGN_IN');
    expect(key.token).toMatch(/^pgk_[A-Za-z0-9_-]{43}$/);
    expect(signIn.token).toMatch(/^pgs_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(personalCredentialPrefix(key.token));
    expect(key.prefix).toHaveLength(12);
    expect(key.digest).toBe(hashToken(key.token));
    expect(key.digest).not.toContain(key.token.slice(4));
    expect(newPersonalCredential('API_KEY').token).not.toBe(key.token);
  });

  it('when a string is checked for the shape, then merchant tokens and near misses are not personal credentials', () => {
    expect(isPersonalCredential(newPersonalCredential('API_KEY').token)).toBe(true);
    expect(isPersonalCredential(`pgt_${'a'.repeat(43)}`)).toBe(false);
    expect(isPersonalCredential(`pgk_${'a'.repeat(42)}`)).toBe(false);
    expect(isPersonalCredential(`pgk_${'a'.repeat(42)}=`)).toBe(false);
    expect(claimsPersonalCredential('pgk_short')).toBe(true);
    expect(claimsPersonalCredential('pgs_')).toBe(true);
    expect(claimsPersonalCredential(`pgt_${'a'.repeat(43)}`)).toBe(false);
  });

  it('when an API key expiry is asked, then 30 days by default and 1 to 90 days only', () => {
    expect(credentialExpiry('API_KEY', undefined, now)).toEqual({ expiresAt: new Date(now.getTime() + 30 * DAY) });
    expect(credentialExpiry('API_KEY', DAY, now)).toEqual({ expiresAt: new Date(now.getTime() + DAY) });
    expect(credentialExpiry('API_KEY', 90 * DAY, now)).toEqual({ expiresAt: new Date(now.getTime() + 90 * DAY) });
    for (const bad of [DAY - 1, 90 * DAY + 1, 0, -DAY, 1.5, Number.NaN]) {
      expect(credentialExpiry('API_KEY', bad, now)).toHaveProperty('refused');
    }
  });

  it('when a sign-in expiry is asked, then 8 hours by default and never more than a day', () => {
    expect(credentialExpiry('SIGN_IN', undefined, now)).toEqual({ expiresAt: new Date(now.getTime() + 8 * 3600_000) });
    expect(credentialExpiry('SIGN_IN', MAX_SIGN_IN_TTL_MS, now)).toHaveProperty('expiresAt');
    expect(credentialExpiry('SIGN_IN', MAX_SIGN_IN_TTL_MS + 1, now)).toHaveProperty('refused');
    expect(credentialExpiry('SIGN_IN', 0, now)).toHaveProperty('refused');
  });
});
