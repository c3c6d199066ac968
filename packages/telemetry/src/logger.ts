import { pino, type Logger, type LoggerOptions } from 'pino';

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

/** The service's JSON logger: one line per event, secrets redacted, `app` on every line. */
export function createLogger(app: string, level: LoggerOptions['level'] = 'info'): Logger {
  return pino({
    level,
    base: { app },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
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
