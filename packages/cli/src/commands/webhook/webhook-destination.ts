import type { WebhookDestinationPolicy } from '@payout/domain';
import { webhookDestinationProblem } from '@payout/use-cases';
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

/** Refuses a URL a webhook may not be sent to (docs/webhooks.md), as the admin listener will. */
export async function checkDestination(url: string, policy: WebhookDestinationPolicy): Promise<void> {
  const problem = await webhookDestinationProblem(url, policy);
  if (problem) throw new UsageError(`--url ${problem}: got "${url}"`);
}
