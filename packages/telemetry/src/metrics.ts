import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics, defined once so the API and the worker publish the same names.
 * Each process has its own registry (served at its own /metrics).
 */
export interface ServiceMetrics {
  registry: Registry;
  httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  payoutsAccepted: Counter<'mode' | 'outcome'>;
  payoutsSettled: Counter<'mode' | 'outcome'>;
  acceptToSettle: Histogram<'mode' | 'outcome'>;
  railRequestDuration: Histogram<'operation' | 'outcome'>;
  railErrors: Counter<'operation'>;
  sweeperActions: Counter<'action'>;
  railDiscrepancies: Counter<'kind'>;
  queueJobs: Gauge<'queue' | 'state'>;
  /** 1 while a dependency answered its last readiness probe, 0 while it did not. */
  dependencyUp: Gauge<'dependency'>;
  /** Requests refused before authentication: an address over its failure allowance, or look-ups saturated. */
  authThrottled: Counter<'reason'>;
}

export function createMetrics(app: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ app });
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Merchant API request latency by route and status.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    payoutsAccepted: new Counter({
      name: 'payouts_accepted_total',
      help: 'Payout requests by mode and outcome: accepted (reserved), rejected (insufficient balance), replayed, conflict.',
      labelNames: ['mode', 'outcome'],
      registers: [registry],
    }),
    payoutsSettled: new Counter({
      name: 'payouts_settled_total',
      help: 'Payouts settled by mode and outcome (SUCCESS or FAILED; REVERSED when a paid payout came back).',
      labelNames: ['mode', 'outcome'],
      registers: [registry],
    }),
    acceptToSettle: new Histogram({
      name: 'payout_accept_to_settle_seconds',
      help: 'Time from acceptance to settlement.',
      labelNames: ['mode', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200],
      registers: [registry],
    }),
    railRequestDuration: new Histogram({
      name: 'rail_request_duration_seconds',
      help: 'Rail calls by operation (submit, status) and the answer (SUCCESS, FAILED, PENDING, REVERSED, UNKNOWN, NOT_FOUND, REFUSED).',
      labelNames: ['operation', 'outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    railErrors: new Counter({
      name: 'rail_errors_total',
      help: 'Rail calls whose outcome was unknown (time-out, lost connection, 5xx).',
      labelNames: ['operation'],
      registers: [registry],
    }),
    sweeperActions: new Counter({
      name: 'sweeper_actions_total',
      help: 'Jobs the sweeper re-queued (added: lost; retried: had run out of attempts).',
      labelNames: ['action'],
      registers: [registry],
    }),
    railDiscrepancies: new Counter({
      name: 'payout_rail_discrepancies_total',
      help: 'Times the rail contradicted a settled payout (SUCCESS_AFTER_FAILED, FAILED_AFTER_SUCCESS, REVERSAL_OF_UNPAID); each is recorded for an operator.',
      labelNames: ['kind'],
      registers: [registry],
    }),
    dependencyUp: new Gauge({
      name: 'dependency_up',
      help: 'Whether a dependency (postgres, redis) answered its last readiness probe: 1 yes, 0 no.',
      labelNames: ['dependency'],
      registers: [registry],
    }),
    authThrottled: new Counter({
      name: 'auth_throttled_total',
      help: 'Requests refused before authentication, by reason: address_limited (too many failed authentications from one client address) or lookups_saturated (credential look-ups at their cap).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    queueJobs: new Gauge({
      name: 'queue_jobs',
      help: 'Jobs in each state, per queue (read when scraped).',
      labelNames: ['queue', 'state'],
      registers: [registry],
    }),
  };
}
