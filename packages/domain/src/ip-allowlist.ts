import { BlockList, isIP } from 'node:net';

/**
 * A merchant's IP allow-list (docs/api.md, "IP allow-list"): CIDRs, IPv4 or IPv6, from which its tokens
 * work. An empty list restricts nothing. Matching is Node's own `net.BlockList`, which knows both families
 * and their prefixes; this module only reads the operator's text and keeps one compiled list per stored list.
 */

/** More entries than this is a list nobody reviews line by line; a network range says it better. */
export const MAX_ALLOWLIST_ENTRIES = 50;

export type AllowlistReading = { kind: 'ok'; cidrs: string[] } | { kind: 'invalid'; problems: string[] };

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** An IPv4 client seen on a dual-stack socket (`::ffff:203.0.113.7`) is the IPv4 address it carries. */
function plainAddress(address: string): string {
  return IPV4_MAPPED.exec(address)?.[1] ?? address;
}

/**
 * One CIDR as typed (`203.0.113.0/24`, `2001:db8::/32`, or a bare address meaning just it), written back in
 * one form (`/32` or `/128` added, IPv6 lower case); or why it is not one. An IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.7`) is refused: requests from one are matched as IPv4.
 */
export function readCidr(text: string): { cidr: string } | { problem: string } {
  const trimmed = text.trim();
  const [address = '', prefixText, ...rest] = trimmed.split('/');
  // A request's mapped address is matched as the IPv4 address it carries, so the list says it that way.
  if (IPV4_MAPPED.test(address)) return { problem: `${JSON.stringify(trimmed)}: write an IPv4 address as IPv4` };
  const family = address.includes('%') ? 0 : isIP(address);
  if (rest.length > 0 || family === 0) return { problem: `${JSON.stringify(trimmed)} is not an IPv4 or IPv6 CIDR` };
  const bits = family === 4 ? 32 : 128;
  if (prefixText === undefined) return { cidr: `${address.toLowerCase()}/${bits}` };
  const prefix = /^[0-9]{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= bits)) {
    return { problem: `${JSON.stringify(trimmed)}: the prefix length must be 0 to ${bits}` };
  }
  return { cidr: `${address.toLowerCase()}/${prefix}` };
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
const compiled = new WeakMap<readonly string[], BlockList>();

function compile(cidrs: readonly string[]): BlockList {
  let list = compiled.get(cidrs);
  if (!list) {
    list = new BlockList();
    for (const cidr of cidrs) {
      const read = readCidr(cidr);
      // A stored entry was read before it was stored; one that is not (edited by hand) admits nobody.
      if ('problem' in read) continue;
      const [network = '', prefix = ''] = read.cidr.split('/');
      list.addSubnet(network, Number(prefix), isIP(network) === 4 ? 'ipv4' : 'ipv6');
    }
    compiled.set(cidrs, list);
  }
  return list;
}

/** Whether a request from `address` may use the merchant's tokens: always with an empty list. */
export function addressAllowed(cidrs: readonly string[], address: string | undefined): boolean {
  if (cidrs.length === 0) return true;
  const plain = plainAddress(address ?? '');
  const family = isIP(plain);
  if (family === 0) return false;
  return compile(cidrs).check(plain, family === 4 ? 'ipv4' : 'ipv6');
}
