import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMetrics, createOperationsMetrics, createRoutingMetrics, METRIC_NAMES } from '@payout/telemetry';

// The alert rules and the dashboard name metrics in PromQL strings no compiler sees: a metric renamed in
// packages/telemetry would leave an alert that never fires. Every name they use must be one the gateway
// publishes (docs/operations.md, "Alerts: what each means and what to do").

const ROOT = new URL('../../', import.meta.url);

interface AlertRule {
  alert?: string;
  record?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const rules = (
  parse(readFileSync(new URL('deploy/prometheus/alerts.yml', ROOT), 'utf8')) as { groups: { rules: AlertRule[] }[] }
).groups.flatMap((group) => group.rules);
const alerts = rules.filter((rule) => rule.alert !== undefined);
/** The series the rules file records itself (the objectives' rates over each window). */
const RECORDED = rules.flatMap((rule) => (rule.record ? [rule.record] : []));

const dashboard = JSON.parse(readFileSync(new URL('deploy/grafana/payout-gateway.json', ROOT), 'utf8')) as {
  panels: { title: string; targets?: { expr: string }[] }[];
};
const dashboardQueries = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr })),
);

/** Series names Prometheus itself writes for every target. */
const PROMETHEUS_OWN = ['up'];

/**
 * Series of other software the rules read: KEDA's operator, for its scaler's errors (docs/operations.md,
 * "KedaScalerErrors"), and kube-state-metrics, for the statement CronJobs' runs ("StatementRunFailed").
 */
const OTHERS = [
  'keda_scaler_detail_errors_total',
  'kube_cronjob_status_last_schedule_time',
  'kube_cronjob_status_last_successful_time',
];

/**
 * The gauges of the worker's routing among sponsor banks, per bank and payment mode (docs/banks.md):
 * `bank_eliminated` (1 while routing has taken the bank out for that mode) and `bank_health_score` (0..1),
 * read by BankEliminated, AllBanksDownForMode and the dashboard's bank-health panel. Named here because the
 * registry this test builds (createMetrics, createOperationsMetrics) does not hold them; a name leaves this
 * list once it does.
 */
const BANK_ROUTING = ['bank_eliminated', 'bank_health_score'];

/** Every series name the gateway's processes expose: the names of packages/telemetry, a histogram's three series. */
async function publishedSeries(): Promise<Set<string>> {
  const metrics = createMetrics('names');
  createOperationsMetrics(metrics.registry);
  createRoutingMetrics(metrics.registry);
  const described = await metrics.registry.getMetricsAsJSON();
  return new Set(
    described.flatMap(({ name, type }) =>
      String(type) === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name],
    ),
  );
}

const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/**
 * The metric names in a PromQL expression, found crudely: strings, label matchers, grouping clauses and
 * range selectors removed, then every identifier that is not a function call or an operator word.
 */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\boffset\s+[0-9smhdwy]+/g, ' ');
  const names = [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter(([, , call]) => call === undefined)
    .map(([, name]) => name!)
    .filter((name) => !PROMQL_WORDS.has(name.toLowerCase()));
  return [...new Set(names)];
}

describe('metric names in the alert rules and the dashboard', () => {
  it('when an expression is read, then only its metric names are taken (not functions, labels or words)', () => {
    expect(
      metricNamesIn(
        'sum by (le, mode) (rate(payouts_x_total{outcome=~"A|B"}[5m:30s])) / on(mode) y_seconds > 0.5 and z or vector(0)',
      ),
    ).toEqual(['payouts_x_total', 'y_seconds', 'z']);
  });

  it('when every alert rule is read, then each metric it uses is one packages/telemetry defines', async () => {
    const known = new Set([...(await publishedSeries()), ...PROMETHEUS_OWN, ...OTHERS, ...BANK_ROUTING, ...RECORDED]);
    const unknown = rules.flatMap((rule) =>
      metricNamesIn(rule.expr)
        .filter((name) => !known.has(name))
        .map((name) => `${rule.alert ?? rule.record}: ${name}`),
    );
    expect(alerts.length).toBeGreaterThanOrEqual(20);
    expect(rules.flatMap((rule) => metricNamesIn(rule.expr))).toEqual(
      expect.arrayContaining([
        METRIC_NAMES.payoutsPendingPastSchedule,
        METRIC_NAMES.reconcileLastSuccess,
        METRIC_NAMES.statementBreaksOpen,
        METRIC_NAMES.payoutsOverdue,
        METRIC_NAMES.postgresConnectionsInUse,
        METRIC_NAMES.postgresConnectionsMax,
        METRIC_NAMES.dependencyUp,
        METRIC_NAMES.webhookDeliveriesFailing,
        `${METRIC_NAMES.railRequestDuration}_count`,
        'bank_eliminated',
        'up',
      ]),
    );
    expect(unknown).toEqual([]);
  });

  it('when every dashboard query is read, then each metric it uses is one packages/telemetry defines', async () => {
    const known = new Set([...(await publishedSeries()), ...PROMETHEUS_OWN, ...BANK_ROUTING]);
    const unknown = dashboardQueries.flatMap(({ where, expr }) =>
      metricNamesIn(expr)
        .filter((name) => !known.has(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(dashboardQueries.length).toBeGreaterThan(0);
    expect(unknown).toEqual([]);
  });

  it('when the exported names are compared with the registered metrics, then each is published', async () => {
    const metrics = createMetrics('names');
    createOperationsMetrics(metrics.registry);
    createRoutingMetrics(metrics.registry);
    const published = new Set((await metrics.registry.getMetricsAsJSON()).map((m) => m.name));
    expect(Object.values(METRIC_NAMES).filter((name) => !published.has(name))).toEqual([]);
  });

  it('when each alert is read, then it has a severity, a summary, a description and a runbook_url', () => {
    const incomplete = alerts.filter(
      (rule) =>
        !['critical', 'warning'].includes(rule.labels?.severity ?? '') ||
        !rule.annotations?.summary ||
        !rule.annotations.description ||
        !rule.annotations.runbook_url,
    );
    expect(incomplete.map((rule) => rule.alert)).toEqual([]);
  });
});
