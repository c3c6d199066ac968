import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import type { PrometheusAlert } from '../support/private-prometheus.js';
import {
  alertRoutingExample,
  alertsThatWere,
  firingNames,
  MonitoredStack,
  NAMESPACE,
  pagesOf,
  SteadyTraffic,
  watchAlertsFor,
} from '../support/monitored-stack.js';

// PostgreSQL down, in real time (docs/operations.md, "PostgresDown"): the stack's own PostgreSQL server
// stops. The API's readiness probe fails and it leaves its Service, so the merchants' 503s are the
// ingress's and never reach the API's counts; the API's and the worker's own `dependency_up` say it, and
// PostgresDown pages within 2 minutes, alone, and resolves once the server is back. About 8 minutes,
// mostly waiting: `pnpm test:long` runs it (README).

const PAYOUTS_PER_SECOND = 0.5;
const QUIET_MS = 90_000;
/** PostgresDown's `for:` (1 minute), after a readiness probe (every 5 and 10 s), a scrape and an evaluation. */
const POSTGRES_DOWN_WITHIN_MS = 2 * 60_000;
/** How long the outage is watched after the page, for anything else that pages. */
const WATCHED_AFTER_MS = 3 * 60_000;

let stack: MonitoredStack | undefined;
let traffic: SteadyTraffic | undefined;
const figures: Record<string, string> = {};
const startedAt = Date.now();

beforeAll(async () => {
  stack = await MonitoredStack.start();
  traffic = new SteadyTraffic(stack, PAYOUTS_PER_SECOND);
}, 120_000);

afterAll(async () => {
  await traffic?.stop();
  await stack?.close();
  figures['whole file'] = `${Math.round((Date.now() - startedAt) / 1000)} s`;
  console.info(`PostgreSQL down: ${JSON.stringify(figures)}`);
}, 120_000);

describe('PostgreSQL down, in real time', () => {
  it(
    'when payouts go through with PostgreSQL up, then no alert fires',
    async () => {
      await stack!.scraped();
      traffic!.start();
      const meanwhile = await watchAlertsFor(stack!.prometheus, QUIET_MS);
      expect(meanwhile).toEqual({ firing: [], paged: [] });
      expect(Object.keys(traffic!.takeAnswers()).sort()).toEqual(['202']);
    },
    QUIET_MS + 60_000,
  );

  it(
    'when PostgreSQL stops, then PostgresDown fires within 2 minutes and pages alone, and resolves once it is back',
    async () => {
      const { prometheus, postgres } = stack!;
      const routing = await alertRoutingExample();
      const downAt = Date.now();
      await postgres.stop('immediate');

      const postgresDown = (alerts: PrometheusAlert[]) => alerts.find((a) => a.labels.alertname === 'PostgresDown');
      const seen = { firing: new Set<string>(), paged: new Set<string>() };
      const alerts = await eventually(
        () =>
          prometheus.alerts().then((now) => {
            for (const name of firingNames(now)) seen.firing.add(name);
            for (const name of pagesOf(now, routing)) seen.paged.add(name);
            return now;
          }),
        (now) => postgresDown(now)?.state === 'firing',
        { timeoutMs: POSTGRES_DOWN_WITHIN_MS + 60_000, intervalMs: 1_000, what: 'PostgresDown to fire' },
      );
      const firedAt = Date.now();
      const fired = postgresDown(alerts)!;
      figures['PostgreSQL down → PostgresDown pending'] =
        `${Math.round((Date.parse(fired.activeAt) - downAt) / 1000)} s`;
      figures['PostgreSQL down → PostgresDown firing'] = `${Math.round((firedAt - downAt) / 1000)} s`;
      expect(firedAt - downAt).toBeLessThan(POSTGRES_DOWN_WITHIN_MS);
      expect(fired.labels).toMatchObject({ namespace: NAMESPACE, severity: 'critical' });
      expect(fired.annotations.runbook_url).toBe('docs/operations.md#postgresdown');
      // The merchants are answered by the ingress once the API is out of its Service; the API's and the
      // worker's own readiness probes both say why.
      expect(stack!.probes.apiReady).toBe(false);
      const views = await prometheus.query('dependency_up{dependency="postgres"}');
      expect(views.map((series) => [series.metric.job, series.value[1]]).sort()).toEqual([
        ['payout-api', '0'],
        ['payout-worker', '0'],
      ]);

      // For a while after, PostgresDown is the one page: what follows from it is silenced.
      const outage = await watchAlertsFor(prometheus, WATCHED_AFTER_MS, seen);
      figures['firing during the outage'] = outage.firing.join(', ');
      expect(outage.paged).toEqual(['PostgresDown']);
      expect(outage.firing).toContain('PostgresDown');

      const backAt = Date.now();
      await postgres.resume();
      await eventually(
        () => prometheus.alerts(),
        (now) => postgresDown(now) === undefined,
        { timeoutMs: 2 * 60_000, intervalMs: 1_000, what: 'PostgresDown to resolve once PostgreSQL is back' },
      );
      figures['PostgreSQL back → PostgresDown resolved'] = `${Math.round((Date.now() - backAt) / 1000)} s`;
      figures['pending at some point of the outage'] = (
        await alertsThatWere(prometheus, 'pending', (Date.now() - downAt) / 1000)
      ).join(', ');
      const answers = traffic!.takeAnswers();
      figures['merchant answers during the outage'] = JSON.stringify(answers);
      // The ingress answered for the API while it was out of its Service.
      expect(answers[503]).toBeGreaterThan(0);
    },
    POSTGRES_DOWN_WITHIN_MS + WATCHED_AFTER_MS + 5 * 60_000,
  );
});
