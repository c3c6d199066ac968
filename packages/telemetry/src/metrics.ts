import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every metric name the gateway publishes, defined here once: the alert rules (deploy/prometheus) and the
 * dashboard (deploy/grafana) use only these (test/deploy/alert-metric-names.test.ts holds them to it).
 */
export const METRIC_NAMES = {
  httpRequestDuration: 'http_request_duration_seconds',
  payoutsAccepted: 'payouts_accepted_total',
  payoutsSettled: 'payouts_settled_total',
  acceptToSettle: 'payout_accept_to_settle_seconds',
  railRequestDuration: 'rail_request_duration_seconds',
  railErrors: 'rail_errors_total',
  sweeperActions: 'sweeper_actions_total',
  railDiscrepancies: 'payout_rail_discrepancies_total',
  queueJobs: 'queue_jobs',
  dependencyUp: 'dependency_up',
  authThrottled: 'auth_throttled_total',
  payoutsPending: 'payouts_pending',
  payoutsPendingPastSchedule: 'payouts_pending_past_schedule',
  payoutsManualReview: 'payouts_manual_review',
  discrepanciesOpen: 'discrepancies_open',
  statementLastRunBreaks: 'statement_last_run_breaks',
  statementBreaksOpen: 'statement_breaks_open',
  breakGlassActions: 'console_break_glass_actions_24h',
  payoutsOverdue: 'payouts_overdue_total',
  webhookEndpointsDisabled: 'webhook_endpoints_disabled',
  webhookDeliveriesFailing: 'webhook_deliveries_failing',
  reconcileBreaches: 'reconcile_invariant_breaches',
  reconcileLastSuccess: 'reconcile_last_success_timestamp_seconds',
  postgresConnectionsInUse: 'postgres_connections_in_use',
  postgresConnectionsMax: 'postgres_connections_max',
  bankHealthScore: 'bank_health_score',
  bankEliminated: 'bank_eliminated',
} as const;

/** A registry for one process, every sample labelled with the app, with Node's process metrics. */
export function createRegistry(app: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ app });
  collectDefaultMetrics({ register: registry });
  return registry;
}

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
  railRequestDuration: Histogram<'bank' | 'operation' | 'outcome'>;
  railErrors: Counter<'bank' | 'operation'>;
  sweeperActions: Counter<'action'>;
  railDiscrepancies: Counter<'kind'>;
  queueJobs: Gauge<'queue' | 'state'>;
  /** 1 while a dependency answered its last readiness probe, 0 while it did not. */
  dependencyUp: Gauge<'dependency'>;
  /** Requests refused before authentication: an address over its failure allowance, or look-ups saturated. */
  authThrottled: Counter<'reason'>;
}

