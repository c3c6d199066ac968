import type { WebhookAttemptOutcome } from '@payout/db';

/**
 * POSTs one webhook and reports what came back: the status code, or what went wrong. Never throws. The
 * deadline covers everything (connecting, sending, the answer's headers); redirects are not followed,
 * because the signature is for the registered URL and a redirect could point anywhere.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<WebhookAttemptOutcome> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The answer's body means nothing to us; not reading it frees the connection at once.
    await response.body?.cancel().catch(() => undefined);
    return { durationMs: elapsed(), statusCode: response.status, error: null };
  } catch (error) {
    return { durationMs: elapsed(), statusCode: null, error: describe(error, timeoutMs) };
  }
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
