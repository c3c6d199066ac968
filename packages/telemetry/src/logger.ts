import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Paths pino blanks in every log line. Secrets never reach the logs, should a caller ever log a whole
 * request, response or record: the Token header and any authorization header; the console's passwords and
 * session cookies and CSRF tokens (docs/operations.md, "Support console"); the signatures of pay-in callbacks and webhooks
 * (X-Payin-Signature, X-Webhook-Signature, as received or as sent); webhook signing secrets (current and
 * previous, docs/webhooks.md) and the admin token.
 */
export const REDACTED_PATHS = [
  'req.headers.token',
  'req.headers.authorization',
  'req.headers["x-admin-token"]',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'req.headers["x-payin-signature"]',
  'req.headers["x-webhook-signature"]',
  'res.headers["set-cookie"]',
  'headers.token',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'headers["x-payin-signature"]',
  'headers["X-Payin-Signature"]',
  'headers["x-webhook-signature"]',
  'headers["X-Webhook-Signature"]',
  'token',
  'secret',
  'password',
  'passwordHash',
  'signingSecret',
  'previousSecret',
  'adminToken',
  'sessionId',
  'csrfToken',
  '*.token',
  '*.secret',
  '*.password',
  '*.passwordHash',
  '*.signingSecret',
  '*.previousSecret',
  '*.adminToken',
  '*.sessionId',
  '*.csrfToken',
];

/**
 * The service's JSON logger: one line per event, secrets redacted, `app` on every line.
 *
 * It writes to stdout asynchronously (pino's SonicBoom destination with `sync: false`): a line is copied
 * into a buffer and the buffer is written when the previous write is done, so under load many lines go in
 * one write(2) instead of one blocking write each. That write per access line cost a third of the status
 * lookups on two cores (docs/performance.md, "What a log line costs"). Nothing is lost on a clean exit:
 * pino flushes the buffer synchronously on the process's `exit` (process.exit included), and a SIGKILL
 * loses at most the lines of the write in flight. `destination` replaces stdout (tests).
 */
export function createLogger(
  app: string,
  level: LoggerOptions['level'] = 'info',
  destination: DestinationStream = level === 'silent' ? pino.destination({ dest: 1, sync: true }) : stdoutAsync(),
): Logger {
  return pino(
    {
      level,
      base: { app },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

/**
 * Stdout through an asynchronous SonicBoom. No `minLength`: a buffer is written as soon as the write before
 * it ends, so a quiet process's lines appear at once, and a busy one's gather while the kernel takes the last.
 */
function stdoutAsync(): DestinationStream {
  return pino.destination({ dest: 1, sync: false });
}

/**
 * An account number or UPI address as it may appear in a log: enough for support to recognise it,
 * never enough to use it ("XXXXXXXX4321", "as***@okhdfc").
 */
export function maskAccount(account: string): string {
  const at = account.indexOf('@');
  if (at > 0) return `${account.slice(0, Math.min(2, at))}***${account.slice(at)}`;
  if (account.length <= 4) return '*'.repeat(account.length);
  return 'X'.repeat(account.length - 4) + account.slice(-4);
}
