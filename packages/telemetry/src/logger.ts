import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Paths pino blanks in every log line. Secrets never reach the logs: the Token header, any
 * authorization header, and webhook or admin secrets should a caller ever log a whole object.
 */
export const REDACTED_PATHS = [
  'req.headers.token',
  'req.headers.authorization',
  'req.headers["x-admin-token"]',
  'headers.token',
  'token',
  'secret',
  '*.token',
  '*.secret',
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
