import type { IncomingHttpHeaders } from 'node:http';

// What docs/api.md allows an answer to look like, written out here rather than imported
// from the application, so the sweep judges the API by the contract and not by its own constants.

/** The `status` texts the contract allows with each HTTP status. */
export const CONTRACT_STATUS_TEXT: Readonly<Record<number, readonly string[]>> = {
  // Found or fetched (wallet "Success", payout lookup "Pending"/"Success"/"Failed", pay-in lookup and
  // payout results upper case).
  200: ['Success', 'Pending', 'Failed', 'SUCCESS', 'PENDING', 'FAILED'],
  202: ['PENDING'],
  400: ['BAD REQUEST', 'FAILED'],
  401: ['UNAUTHORIZED'],
  404: ['NOT FOUND'],
  405: ['METHOD NOT ALLOWED'],
  409: ['CONFLICT'],
  413: ['PAYLOAD TOO LARGE'],
  415: ['UNSUPPORTED MEDIA TYPE'],
  422: ['VALIDATION ERROR'],
  429: ['TOO MANY REQUESTS'],
  500: ['INTERNAL SERVER ERROR'],
  503: ['SERVICE UNAVAILABLE'],
};

export interface Judged {
  /** The body parsed with JSON.parse, when it is a JSON object. */
  json: Record<string, unknown> | null;
  /** Every way the answer breaks the contract's rules for any response; empty when it keeps them. */
  problems: string[];
}

/**
 * Judges one answer against the rules every response must keep (docs/api.md, "Errors at large"): a JSON
 * object with `error` (boolean), `status_code` equal to the HTTP status and a `status` text from the
 * contract's list; an error carries a non-blank `message` (and a 422 its `errors`); never a 5xx for
 * what the client sent (the database and Redis are up during the sweep); security headers on all of them.
 */
export function judgeAnswer(
  status: number,
  headers: IncomingHttpHeaders,
  text: string,
  { headRequest = false } = {},
): Judged {
  const problems: string[] = [];
  if (status >= 500) problems.push(`server error ${status} for client input`);
  if (headers['x-content-type-options'] !== 'nosniff') problems.push('no X-Content-Type-Options: nosniff');
  if (headers['x-powered-by'] !== undefined) problems.push('X-Powered-By present');
  if (headRequest) return { json: null, problems };

  if (!/^application\/json\s*(;|$)/i.test(headers['content-type'] ?? '')) {
    problems.push(`Content-Type ${headers['content-type'] ?? 'missing'}`);
  }
  let json: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      json = parsed as Record<string, unknown>;
  } catch {
    // judged below
  }
  if (!json) {
    problems.push(`body is not a JSON object: ${JSON.stringify(text.slice(0, 80))}`);
    return { json, problems };
  }
  if (typeof json.error !== 'boolean') problems.push('`error` is not a boolean');
  if (json.status_code !== status) problems.push(`status_code ${String(json.status_code)} ≠ HTTP ${status}`);
  const allowed = CONTRACT_STATUS_TEXT[status];
  if (!allowed) problems.push(`HTTP ${status} is not a status the contract uses`);
  else if (typeof json.status !== 'string' || !allowed.includes(json.status)) {
    problems.push(`status text ${JSON.stringify(json.status)} not allowed with ${status}`);
  }
  if (json.error === true) {
    if (typeof json.message !== 'string' || !/\S/.test(json.message)) problems.push('error without a message');
    if (status < 400) problems.push(`error true with HTTP ${status}`);
  }
  if (json.error === false && status >= 400) problems.push(`error false with HTTP ${status}`);
  if (status === 422) {
    const errors = json.errors;
    const wellFormed =
      Array.isArray(errors) &&
      errors.length > 0 &&
      errors.every(
        (e: unknown) =>
          typeof (e as { field?: unknown }).field === 'string' &&
          typeof (e as { message?: unknown }).message === 'string',
      );
    if (!wellFormed) problems.push('422 without a well-formed `errors` list');
  }
  return { json, problems };
}
