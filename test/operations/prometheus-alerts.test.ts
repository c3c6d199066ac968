import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { apiConfigSchema, loadConfig } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { createRailSim, type RailSimServer } from '@payout/rail-sim';
import { startWorker, type RunningWorker } from '@payout/worker';
import { startStubBank, type StubBank } from '../bank-boundary/stub-bank.js';
import { call, impsBody } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { PrivatePrometheus, type PrometheusAlert } from '../support/private-prometheus.js';
import { FAST_RAIL, workerConfig } from '../support/stack.js';

// The alert rules of deploy/prometheus/alerts.yml in a real Prometheus, scraping a running stack: the API's
// admin /metrics, the worker's /metrics and the rail simulator's (docs/operations.md, "Alerts: what each
// means and what to do"). The rules run as written except their `for:` durations, which a rendered copy
// shortens to one second, so an alert fires within seconds of its condition instead of minutes.

const RULES = new URL('../../deploy/prometheus/alerts.yml', import.meta.url);
const DASHBOARD = new URL('../../deploy/grafana/payout-gateway.json', import.meta.url);
const NAMESPACE = 'payouts';

/** Prometheus scraping the stack's three processes every second, with the rules' `for:` shortened to a second. */
async function startPrometheus(targets: Record<string, string>): Promise<PrivatePrometheus> {
  const rules = parse(await readFile(RULES, 'utf8')) as { groups: { rules: { for?: string }[] }[] };
  for (const rule of rules.groups.flatMap((group) => group.rules)) if (rule.for) rule.for = '1s';
  return PrivatePrometheus.start(
    {
      global: { scrape_interval: '1s', evaluation_interval: '1s', scrape_timeout: '1s' },
      rule_files: ['alerts.yml'],
      scrape_configs: Object.entries(targets).map(([job, url]) => {
        const target = new URL(url);
        // Every target in a namespace, as deploy/prometheus/prometheus.yml and the PodMonitors give them.
        return {
          job_name: job,
          metrics_path: target.pathname,
          static_configs: [{ targets: [target.host], labels: { namespace: NAMESPACE } }],
        };
      }),
    },
    { 'alerts.yml': stringify(rules) },
  );
}

const prisma = testPrisma();
let bank: StubBank | undefined;
let rail: RailSimServer | undefined;
let api: RunningApi | undefined;
let worker: RunningWorker | undefined;
let prometheus: PrivatePrometheus | undefined;

beforeAll(async () => {
  // A bank that takes every submit and answers none until told to: the rail has stopped answering.
  bank = await startStubBank({ holdSubmits: true });
  rail = await createRailSim(FAST_RAIL).listen(0);
  api = await startApi(
    loadConfig(apiConfigSchema, { ...process.env, PORT: '0', HOST: '127.0.0.1', RAIL_BASE_URL: rail.url }),
  );
  worker = await startWorker(
    workerConfig({
      RAIL_BASE_URL: bank.url,
      // The worker waits for the bank's answer far longer than the schedule lasts, so the payout stays in
      // flight past it: IMPS's schedule runs out about a quarter of a second after acceptance.
      RAIL_RESPONSE_TIMEOUT_MS: '60000',
      INQUIRY_IMPS_FIRST_DELAY_MS: '100',
      INQUIRY_IMPS_SPACING_MS: '100',
      INQUIRY_IMPS_MAX_CHECKS: '2',
    }),
  );
  prometheus = await startPrometheus({
    'payout-api': `${api.metricsUrl}/metrics`,
    'payout-worker': `http://127.0.0.1:${worker.healthPort}/metrics`,
    'rail-sim': `${rail.url}/metrics`,
  });
});

afterAll(async () => {
  await prometheus?.stop();
  bank?.releaseSubmits();
  await worker?.close();
  await api?.close();
  await rail?.close();
  await bank?.close();
  await prisma.$disconnect();
});

