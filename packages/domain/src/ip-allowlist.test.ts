import { describe, expect, it } from 'vitest';
import { addressAllowed, readAllowlist, readCidr } from './ip-allowlist.js';

describe('IP allow-list', () => {
  it('when an address or CIDR is typed, then it is written back in one form', () => {
    expect(readCidr(' 203.0.113.7 ')).toEqual({ cidr: '203.0.113.7/32' });
    expect(readCidr('2001:DB8::/32')).toEqual({ cidr: '2001:db8::/32' });
    expect(readCidr('::ffff:10.1.2.3/104')).toEqual({
      problem: '"::ffff:10.1.2.3/104": write an IPv4 address as IPv4',
    });
    expect(readCidr('2001:0db8:0000::/48')).toEqual({ cidr: '2001:db8::/48' });
  });

  it('when an entry is not a CIDR, then the list is refused naming it', () => {
    expect(readCidr('fe80::1%eth0')).toEqual({ problem: '"fe80::1%eth0" is not an IPv4 or IPv6 CIDR' });
    expect(readCidr('10.1/8')).toEqual({ problem: '"10.1/8" is not an IPv4 or IPv6 CIDR' });
    expect(readAllowlist(['10.0.0.0/8', '10.0.0.0/33', 'example.com', '1.2.3.4/1/2'])).toEqual({
      kind: 'invalid',
      problems: [
        '"10.0.0.0/33": the prefix length must be 0 to 32',
        '"example.com" is not an IPv4 or IPv6 CIDR',
        '"1.2.3.4/1/2" is not an IPv4 or IPv6 CIDR',
      ],
    });
    expect(readAllowlist(['10.0.0.0/8', '10.0.0.0/8 ', '::1'])).toEqual({
      kind: 'ok',
      cidrs: ['10.0.0.0/8', '::1/128'],
    });
  });

  it('when a list is set, then only addresses inside it are allowed, of either family', () => {
    const list = ['203.0.113.0/24', '2001:db8::/32'];
    expect(addressAllowed(list, '203.0.113.200')).toBe(true);
    expect(addressAllowed(list, '::ffff:203.0.113.9')).toBe(true);
    expect(addressAllowed(list, '203.0.114.1')).toBe(false);
    expect(addressAllowed(list, '2001:db8:1::5')).toBe(true);
    expect(addressAllowed(list, '2001:db9::5')).toBe(false);
    expect(addressAllowed(list, undefined)).toBe(false);
    expect(addressAllowed(list, 'not an address')).toBe(false);
  });

  it('when a stored list was written in another spelling, then it matches the same addresses', () => {
    const list = ['2001:0DB8:0:0::/32', '198.51.100.7/32'];
    expect(addressAllowed(list, '2001:db8::5')).toBe(true);
    expect(addressAllowed(list, '::ffff:c633:6407')).toBe(true);
    expect(addressAllowed(list, '198.51.100.8')).toBe(false);
  });

  it('when the list is empty, then every address is allowed', () => {
    expect(addressAllowed([], '198.51.100.1')).toBe(true);
    expect(addressAllowed([], undefined)).toBe(true);
  });
});
