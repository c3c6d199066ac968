import ipaddr from 'ipaddr.js';

/**
 * IP addresses and networks, read one way for every rule that looks at one: a merchant's IP allow-list
 * (ip-allowlist.ts), the per-client allowances in front of authentication and console sign-in
 * (docs/operations.md, "Floods before authentication" and "Support console") and where a webhook may point
 * (webhook-destination.ts). Reading the text and knowing the special-purpose ranges is ipaddr.js's work;
 * this module only says which spellings are accepted and what each rule asks of an address.
 */

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** A network: every address sharing the first `prefixLength` bits of `address`. */
export interface IpNetwork {
  readonly address: IpAddress;
  readonly prefixLength: number;
}

/**
 * `text` as an IP address, or undefined when it is none. IPv4 is accepted only as four decimal numbers
 * (`0x7f.1`, `2130706433` or `010.0.0.1` are other spellings a person does not mean); IPv6 in any of its
 * forms, but without a zone id (`fe80::1%eth0` names an interface of one host, which no rule here can
 * judge). An IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, how a dual-stack socket shows an IPv4 client)
 * is the IPv4 address it carries.
 */
export function parseIpAddress(text: string): IpAddress | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!ipaddr.IPv6.isValid(text)) return undefined;
  const address = ipaddr.IPv6.parse(text);
  if (address.zoneId !== undefined) return undefined;
  return address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** What a CIDR as typed turned out to be. */
export type CidrReading =
  | { kind: 'network'; network: IpNetwork }
  | { kind: 'not-a-cidr' }
  /** An IPv4 network written as IPv4-mapped IPv6 (`::ffff:10.0.0.0/104`): addresses are judged as IPv4. */
  | { kind: 'ipv4-mapped' }
  | { kind: 'prefix-out-of-range'; maxPrefixLength: 32 | 128 };

/**
 * `text` as a network: `address/prefix`, or a bare address meaning just it (a /32 or /128). The address is
 * read as {@link parseIpAddress} reads one, except that an IPv4-mapped one is reported rather than turned
 * into IPv4 (its prefix counts IPv6 bits).
 */
export function readCidrText(text: string): CidrReading {
  const [addressText = '', prefixText, ...rest] = text.split('/');
  if (rest.length > 0) return { kind: 'not-a-cidr' };
  if (ipaddr.IPv6.isValid(addressText) && ipaddr.IPv6.parse(addressText).isIPv4MappedAddress()) {
    return { kind: 'ipv4-mapped' };
  }
  const address = parseIpAddress(addressText);
  if (!address) return { kind: 'not-a-cidr' };
  const maxPrefixLength = address.kind() === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { kind: 'network', network: { address, prefixLength: maxPrefixLength } };
  const prefixLength = /^[0-9]{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefixLength >= 0 && prefixLength <= maxPrefixLength)) return { kind: 'prefix-out-of-range', maxPrefixLength };
  return { kind: 'network', network: { address, prefixLength } };
}

/** A network in one spelling: `203.0.113.0/24`, `2001:db8::/32` (RFC 5952: lower case, zeros compressed). */
export function formatNetwork(network: IpNetwork): string {
  return `${network.address.toString()}/${network.prefixLength}`;
}

/** Whether `address` is inside `network`; an address of the other family never is. */
export function inNetwork(address: IpAddress, network: IpNetwork): boolean {
  return address.kind() === network.address.kind() && address.match(network.address, network.prefixLength);
}

/**
 * The key a client's per-address allowances count under: an IPv4 address as it is, an IPv6 address its
 * /64 (`2001:db8:1:2::/64`) — one host is usually given a whole /64, so counting single IPv6 addresses
 * would let it rotate through billions of them. Text that is no address (none is known) counts as itself.
 */
export function clientAllowanceKey(text: string | undefined): string {
  const address = text === undefined ? undefined : parseIpAddress(text);
  if (!address) return text ?? 'unknown';
  if (!(address instanceof ipaddr.IPv6)) return address.toString();
  const network = new ipaddr.IPv6([...address.parts.slice(0, 4), 0, 0, 0, 0]);
  return formatNetwork({ address: network, prefixLength: 64 });
}

// IANA's IPv6 Address Space registry allocates only 2000::/3 as Global Unicast; everything outside it is
// reserved or special (::/8 holds the IPv4-compatible addresses, 64:ff9b::/96 and the 100:0:0:1::/64 dummy
// prefix among others).
const GLOBAL_UNICAST_IPV6: IpNetwork = { address: ipaddr.IPv6.parse('2000::'), prefixLength: 3 };

/**
 * Whether `address` is an ordinary address of the public internet, which a request from us may be sent
 * to. The special-purpose ranges are those of IANA's IPv4 and IPv6 Special-Purpose Address Registries
 * (RFC 6890) — loopback, private, shared (100.64.0.0/10), link-local, "this network", benchmarking,
 * documentation, protocol assignments (192.0.0.0/24, 2001::/23), reserved (240.0.0.0/4), limited
 * broadcast, unique-local (fc00::/7), discard-only, and the translation and tunnelling prefixes
 * (6to4 2002::/16, Teredo 2001::/32, NAT64 64:ff9b::/96 and 64:ff9b:1::/48) — plus multicast and
 * site-local; ipaddr.js's `range()` names them, and anything it does not call 'unicast' is not public.
 * An IPv6 address must also be inside the Global Unicast space.
 *
 * An IPv6 address carrying an IPv4 one is judged by the IPv4 address where ipaddr.js exposes it: an
 * IPv4-mapped one (and `::a.b.c.d`, which it reads as mapped) has already become IPv4 in
 * {@link parseIpAddress}. 6to4, Teredo and NAT64 addresses are refused whole, whatever IPv4 address
 * they embed: each reaches its IPv4 address through a relay or translator we cannot vouch for.
 */
export function isPubliclyRoutable(address: IpAddress): boolean {
  if (address.range() !== 'unicast') return false;
  return address.kind() === 'ipv4' || inNetwork(address, GLOBAL_UNICAST_IPV6);
}