describe('the alert rules in a real Prometheus', () => {
  it('when the stack is scraped, then every process is up and every dashboard query is one Prometheus accepts', async () => {
    const targets = await eventually(
      () => prometheus!.api<{ activeTargets: { labels: { job: string }; health: string }[] }>('targets'),
      (data) => data.activeTargets.length === 3 && data.activeTargets.every((t) => t.health === 'up'),
      { timeoutMs: 15_000, intervalMs: 250, what: 'the API, the worker and the rail simulator to be scraped' },
    );
    expect(targets.activeTargets.map((t) => t.labels.job).sort()).toEqual(['payout-api', 'payout-worker', 'rail-sim']);

    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as { panels: { targets?: { expr: string }[] }[] };
    // As Grafana sends them: the namespace variable is the namespace chosen.
    const queries = dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => target.expr.replaceAll('$namespace', NAMESPACE)),
    );
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      await expect(prometheus!.api(`query?query=${encodeURIComponent(query)}`), query).resolves.toMatchObject({
        resultType: expect.any(String),
      });
    }
    // Scoped to the namespace chosen, the worker's gauges are there: the open statement breaks, for one.
    const breaks = queries.find((query) => query.includes('statement_breaks_open'));
    expect(breaks).toBeDefined();
    expect(await prometheus!.query(breaks!)).toEqual([{ metric: {}, value: [expect.any(Number), '0'] }]);
  });

  it('when the rail stops answering, then PayoutsPendingPastSchedule fires for IMPS; when it answers again and the payout settles, then the alert resolves', async () => {
    const stuckAlert = (alerts: PrometheusAlert[]) =>
      alerts.find((a) => a.labels.alertname === 'PayoutsPendingPastSchedule' && a.labels.mode === 'IMPS');
    expect(stuckAlert(await prometheus!.alerts())).toBeUndefined();

    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const body = impsBody({ Amount: '10.00' });
    expect((await call(api!, '/api/impspayout', { merchant, body })).status).toBe(202);
    await eventually(
      () => Promise.resolve(bank!.book.size),
      (taken) => taken === 1,
      { what: 'the bank to take the submit (and not answer it)' },
    );

    const firing = await eventually(
      () => prometheus!.alerts().then(stuckAlert),
      (alert) => alert?.state === 'firing',
      { timeoutMs: 20_000, intervalMs: 250, what: 'PayoutsPendingPastSchedule to fire for IMPS' },
    );
    expect(firing).toMatchObject({
      labels: { severity: 'critical', namespace: NAMESPACE },
      annotations: { runbook_url: 'docs/operations.md#payoutspendingpastschedule' },
    });
    expect(firing?.annotations.description).toMatch(/^1 IMPS payouts were accepted longer ago/);
    // The payout passed its expected time still pending: the workers counted it. One overdue payout is under
    // the payout-timeliness burn's floor (5 in an hour, docs/operations.md, "Service level objectives"): the
    // objective's page stays quiet, PayoutsPendingPastSchedule has said it.
    await eventually(
      () => prometheus!.query('max by (namespace) (payouts_overdue_total{job="payout-worker"})'),
      (series) => Number(series[0]?.value[1]) === 1,
      { timeoutMs: 20_000, intervalMs: 250, what: 'the workers to count the overdue payout' },
    );
    expect((await prometheus!.alerts()).filter((a) => a.labels.alertname === 'PayoutTimelinessBudgetBurn')).toEqual([]);
    const inFlight = await prisma.payout.findFirstOrThrow({ where: { transactionId: body.TransactionID } });
    expect(inFlight.status).toBe('PENDING');

    bank!.releaseSubmits();
    await eventually(
      () => prisma.payout.findFirstOrThrow({ where: { id: inFlight.id } }),
      (payout) => payout.state === 'SUCCESS',
      { what: 'the payout to settle once the bank answers' },
    );
    await eventually(
      () => prometheus!.alerts().then(stuckAlert),
      (alert) => alert === undefined,
      { timeoutMs: 20_000, intervalMs: 250, what: 'PayoutsPendingPastSchedule to resolve' },
    );
  });
});
