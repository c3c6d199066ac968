import { describe, expect, it } from 'vitest';
import { enrollmentDigest, enrollmentFingerprint, newEnrollmentSecret, readFingerprint } from './enrollment.js';
import {
  newRecoveryCodes,
  newTotpSeed,
  openSeed,
  recoveryCodeDigest,
  sealedUnderOldKey,
  sealSeed,
  totpCode,
  totpStepAt,
  totpStepProved,
} from './second-factor.js';

const key = (byte: string) => Buffer.from(byte.repeat(32), 'hex');

describe('TOTP codes', () => {
  it('when a code of the current step, or one either side, is typed, then it proves that step once; older, later or used steps prove nothing', () => {
    const seed = newTotpSeed();
    const at = new Date('2026-12-06T10:00:15Z');
    const step = totpStepAt(at);
    expect(totpStepProved(seed, totpCode(seed, at), at, null)).toBe(step);
    expect(totpStepProved(seed, totpCode(seed, new Date(at.getTime() - 30_000)), at, null)).toBe(step - 1);
    expect(totpStepProved(seed, totpCode(seed, new Date(at.getTime() + 30_000)), at, null)).toBe(step + 1);
    expect(totpStepProved(seed, totpCode(seed, new Date(at.getTime() - 90_000)), at, null)).toBeNull();
    // Used once: the same step (or an earlier one) is refused.
    expect(totpStepProved(seed, totpCode(seed, at), at, step)).toBeNull();
    expect(totpStepProved(seed, totpCode(seed, new Date(at.getTime() + 30_000)), at, step)).toBe(step + 1);
    expect(totpStepProved(seed, 'abcdef', at, null)).toBeNull();
    expect(totpStepProved(newTotpSeed(), totpCode(seed, at), at, null)).toBeNull();
  });

  it('when recovery codes are made, then they differ, and their digest ignores case and the dash', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    const code = codes[0]!;
    expect(recoveryCodeDigest(code.toLowerCase().replace('-', ''))).toBe(recoveryCodeDigest(code));
  });
});

describe('sealed seeds', () => {
  it('when a seed is sealed, then only a configured key opens it, a tampered seal opens nothing, and a rotated key still opens the old seal', () => {
    const seed = newTotpSeed();
    const old = { current: key('11'), previous: [] };
    const sealed = sealSeed(seed, old);
    expect(sealed).not.toContain(seed);
    expect(openSeed(sealed, old)).toBe(seed);
    expect(openSeed(sealed, { current: key('22'), previous: [] })).toBeNull();
    // Flip a bit of the sealed bytes themselves: a base64 character's low bits may be padding only.
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3]!, 'base64url');
    data[0] = data[0]! ^ 1;
    const tampered = [...parts.slice(0, 3), data.toString('base64url'), parts[4]].join('.');
    expect(openSeed(tampered, old)).toBeNull();

    const rotated = { current: key('22'), previous: [key('11')] };
    expect(openSeed(sealed, rotated)).toBe(seed);
    expect(sealedUnderOldKey(sealed, rotated)).toBe(true);
    expect(sealedUnderOldKey(sealSeed(seed, rotated), rotated)).toBe(false);
  });
});

describe('enrollment fingerprints', () => {
  it('when an enrollment is opened, then its fingerprint is eight characters read out as XXXX-XXXX, and typing it loosely reads the same', () => {
    const fingerprint = enrollmentFingerprint(enrollmentDigest(newEnrollmentSecret()));
    expect(fingerprint).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(readFingerprint(fingerprint.toLowerCase().replace('-', ' '))).toBe(fingerprint);
    expect(readFingerprint('not one')).toBeNull();
    expect(readFingerprint('ILOU-0000')).toBeNull();
  });
});
