import type { RequestHandler } from 'express';
import type { ServiceMetrics } from '@payout/telemetry';

/**
 * Observes each request's latency under its route pattern (not the raw URL, whose query strings and
 * unknown paths would make the metric's labels unbounded).
 */
export function requestMetrics(metrics: ServiceMetrics): RequestHandler {
  return (req, res, next) => {
    const stop = metrics.httpRequestDuration.startTimer();
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      stop({ method: req.method, route, status_code: String(res.statusCode) });
    });
    next();
  };
}
