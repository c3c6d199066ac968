import { isPubliclyRoutable, parseIpAddress } from './ip-address.js';

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

/**
 * Whether `address` (an IP address in text, as DNS answers it) is one a webhook must never reach: anything
 * but an ordinary public address — loopback, private, link-local (so the metadata services), shared,
 * multicast, unspecified, reserved, documentation, or a tunnelling or translation prefix (6to4, Teredo,
 * NAT64) — by {@link isPubliclyRoutable}, which cites IANA's special-purpose registries. An IPv4-mapped
 * address is judged by the IPv4 address it carries. Anything that is not an IP address is refused too.
 */
export function isForbiddenWebhookAddress(address: string): boolean {
  const ip = parseIpAddress(address);
  return !ip || !isPubliclyRoutable(ip);
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
  const ip = parseIpAddress(host);
  if (ip && !isPubliclyRoutable(ip)) {
    return 'must not point to a loopback, private, link-local, metadata or other non-public address';
  }
  return undefined;
}
