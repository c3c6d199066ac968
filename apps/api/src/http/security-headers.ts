import type { RequestHandler } from 'express';
import helmet from 'helmet';

type HeaderChange = { set: string; value: string | number | readonly string[] } | { remove: string };

/**
 * Helmet's default security headers, worked out once and then set on every response. Helmet decides them
 * from its options alone (no directive here depends on the request), so its middleware is run once against
 * a recording response at start, and each request gets the recorded header changes: the same headers,
 * without a pass through helmet's thirteen chained middlewares per request (docs/performance.md, "The
 * accept path").
 */
export function securityHeaders(): RequestHandler {
  const changes = recordedChanges();
  return (_req, res, next) => {
    for (const change of changes) {
      if ('set' in change) res.setHeader(change.set, change.value);
      else res.removeHeader(change.remove);
    }
    next();
  };
}

function recordedChanges(): readonly HeaderChange[] {
  const changes: HeaderChange[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      changes.push({ set: name, value });
      return recorder;
    },
    removeHeader(name: string) {
      changes.push({ remove: name });
    },
  };
  const finished = { sync: false };
  const middleware = helmet() as unknown as (req: object, res: typeof recorder, next: (error?: Error) => void) => void;
  middleware({}, recorder, (error?: Error) => {
    if (error) throw error;
    finished.sync = true;
  });
  // Helmet's defaults are synchronous; a version that answered later could not be recorded this way.
  if (!finished.sync) throw new Error('helmet did not finish synchronously: its headers cannot be recorded once');
  return changes;
}
