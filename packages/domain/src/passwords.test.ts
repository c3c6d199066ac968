import { scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chosenPasswordProblem, hashPassword, needsRehash, newPassword, verifyPassword } from './passwords.js';

describe('console passwords', () => {
  it('when a password is hashed, then only that password verifies, at OWASP’s scrypt cost, salted', async () => {
    const password = newPassword();
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const stored = await hashPassword(password);
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toContain(password);
    expect(await verifyPassword(password, stored)).toBe(true);
    expect(await verifyPassword(`${password}x`, stored)).toBe(false);
    expect(await hashPassword(password)).not.toBe(stored);
    expect(needsRehash(stored)).toBe(false);
  });

  it('when a hash was stored at the older cost, then it still verifies and asks to be stored again', async () => {
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync('an older password', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 2 ** 26 });
    const old = ['scrypt', 2 ** 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    expect(await verifyPassword('an older password', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
  });

  it('when the stored value is not a hash this module wrote, then nothing verifies', async () => {
    for (const stored of ['', 'plain', 'scrypt$1$2$3$abc', 'scrypt$x$8$1$c2FsdA$a2V5', 'bcrypt$1$2$3$4$5']) {
      expect(await verifyPassword('plain', stored)).toBe(false);
    }
  });

  it('when a person chooses a password, then it is long enough and typed the same twice', () => {
    expect(chosenPasswordProblem('short', 'short')).toMatch(/at least 12/);
    expect(chosenPasswordProblem('long enough password', 'long enough passw0rd')).toMatch(/differ/);
    expect(chosenPasswordProblem('x'.repeat(201), 'x'.repeat(201))).toMatch(/at most 200/);
    expect(chosenPasswordProblem('long enough password', 'long enough password')).toBeUndefined();
  });
});
