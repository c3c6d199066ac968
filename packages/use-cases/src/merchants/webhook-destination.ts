import { lookup } from 'node:dns/promises';
import {
  isForbiddenWebhookAddress,
  parseIpAddress,
  webhookUrlProblem,
  type WebhookDestinationPolicy,
} from '@payout/domain';

/**
 * Why a URL may not receive webhooks (docs/webhooks.md, "Where a webhook may point"), or undefined: by its
 * form, then by every address its host resolves to now. A name that does not resolve yet is accepted — the
 * worker checks the address of every connection it makes, so a name pointed at a private address later
 * gets no further either.
 */
export async function webhookDestinationProblem(
  url: string,
  policy: WebhookDestinationPolicy,
): Promise<string | undefined> {
  const problem = webhookUrlProblem(url, policy);
  if (problem) return problem;
  if (policy.allowPrivateAddresses) return undefined;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  // An address was judged with the URL; a name is judged on every address it resolves to now, by the same rule.
  if (parseIpAddress(host)) return undefined;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return undefined;
  }
  const refused = addresses.find((a) => isForbiddenWebhookAddress(a.address));
  return refused
    ? `must not point to a loopback, private, link-local, metadata or other non-public address: ${host} resolves to ${refused.address}`
    : undefined;
}
