import { formatNetwork, inNetwork, parseIpAddress, readCidrText, type IpNetwork } from './ip-address.js';

/**
 * A merchant's IP allow-list (docs/api.md, "IP allow-list"): CIDRs, IPv4 or IPv6, from which its tokens
 * work. An empty list restricts nothing. Addresses and networks are read and matched by ip-address.ts, as
 * every rule about addresses is; this module reads the operator's text and keeps one compiled list per
 * stored list.
 */

/** More entries than this is a list nobody reviews line by line; a network range says it better. */
export const MAX_ALLOWLIST_ENTRIES = 50;

export type AllowlistReading = { kind: 'ok'; cidrs: string[] } | { kind: 'invalid'; problems: string[] };

/**
 * One CIDR as typed (`203.0.113.0/24`, `2001:db8::/32`, or a bare address meaning just it), written back in
 * one form (`/32` or `/128` added, IPv6 as RFC 5952 writes it); or why it is not one. An IPv4-mapped IPv6
 * address (`::ffff:203.0.113.7`) is refused: requests from one are matched as IPv4.
 */
export function readCidr(text: string): { cidr: string } | { problem: string } {
  const trimmed = text.trim();
  const read = readCidrText(trimmed);
  switch (read.kind) {
    case 'network':
      return { cidr: formatNetwork(read.network) };
    case 'ipv4-mapped':
      // A request's mapped address is matched as the IPv4 address it carries, so the list says it that way.
      return { problem: `${JSON.stringify(trimmed)}: write an IPv4 address as IPv4` };
    case 'prefix-out-of-range':
      return { problem: `${JSON.stringify(trimmed)}: the prefix length must be 0 to ${read.maxPrefixLength}` };
    case 'not-a-cidr':
      return { problem: `${JSON.stringify(trimmed)} is not an IPv4 or IPv6 CIDR` };
  }
}

/** A whole list as an operator gave it: every entry read, duplicates dropped, order kept. */
export function readAllowlist(entries: readonly string[]): AllowlistReading {
  const problems: string[] = [];
  const cidrs: string[] = [];
  for (const entry of entries) {
    const read = readCidr(entry);
    if ('problem' in read) problems.push(read.problem);
    else if (!cidrs.includes(read.cidr)) cidrs.push(read.cidr);
  }
  if (cidrs.length > MAX_ALLOWLIST_ENTRIES) problems.push(`at most ${MAX_ALLOWLIST_ENTRIES} CIDRs`);
  return problems.length > 0 ? { kind: 'invalid', problems } : { kind: 'ok', cidrs };
}

// The credential cache keeps each merchant's list as one array until it is re-read, so compiling once per
// array keeps the hot path to one lookup.
const compiled = new WeakMap<readonly string[], IpNetwork[]>();

function compile(cidrs: readonly string[]): IpNetwork[] {
  let networks = compiled.get(cidrs);
  if (!networks) {
    networks = [];
    for (const cidr of cidrs) {
      const read = readCidrText(cidr.trim());
      // A stored entry was read before it was stored; one that is not (edited by hand) admits nobody.
      if (read.kind === 'network') networks.push(read.network);
    }
    compiled.set(cidrs, networks);
  }
  return networks;
}

/** Whether a request from `address` may use the merchant's tokens: always with an empty list. */
export function addressAllowed(cidrs: readonly string[], address: string | undefined): boolean {
  if (cidrs.length === 0) return true;
  const client = parseIpAddress(address ?? '');
  if (!client) return false;
  return compile(cidrs).some((network) => inNetwork(client, network));
}
