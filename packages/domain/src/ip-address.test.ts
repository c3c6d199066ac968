import { describe, expect, it } from 'vitest';
import {
  clientAllowanceKey,
  formatNetwork,
  inNetwork,
  isPubliclyRoutable,
  parseIpAddress,
  readCidrText,
  type IpNetwork,
} from './ip-address.js';

const network = (text: string): IpNetwork => {
  const read = readCidrText(text);
  if (read.kind !== 'network') throw new Error(`${text} is not a network`);
  return read.network;
};

describe('IP addresses', () => {
  it('when an address is IPv4 or IPv6, then it is read in either family', () => {
    expect(parseIpAddress('203.0.113.7')?.toString()).toBe('203.0.113.7');
    expect(parseIpAddress('2001:0DB8:0:0::1')?.toString()).toBe('2001:db8::1');
    expect(parseIpAddress('2001:db8::1')?.kind()).toBe('ipv6');
  });

  it('when an IPv6 address carries an IPv4 one (IPv4-mapped), then it is that IPv4 address', () => {
    expect(parseIpAddress('::ffff:203.0.113.7')?.toString()).toBe('203.0.113.7');
    expect(parseIpAddress('::ffff:cb00:7107')?.toString()).toBe('203.0.113.7');
    expect(parseIpAddress('::ffff:203.0.113.7')?.kind()).toBe('ipv4');
  });

  it.each([
    'fe80::1%eth0', // a zone id names one host's interface
    '2001:db8::1%1',
    '2130706433', // IPv4 spelled as one number
    '0x7f.0.0.1',
    '010.0.0.1', // octal to inet_aton, decimal to a person
    '127.1',
    '256.0.0.1',
    '1::2::3',
    '[::1]',
    ' 203.0.113.7',
    'example.com',
    '',
  ])('when the text is %j, then it is no address', (text) => {
    expect(parseIpAddress(text)).toBeUndefined();
  });
});

describe('IP networks', () => {
  it('when a CIDR or a bare address is read, then it is one network written one way', () => {
    expect(formatNetwork(network('203.0.113.0/24'))).toBe('203.0.113.0/24');
    expect(formatNetwork(network('2001:0DB8::/32'))).toBe('2001:db8::/32');
    expect(formatNetwork(network('203.0.113.7'))).toBe('203.0.113.7/32');
    expect(formatNetwork(network('::1'))).toBe('::1/128');
  });

  it('when a CIDR is not one, then the reading says why', () => {
    expect(readCidrText('10.0.0.0/33')).toEqual({ kind: 'prefix-out-of-range', maxPrefixLength: 32 });
    expect(readCidrText('2001:db8::/129')).toEqual({ kind: 'prefix-out-of-range', maxPrefixLength: 128 });
    expect(readCidrText('10.0.0.0/x')).toEqual({ kind: 'prefix-out-of-range', maxPrefixLength: 32 });
    expect(readCidrText('::ffff:10.0.0.0/104')).toEqual({ kind: 'ipv4-mapped' });
    expect(readCidrText('1.2.3.4/1/2')).toEqual({ kind: 'not-a-cidr' });
    expect(readCidrText('fe80::%eth0/64')).toEqual({ kind: 'not-a-cidr' });
  });

  it('when an address is tested against a network, then only its own family and prefix match', () => {
    const v4 = network('203.0.113.0/24');
    const v6 = network('2001:db8::/32');
    expect(inNetwork(parseIpAddress('203.0.113.200')!, v4)).toBe(true);
    expect(inNetwork(parseIpAddress('203.0.114.1')!, v4)).toBe(false);
    expect(inNetwork(parseIpAddress('2001:db8:ffff::1')!, v6)).toBe(true);
    expect(inNetwork(parseIpAddress('2001:db9::1')!, v6)).toBe(false);
    expect(inNetwork(parseIpAddress('203.0.113.1')!, v6)).toBe(false);
    expect(inNetwork(parseIpAddress('::ffff:203.0.113.1')!, v4)).toBe(true);
    expect(inNetwork(parseIpAddress('8.8.8.8')!, network('0.0.0.0/0'))).toBe(true);
  });
});

