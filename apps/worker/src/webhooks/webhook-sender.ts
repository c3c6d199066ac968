import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { Agent, fetch } from 'undici';
import type { WebhookAttemptOutcome } from '@payout/db';
import { isForbiddenWebhookAddress, webhookUrlProblem, type WebhookDestinationPolicy } from '@payout/domain';

/**
 * POSTs webhooks and reports what came back: the status code, or what went wrong. Never throws. The
 * deadline covers everything (connecting, sending, the answer's headers); redirects are not followed,
 * because the signature is for the registered URL and a redirect could point anywhere.
 *
 * Where it may connect follows the merchant-webhook rules (docs/webhooks.md): the URL is judged first, and
 * then the address each connection is actually made to, as DNS answers at that moment. Registration checks
 * a name's addresses too, but a name can be re-pointed at any time (DNS rebinding); only the address being
 * connected to counts.
 */
export class WebhookSender {
  private readonly agent: Agent;
  private closing: Promise<void> | undefined;

  /** `resolveHost` is DNS; a test gives its own to play a name that changes its answer. */
  constructor(
    private readonly policy: WebhookDestinationPolicy,
    resolveHost: ResolveHost = (hostname) => dnsLookup(hostname, { all: true }),
  ) {
    this.agent = new Agent({
      connect: policy.allowPrivateAddresses ? {} : { lookup: publicAddressesOnly(resolveHost) },
    });
  }

  async post(
    url: string,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<WebhookAttemptOutcome> {
    const problem = webhookUrlProblem(url, this.policy);
    if (problem) return { durationMs: 0, statusCode: null, error: `refused: the webhook URL ${problem}` };
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        dispatcher: this.agent,
      });
      // The answer's body means nothing to us; not reading it frees the connection at once.
      await response.body?.cancel().catch(() => undefined);
      return { durationMs: elapsed(), statusCode: response.status, error: null };
    } catch (error) {
      return { durationMs: elapsed(), statusCode: null, error: describe(error, timeoutMs) };
    }
  }

  /** Closes the connections; safe to call again (a worker may be closed twice). */
  close(): Promise<void> {
    this.closing ??= this.agent.close();
    return this.closing;
  }
}

/** Every address a host name resolves to now. */
type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The connection's DNS lookup, refusing a name any of whose addresses a webhook may not reach. Node's
 * connection code asks for one address or for all (Happy Eyeballs); both are answered from one lookup.
 */
function publicAddressesOnly(resolveHost: ResolveHost) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolveHost(hostname).then(
      (addresses) => {
        const refused = addresses.find((a) => isForbiddenWebhookAddress(a.address));
        if (refused || addresses.length === 0) {
          const denied: NodeJS.ErrnoException = new Error(
            `refused: ${hostname} resolves to ${refused?.address ?? 'nothing'}, a loopback, private, link-local, metadata or other non-public address`,
          );
          denied.code = 'EWEBHOOKADDRESS';
          callback(denied, []);
        } else if (options.all) {
          callback(null, addresses);
        } else {
          callback(null, addresses[0]!.address, addresses[0]!.family);
        }
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, []),
    );
  };
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  // fetch reports network trouble as "fetch failed" with the socket's error as its cause.
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
