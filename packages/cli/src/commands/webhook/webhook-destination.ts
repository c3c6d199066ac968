import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isForbiddenWebhookAddress, webhookUrlProblem, type WebhookDestinationPolicy } from '@payout/domain';
import { UsageError } from '../../usage-error.js';

/** The `--url` of `merchant webhook`: an absolute http(s) URL without credentials, at most 2048 characters. */
export function urlArgument(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url must be an absolute http:// or https:// URL: got "${text}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`--url must be an http:// or https:// URL: got "${text}"`);
  }
  // Credentials in a URL end up in logs and attempt records; the signature is how the merchant knows it is us.
  if (url.username || url.password) throw new UsageError('--url must not carry a user name or password');
  if (url.href.length > 2048) throw new UsageError('--url must be at most 2048 characters');
  return url.href;
}

/**
 * Refuses a URL a webhook may not be sent to (docs/webhooks.md): by its form, then by every address its
 * host resolves to now. A name that does not resolve yet is accepted — the worker checks the address of
 * every connection it makes, so a name pointed at a private address later gets no further either.
 */
export async function checkDestination(url: string, policy: WebhookDestinationPolicy): Promise<void> {
  const problem = webhookUrlProblem(url, policy);
  if (problem) throw new UsageError(`--url ${problem}: got "${url}"`);
  if (policy.allowPrivateAddresses) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return;
  }
  const refused = addresses.find((a) => isForbiddenWebhookAddress(a.address));
  if (refused) {
    throw new UsageError(
      `--url must not point to a loopback, private, link-local or metadata address: ${host} resolves to ${refused.address}`,
    );
  }
}