describe('the key a client is counted under', () => {
  it('when the client is IPv4, then the key is its address; when IPv6, its /64', () => {
    expect(clientAllowanceKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientAllowanceKey('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientAllowanceKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientAllowanceKey('2001:db8:1:2::ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAllowanceKey('2001:db8::1')).toBe('2001:db8::/64');
  });

  it('when there is no address to read, then the text (or "unknown") is the key', () => {
    expect(clientAllowanceKey(undefined)).toBe('unknown');
    expect(clientAllowanceKey('fe80::1%eth0')).toBe('fe80::1%eth0');
  });
});

describe('publicly routable addresses', () => {
  // IANA's IPv4 and IPv6 Special-Purpose Address Registries, multicast, and IPv6 outside Global Unicast.
  it.each([
    ['0.0.0.0/8, this network', '0.1.2.3'],
    ['10.0.0.0/8, private', '10.0.0.1'],
    ['100.64.0.0/10, shared address space', '100.64.0.1'],
    ['100.64.0.0/10, its last address', '100.127.255.254'],
    ['127.0.0.0/8, loopback', '127.0.0.1'],
    ['169.254.0.0/16, link-local', '169.254.169.254'],
    ['172.16.0.0/12, private', '172.31.0.1'],
    ['192.0.0.0/24, protocol assignments', '192.0.0.9'],
    ['192.0.2.0/24, documentation', '192.0.2.1'],
    ['192.88.99.0/24, 6to4 relay anycast', '192.88.99.1'],
    ['192.168.0.0/16, private', '192.168.1.1'],
    ['198.18.0.0/15, benchmarking', '198.19.255.1'],
    ['198.51.100.0/24, documentation', '198.51.100.1'],
    ['203.0.113.0/24, documentation', '203.0.113.1'],
    ['224.0.0.0/4, multicast', '239.255.255.250'],
    ['240.0.0.0/4, reserved', '240.0.0.1'],
    ['255.255.255.255, limited broadcast', '255.255.255.255'],
    [':: unspecified', '::'],
    ['::1 loopback', '::1'],
    ['::ffff:127.0.0.1, IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['::ffff:10.0.0.1, IPv4-mapped private', '::ffff:10.0.0.1'],
    ['::ffff:a9fe:a9fe, IPv4-mapped metadata in hex', '::ffff:a9fe:a9fe'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-compatible, in hex', '::7f00:1'],
    ['64:ff9b::/96, NAT64 of a private address', '64:ff9b::10.0.0.1'],
    ['64:ff9b::/96, NAT64 of the metadata service', '64:ff9b::a9fe:a9fe'],
    ['64:ff9b::/96, NAT64 even of a public address', '64:ff9b::8.8.8.8'],
    ['64:ff9b:1::/48, local-use NAT64', '64:ff9b:1::a00:1'],
    ['100::/64, discard-only', '100::1'],
    ['100:0:0:1::/64, dummy prefix', '100:0:0:1::1'],
    ['2001::/23, protocol assignments', '2001:1::1'],
    ['2001::/32, Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['2001:2::/48, benchmarking', '2001:2::1'],
    ['2001:db8::/32, documentation', '2001:db8::1'],
    ['2002::/16, 6to4 of loopback', '2002:7f00:1::'],
    ['2002::/16, 6to4 even of a public address', '2002:808:808::1'],
    ['2620:4f:8000::/48, AS112', '2620:4f:8000::1'],
    ['3fff::/20, documentation', '3fff::1'],
    ['5f00::/16, segment routing', '5f00::1'],
    ['fc00::/7, unique local', 'fd00:ec2::254'],
    ['fe80::/10, link-local', 'fe80::1'],
    ['fec0::/10, site-local', 'fec0::1'],
    ['ff00::/8, multicast', 'ff02::1'],
  ])('when the address is in %s (%s), then it is not publicly routable', (_range, text) => {
    const address = parseIpAddress(text);
    expect(address).toBeDefined();
    expect(isPubliclyRoutable(address!)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '::ffff:8.8.8.8',
    '2606:4700::1111',
    '2a00:1450::1',
  ])('when the address is %s, then it is publicly routable', (text) => {
    expect(isPubliclyRoutable(parseIpAddress(text)!)).toBe(true);
  });
});
