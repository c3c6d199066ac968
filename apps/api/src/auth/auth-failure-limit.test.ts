import { describe, expect, it } from 'vitest';
import { AppError } from '@payout/domain';
import { AuthFailureLimit, clientKey } from './auth-failure-limit.js';

const from = (ip: string) => ({ ip });

describe('clientKey', () => {
  it('when the address is IPv4 or IPv4-mapped, then it is the address itself', () => {
    expect(clientKey(from('203.0.113.7'))).toBe('203.0.113.7');
    expect(clientKey(from('::ffff:203.0.113.7'))).toBe('203.0.113.7');
  });

  it('when the address is IPv6, then every address of one /64 counts as one client', () => {
    expect(clientKey(from('2001:db8:1:2::1'))).toBe('2001:db8:1:2::/64');
    expect(clientKey(from('2001:0db8:0001:0002:ffff:1:2:3'))).toBe('2001:db8:1:2::/64');
    expect(clientKey(from('2001:DB8:1:2:0:0:0:9'))).toBe('2001:db8:1:2::/64');
    expect(clientKey(from('2001:db8::1'))).toBe('2001:db8::/64');
    expect(clientKey(from('2001:db8:1:3::1'))).not.toBe(clientKey(from('2001:db8:1:2::1')));
  });

  it('when the address is IPv4-mapped in hex, then it is still the IPv4 address', () => {
    expect(clientKey(from('::ffff:cb00:7107'))).toBe('203.0.113.7');
  });

  it('when there is no address, then the client counts as unknown', () => {
    expect(clientKey({ ip: undefined })).toBe('unknown');
  });
});

describe('AuthFailureLimit', () => {
  it('when an address uses up its failures, then it is refused until its window ends; other addresses are not', () => {
    let now = 0;
    const limit = new AuthFailureLimit({ limit: 3, windowMs: 10_000, now: () => now });
    for (let i = 0; i < 3; i++) {
      limit.admit(from('198.51.100.1'));
      limit.recordFailure(from('198.51.100.1'));
    }
    let refusal: unknown;
    try {
      limit.admit(from('198.51.100.1'));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).httpStatus).toBe(429);
    expect((refusal as AppError).details.retryAfterSeconds).toBe(10);
    expect(() => limit.admit(from('198.51.100.2'))).not.toThrow();

    now = 10_000;
    expect(() => limit.admit(from('198.51.100.1'))).not.toThrow();
  });
});
