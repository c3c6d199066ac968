import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * Where a merchant's webhook may point. A webhook URL is chosen by the merchant but fetched from inside our
 * network, so without these rules it is a way to make the service call its own neighbours (server-side
 * request forgery): the cloud metadata service, an admin port on loopback, a database on a private address.
 * docs/webhooks.md lists the rules; the worker applies them again to the address it actually connects to.
 */
export interface WebhookDestinationPolicy {
  /** Production: the URL must be https (the payload is a payout's result, the signature is not secrecy). */
  requireHttps: boolean;
  /** Tests and development only: loopback and private addresses are allowed (the receivers run locally). */
  allowPrivateAddresses: boolean;
}

const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 reaches the local host
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (fd00:ec2::254 is a metadata service)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv6');
}

/**
 * Whether `address` (an IP address in text) is one a webhook must never reach: loopback, private, link-local
 * (so the metadata services), carrier-grade NAT, multicast, unspecified or reserved. An IPv6 address that
 * carries an IPv4 one (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d) is judged by the IPv4 address.
 * Anything that is not an IP address is refused too.
 */
export function isForbiddenWebhookAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (isIPv4(ip)) return forbidden.check(ip, 'ipv4');
  if (isIP(ip) !== 6) return true;
  const embedded = embeddedIPv4(ip);
  if (embedded) return forbidden.check(embedded, 'ipv4');
  return forbidden.check(ip, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) IPv6 address. */
function embeddedIPv4(ip: string): string | undefined {
  const groups = expandIPv6(ip);
  const mapped = groups.slice(0, 6).join(':') === '0:0:0:0:0:ffff';
  const nat64 = groups.slice(0, 6).join(':') === '64:ff9b:0:0:0:0';
  if (!mapped && !nat64) return undefined;
  const [high, low] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** The eight groups of an IPv6 address, in lower-case hex without leading zeros (a dotted tail converted). */
function expandIPv6(ip: string): string[] {
  let text = ip.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16).toString(16));
}

/**
 * What is wrong with `text` as a webhook URL under `policy`, or undefined if nothing is. Judges what can be
 * judged without DNS: an absolute http(s) URL, https where required, no credentials in it, and — when the
 * host is an IP address or "localhost" — not a forbidden address. A host name is checked on the addresses
 * it resolves to, at registration and again at every connection (so a name re-pointed later, DNS
 * rebinding, gets no further).
 */
export function webhookUrlProblem(text: string, policy: WebhookDestinationPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http:// or https:// URL';
  if (policy.requireHttps && url.protocol !== 'https:') return 'must be https:// in production';
  if (url.username || url.password) return 'must not carry credentials; the payload is signed instead';
  if (policy.allowPrivateAddresses) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point to this host (localhost)';
  if (isIP(host) && isForbiddenWebhookAddress(host)) {
    return 'must not point to a loopback, private, link-local or metadata address';
  }
  return undefined;
}
