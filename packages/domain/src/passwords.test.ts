import { describe, expect, it } from 'vitest';
import { hashPassword, newPassword, verifyPassword } from './passwords.js';

describe('console passwords', () => {
  it('when a password is hashed, then only that password verifies and the hash is salted', async () => {
    const password = newPassword();
    expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const stored = await hashPassword(password);
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]{43}$/);
    expect(stored).not.toContain(password);
    expect(await verifyPassword(password, stored)).toBe(true);
    expect(await verifyPassword(`${password}x`, stored)).toBe(false);
    expect(await hashPassword(password)).not.toBe(stored);
  });

  it('when the stored value is not a hash this module wrote, then nothing verifies', async () => {
    for (const stored of ['', 'plain', 'scrypt$1$2$3$abc', 'scrypt$x$8$1$c2FsdA$a2V5', 'bcrypt$1$2$3$4$5']) {
      expect(await verifyPassword('plain', stored)).toBe(false);
    }
  });
});