export function createMetrics(app: string): ServiceMetrics {
  const registry = createRegistry(app);
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: METRIC_NAMES.httpRequestDuration,
      help: 'Merchant API request latency by route and status.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    payoutsAccepted: new Counter({
      name: METRIC_NAMES.payoutsAccepted,
      help: 'Payout requests by mode and outcome: accepted (reserved), rejected (insufficient balance), replayed, conflict.',
      labelNames: ['mode', 'outcome'],
      registers: [registry],
    }),
    payoutsSettled: new Counter({
      name: METRIC_NAMES.payoutsSettled,
      help: 'Payouts settled by mode and outcome (SUCCESS or FAILED; REVERSED when a paid payout came back).',
      labelNames: ['mode', 'outcome'],
      registers: [registry],
    }),
    acceptToSettle: new Histogram({
      name: METRIC_NAMES.acceptToSettle,
      help: 'Time from acceptance to settlement.',
      labelNames: ['mode', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200],
      registers: [registry],
    }),
    railRequestDuration: new Histogram({
      name: METRIC_NAMES.railRequestDuration,
      help: 'Rail calls by sponsor bank, operation (submit, status) and the answer (SUCCESS, FAILED, PENDING, REVERSED, UNKNOWN, NOT_FOUND, REFUSED).',
      labelNames: ['bank', 'operation', 'outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    railErrors: new Counter({
      name: METRIC_NAMES.railErrors,
      help: 'Rail calls whose outcome was unknown (time-out, lost connection, 5xx), by sponsor bank and operation.',
      labelNames: ['bank', 'operation'],
      registers: [registry],
    }),
    sweeperActions: new Counter({
      name: METRIC_NAMES.sweeperActions,
      help: 'Jobs the sweeper re-queued (added: lost; retried: had run out of attempts).',
      labelNames: ['action'],
      registers: [registry],
    }),
    railDiscrepancies: new Counter({
      name: METRIC_NAMES.railDiscrepancies,
      help: 'Times the rail contradicted a settled payout (SUCCESS_AFTER_FAILED, FAILED_AFTER_SUCCESS, REVERSAL_OF_UNPAID); each is recorded for an operator.',
      labelNames: ['kind'],
      registers: [registry],
    }),
    dependencyUp: new Gauge({
      name: METRIC_NAMES.dependencyUp,
      help: 'Whether a dependency (postgres, redis) answered its last readiness probe: 1 yes, 0 no.',
      labelNames: ['dependency'],
      registers: [registry],
    }),
    authThrottled: new Counter({
      name: METRIC_NAMES.authThrottled,
      help: 'Requests refused before authentication, by reason: address_limited (too many failed authentications from one client address) or lookups_saturated (credential look-ups at their cap).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    queueJobs: new Gauge({
      name: METRIC_NAMES.queueJobs,
      help: 'Jobs in each state, per queue (read when scraped).',
      labelNames: ['queue', 'state'],
      registers: [registry],
    }),
  };
}

/**
 * What an operator is paged on, read from PostgreSQL when the worker is scraped (and, for the money
 * invariants, by the worker's periodic check). The numbers are database-wide: every worker reports the
 * same ones, so the rules take max() over the workers (docs/operations.md, "Alerts: what each means and
 * what to do").
 */
export interface OperationsMetrics {
  /** Pending payouts by mode and age band (the dashboard's "pending by age"). */
  payoutsPending: Gauge<'mode' | 'age'>;
  /** In-flight payouts older than their mode's whole inquiry schedule: the worker is not moving them. */
  payoutsPendingPastSchedule: Gauge<'mode'>;
  payoutsManualReview: Gauge;
  discrepanciesOpen: Gauge;
  statementLastRunBreaks: Gauge;
  /** Breaks of every statement run still open: no decision yet, or waiting for the bank. */
  statementBreaksOpen: Gauge;
  /** Approvers made with the database credential in the last 24 hours (docs/operations.md, "Break-glass"). */
  breakGlassActions: Gauge;
  /**
   * Payouts that passed their mode's expected time still pending, counted once as the deadline passes: the
   * bad events of the payout-timeliness objective (docs/operations.md, "Service level objectives").
   */
  payoutsOverdue: Counter<'mode'>;
  webhookEndpointsDisabled: Gauge;
  /** Webhook deliveries that failed: `retrying` (pending, attempted before) and `held` (endpoint disabled). */
  webhookDeliveriesFailing: Gauge<'state'>;
  /** Rows breaking each money invariant at the last check (packages/db/src/invariant-check.ts). */
  reconcileBreaches: Gauge<'check'>;
  reconcileLastSuccess: Gauge;
  /**
   * Connections open to the PostgreSQL server (every database, every client: the server's own count) and
   * the server's `max_connections`, for the connection budget of docs/scaling.md, "PostgreSQL connections".
   */
  postgresConnectionsInUse: Gauge;
  postgresConnectionsMax: Gauge;
}

/** Adds the operations gauges to a process's registry (the worker's). */
export function createOperationsMetrics(registry: Registry): OperationsMetrics {
  const gauge = <L extends string>(name: string, help: string, labelNames: L[] = []) =>
    new Gauge<L>({ name, help, labelNames, registers: [registry] });
  return {
    payoutsPending: gauge(
      METRIC_NAMES.payoutsPending,
      'Pending payouts (PENDING to the merchant) by mode and age band since acceptance (read when scraped).',
      ['mode', 'age'],
    ),
    payoutsPendingPastSchedule: gauge(
      METRIC_NAMES.payoutsPendingPastSchedule,
      "Payouts still in flight (not in manual review, not queued for balance) accepted longer ago than their mode's whole inquiry schedule (read when scraped).",
      ['mode'],
    ),
    payoutsManualReview: gauge(
      METRIC_NAMES.payoutsManualReview,
      'Payouts in MANUAL_REVIEW, waiting for the statement or an operator (read when scraped).',
    ),
    discrepanciesOpen: gauge(
      METRIC_NAMES.discrepanciesOpen,
      'Open discrepancies between the bank and our books (read when scraped).',
    ),
    statementLastRunBreaks: gauge(
      METRIC_NAMES.statementLastRunBreaks,
      'Breaks (lines needing a person) of the last bank statement run; 0 before any run (read when scraped).',
    ),
    breakGlassActions: gauge(
      METRIC_NAMES.breakGlassActions,
      'Approvers made with the database credential (pnpm cli break-glass approver) in the last 24 hours (read when scraped).',
    ),
    statementBreaksOpen: gauge(
      METRIC_NAMES.statementBreaksOpen,
      'Breaks of every bank statement run still open: undecided, or waiting for the bank (read when scraped).',
    ),
    payoutsOverdue: new Counter({
      name: METRIC_NAMES.payoutsOverdue,
      help: "Payouts still pending when their mode's expected time since acceptance passed, counted as it passes (counted when scraped).",
      labelNames: ['mode'],
      registers: [registry],
    }),
    webhookEndpointsDisabled: gauge(
      METRIC_NAMES.webhookEndpointsDisabled,
      "Merchants' webhook endpoints disabled after failing deliveries (read when scraped).",
    ),
    webhookDeliveriesFailing: gauge(
      METRIC_NAMES.webhookDeliveriesFailing,
      'Webhook deliveries that failed, by state: retrying (pending after a failed attempt), held (their endpoint is disabled) (read when scraped).',
      ['state'],
    ),
    reconcileBreaches: gauge(
      METRIC_NAMES.reconcileBreaches,
      'Rows breaking each money invariant at the last periodic check.',
      ['check'],
    ),
    reconcileLastSuccess: gauge(
      METRIC_NAMES.reconcileLastSuccess,
      'Unix time the last periodic check of the money invariants completed (whatever it found); 0 before the first.',
    ),
    postgresConnectionsInUse: gauge(
      METRIC_NAMES.postgresConnectionsInUse,
      "Connections open to the PostgreSQL server, from every client to every database (pg_stat_database's backends; read when scraped).",
    ),
    postgresConnectionsMax: gauge(
      METRIC_NAMES.postgresConnectionsMax,
      "The PostgreSQL server's max_connections, superuser-reserved slots included (read when scraped).",
    ),
  };
}

/** Routing among the sponsor banks (docs/banks.md): each bank's health per mode, as the worker last read it. */
export interface RoutingMetrics {
  /** The bank's score for the mode, 0..1 (the share of its recent submits where it did its work); unset while unscored. */
  bankHealthScore: Gauge<'bank' | 'mode'>;
  /** 1 while routing has eliminated the bank for the mode, 0 otherwise. */
  bankEliminated: Gauge<'bank' | 'mode'>;
}

/** Adds the routing gauges to a process's registry (the worker's). */
export function createRoutingMetrics(registry: Registry): RoutingMetrics {
  return {
    bankHealthScore: new Gauge({
      name: METRIC_NAMES.bankHealthScore,
      help: "Each sponsor bank's health score per mode, 0..1: the share of its recent submits where it did its work (docs/banks.md). Absent while too few outcomes to score.",
      labelNames: ['bank', 'mode'],
      registers: [registry],
    }),
    bankEliminated: new Gauge({
      name: METRIC_NAMES.bankEliminated,
      help: 'Whether routing has eliminated the sponsor bank for the mode (1) or not (0): it gets only probe traffic (docs/banks.md).',
      labelNames: ['bank', 'mode'],
      registers: [registry],
    }),
  };
}
