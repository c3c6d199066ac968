import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { apiConfigSchema, loadConfig, workerConfigSchema } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { createPrismaClient, type PrismaClient } from '@payout/db';
import { createRailSim, type RailSimServer } from '@payout/rail-sim';
import { startWorker, type RunningWorker } from '@payout/worker';
import { call, impsBody, upiBody } from './api.js';
import { eventually } from './eventually.js';
import { makeMerchant, type TestMerchant } from './factories.js';
import { PrivatePostgres } from './private-postgres.js';
import { PrivatePrometheus, type PrometheusAlert } from './private-prometheus.js';

// A stack watched by the shipped monitoring, in real time (docs/operations.md, "Alerts: what each means and
// what to do"): a PostgreSQL server of its own (some gauges are server-wide, every backlog gauge
// database-wide: nothing another test does may show), the rail simulator behind a bank's front door that
// can be taken down, the API and a worker as deployed, a real Prometheus scraping them through
// deploy/prometheus/prometheus.yml — its job names and namespace labels, only the targets pointed at this
// stack's ports and the intervals shortened to five seconds — and evaluating deploy/prometheus/alerts.yml
// as shipped, every `for:` as written. The readiness probes run as the kubelet runs them
// (deploy/kubernetes/base), and merchants reach the API only while it is ready, as through its Service.

const SCRAPE_CONFIG = new URL('../../deploy/prometheus/prometheus.yml', import.meta.url);
const RULES = fileURLToPath(new URL('../../deploy/prometheus/alerts.yml', import.meta.url));
const ALERT_ROUTING_EXAMPLE = new URL('../../deploy/kubernetes/examples/alertmanager-config.yaml', import.meta.url);
export const INTERVAL_SECONDS = 5;
export const NAMESPACE = 'payouts';
/** The API's readiness probe (deploy/kubernetes/base/api-deployment.yaml): every 5 s, out after 2 failures. */
const READINESS_PERIOD_MS = 5_000;
const READINESS_FAILURES = 2;

interface ScrapeConfig {
  job_name: string;
  metrics_path?: string;
  static_configs: { targets: string[]; labels?: Record<string, string> }[];
}

/**
 * The shipped scrape configuration, relabelled only as far as this machine needs: each job's targets are
 * this stack's ports, the rules file is the shipped one by its path, and scrapes and evaluations come every
 * five seconds instead of fifteen. Job names, metrics paths and the namespace label stay as shipped.
 */
async function localScrapeConfig(ports: Record<string, string>): Promise<object> {
  const shipped = parse(await readFile(SCRAPE_CONFIG, 'utf8')) as {
    global: Record<string, string>;
    rule_files: string[];
    scrape_configs: ScrapeConfig[];
  };
  expect(shipped.scrape_configs.map((job) => job.job_name).sort()).toEqual(Object.keys(ports).sort());
  expect(shipped.rule_files).toEqual(['alerts.yml']);
  return {
    ...shipped,
    global: {
      ...shipped.global,
      scrape_interval: `${INTERVAL_SECONDS}s`,
      evaluation_interval: `${INTERVAL_SECONDS}s`,
      scrape_timeout: `${INTERVAL_SECONDS - 1}s`,
    },
    rule_files: [RULES],
    scrape_configs: shipped.scrape_configs.map((job) => ({
      ...job,
      static_configs: job.static_configs.map((group) => ({ ...group, targets: [ports[job.job_name]!] })),
    })),
  };
}

/**
 * The bank's front door in front of the simulator: every call passes through while the bank is up; while
 * it is down, every call is answered 503 at once, as a bank's gateway does in an outage (the simulator
 * behind it, and its /metrics, stay up: a bank's outage is not one of our processes down).
 */
export class BankFrontDoor {
  down = false;
  url = '';
  private readonly server: Server;

  private constructor(bankUrl: string) {
    this.server = createServer((req, res) => {
      if (this.down) {
        req.resume();
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'UNAVAILABLE', message: 'service unavailable' }));
        return;
      }
      const upstream = request(`${bankUrl}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      // A caller that gives up (the worker's rail time-out on a held `.33` reply) hangs up on the bank too.
      res.on('close', () => upstream.destroy());
      req.pipe(upstream);
    });
  }

  static async start(bankUrl: string): Promise<BankFrontDoor> {
    const door = new BankFrontDoor(bankUrl);
    await new Promise<void>((resolve) => door.server.listen(0, '127.0.0.1', resolve));
    door.url = `http://127.0.0.1:${(door.server.address() as AddressInfo).port}`;
    return door;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The kubelet's readiness probes of the API and the worker (deploy/kubernetes/base: every 5 and 10 s), which
 * is what refreshes each process's `dependency_up`; and the API's place in its Service: out after two
 * failed probes in a row, back at the first success.
 */
class ReadinessProbes {
  apiReady = true;
  private failures = 0;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(api: RunningApi, workerHealthPort: number) {
    const probe = (url: string) =>
      fetch(url, { signal: AbortSignal.timeout(3_000) }).then(
        (r) => r.status === 200,
        () => false,
      );
    this.timers.push(
      setInterval(() => {
        void probe(`${api.url}/readyz`).then((ready) => {
          this.failures = ready ? 0 : this.failures + 1;
          if (ready) this.apiReady = true;
          else if (this.failures >= READINESS_FAILURES) this.apiReady = false;
        });
      }, READINESS_PERIOD_MS),
      setInterval(() => void probe(`http://127.0.0.1:${workerHealthPort}/readyz`), 2 * READINESS_PERIOD_MS),
    );
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
  }
}

/** The simulator's magic paise, by a payout's place in every hundred (docs/rail-sim.md). */
const MAGIC_PAISE = new Map<number, string>([
  [7, '44'],
  [23, '33'],
  [5, '22'],
  [11, '11'],
  [41, '11'],
  [71, '11'],
  [91, '11'],
]);

/**
 * A day's payouts, paced: `perSecond` through the merchant API, IMPS and UPI in turn, each mode with the
 * simulator's ordinary mix (docs/rail-sim.md, "Magic values") in every hundred of its payouts: 4 declined
 * by the beneficiary's bank (`.11`), 2 to an invalid account or UPI address, 1 settled only at the first
 * status check (`.22`), 1 whose reply is lost (`.33`, a time-out) and 1 the bank answers 503 twice (`.44`),
 * and 2 refused by the API for a merchant's empty wallet. So about 3 rail calls in 100 get no definite
 * answer (RailErrorRate pages over 5 %), and 3 payouts in 100 wait a minute or more for a status check
 * (AcceptToSettleSlow is about the slowest 5 %). While the API is out of its Service, the ingress answers
 * 503 for it (counted as status 503 here, never by the API).
 */
export class SteadyTraffic {
  /** Merchant API answers by HTTP status. */
  readonly answers = new Map<number, number>();
  private sent = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly stack: MonitoredStack,
    private readonly perSecond: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.sendOne(), 1000 / this.perSecond);
  }

  /** Answers counted since the last call. */
  takeAnswers(): Record<number, number> {
    const taken = Object.fromEntries(this.answers);
    this.answers.clear();
    return taken;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.inFlight);
  }

  private count(status: number): void {
    this.answers.set(status, (this.answers.get(status) ?? 0) + 1);
  }

  private sendOne(): void {
    if (!this.stack.probes.apiReady) {
      this.count(503);
      return;
    }
    const n = this.sent++;
    const imps = n % 2 === 0;
    const slot = Math.floor(n / 2) % 100;
    const paise = MAGIC_PAISE.get(slot);
    const invalidBeneficiary = slot === 17 || slot === 67;
    const merchant = slot === 29 || slot === 79 ? this.stack.emptyMerchant : this.stack.fundedMerchant;
    const Amount = `${100 + (n % 50)}.${paise ?? (n % 3 === 0 ? '50' : '00')}`;
    const body = imps
      ? impsBody({ Amount, ...(invalidBeneficiary && { Account: '000012345678' }) })
      : upiBody({ Amount, ...(invalidBeneficiary && { Upi: 'invalid.name@okhdfc' }) });
    const sending = call(this.stack.api, imps ? '/api/impspayout' : '/api/payout', { merchant, body }).then(
      (response) => this.count(response.status),
      () => this.count(0),
    );
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }
}

/** The running stack and its Prometheus. */
export class MonitoredStack {
  private constructor(
    readonly postgres: PrivatePostgres,
    readonly db: PrismaClient,
    readonly rail: RailSimServer,
    readonly bank: BankFrontDoor,
    readonly api: RunningApi,
    readonly worker: RunningWorker,
    readonly prometheus: PrivatePrometheus,
    readonly probes: ReadinessProbes,
    readonly fundedMerchant: TestMerchant,
    readonly emptyMerchant: TestMerchant,
  ) {}

  static async start(): Promise<MonitoredStack> {
    const postgres = await PrivatePostgres.start();
    const env = { ...process.env, DATABASE_URL: postgres.databaseUrl };
    const db = createPrismaClient({ url: postgres.databaseUrl, poolSize: 2, connectTimeoutMs: 5_000 });
    // The simulator as a bank: its defaults, an answer taking 20 ms.
    const rail = await createRailSim({ latencyMs: 20 }).listen(0);
    const bank = await BankFrontDoor.start(rail.url);
    const api = await startApi(
      loadConfig(apiConfigSchema, { ...env, PORT: '0', HOST: '127.0.0.1', RAIL_BASE_URL: rail.url }),
    );
    // The worker as deployed: every timing at its default (status checks a minute and more apart), only its
    // health port free.
    const worker = await startWorker(
      loadConfig(workerConfigSchema, { ...env, RAIL_BASE_URL: bank.url, HEALTH_PORT: '0' }),
    );
    const local = (url: string) => new URL(url).host;
    const prometheus = await PrivatePrometheus.start(
      await localScrapeConfig({
        'payout-api': local(api.metricsUrl),
        'payout-worker': `127.0.0.1:${worker.healthPort}`,
        'rail-sim': local(rail.url),
      }),
    );
    const probes = new ReadinessProbes(api, worker.healthPort);
    return new MonitoredStack(
      postgres,
      db,
      rail,
      bank,
      api,
      worker,
      prometheus,
      probes,
      await makeMerchant(db, { balance: '10000000.00' }),
      await makeMerchant(db, { balance: '0.00' }),
    );
  }

  /** Waits until Prometheus scrapes the three jobs, each with the shipped job name and namespace. */
  async scraped(): Promise<void> {
    const targets = await eventually(
      () => this.prometheus.targets(),
      (found) => found.length === 3 && found.every((t) => t.health === 'up'),
      { timeoutMs: 30_000, intervalMs: 500, what: 'the three jobs of deploy/prometheus/prometheus.yml to be scraped' },
    );
    expect(targets.map((t) => [t.labels.job, t.labels.namespace]).sort()).toEqual([
      ['payout-api', NAMESPACE],
      ['payout-worker', NAMESPACE],
      ['rail-sim', NAMESPACE],
    ]);
  }

  async close(): Promise<void> {
    this.probes.stop();
    await this.prometheus.stop();
    await this.worker.close();
    await this.api.close();
    await this.bank.close();
    await this.rail.close();
    await this.db.$disconnect();
    await this.postgres.destroy();
  }
}

export const firingNames = (alerts: PrometheusAlert[]) =>
  [...new Set(alerts.filter((a) => a.state === 'firing').map((a) => a.labels.alertname!))].sort();

/** Waits, pacing the day by the clock, and reads the firing alerts at every evaluation meanwhile. */
export async function watchAlertsFor(
  prometheus: PrivatePrometheus,
  ms: number,
  seen: { firing: Set<string>; paged: Set<string> } = { firing: new Set(), paged: new Set() },
): Promise<{ firing: string[]; paged: string[] }> {
  const routing = await alertRoutingExample();
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const now = await prometheus.alerts();
    for (const name of firingNames(now)) seen.firing.add(name);
    for (const name of pagesOf(now, routing)) seen.paged.add(name);
    await new Promise((resolve) => setTimeout(resolve, Math.min(INTERVAL_SECONDS * 1000, end - Date.now())));
  }
  return { firing: [...seen.firing].sort(), paged: [...seen.paged].sort() };
}

/**
 * Waits until `alertname` fires (within `timeoutMs`), gathering every page on the way under the example's
 * inhibit rules: the alerts at that moment, when it was pending and firing, and what paged meanwhile.
 */
export async function untilFiring(
  prometheus: PrivatePrometheus,
  alertname: string,
  timeoutMs: number,
): Promise<{ alerts: PrometheusAlert[]; fired: PrometheusAlert; firedAt: number; paged: Set<string> }> {
  const routing = await alertRoutingExample();
  const paged = new Set<string>();
  const named = (alerts: PrometheusAlert[]) => alerts.find((a) => a.labels.alertname === alertname);
  const alerts = await eventually(
    () =>
      prometheus.alerts().then((now) => {
        for (const name of pagesOf(now, routing)) paged.add(name);
        return now;
      }),
    (now) => named(now)?.state === 'firing',
    { timeoutMs, intervalMs: 1_000, what: `${alertname} to fire` },
  );
  return { alerts, fired: named(alerts)!, firedAt: Date.now(), paged };
}

/** The alert names that were in `state` at any evaluation of the last `seconds`, from Prometheus's own ALERTS series. */
export async function alertsThatWere(prometheus: PrivatePrometheus, state: string, seconds: number): Promise<string[]> {
  const series = await prometheus.query(
    `group by (alertname) (max_over_time(ALERTS{alertstate="${state}"}[${Math.ceil(seconds)}s]))`,
  );
  return series.map((s) => s.metric.alertname!).sort();
}

interface Matcher {
  name: string;
  value: string;
  matchType: '=' | '!=' | '=~' | '!~';
}
interface InhibitRule {
  sourceMatch: Matcher[];
  targetMatch: Matcher[];
  equal: string[];
}
export interface AlertRouting {
  inhibitRules: InhibitRule[];
}

/** The example AlertmanagerConfig's spec (deploy/kubernetes/examples/alertmanager-config.yaml). */
export async function alertRoutingExample(): Promise<AlertRouting> {
  return (parse(await readFile(ALERT_ROUTING_EXAMPLE, 'utf8')) as { spec: AlertRouting }).spec;
}

function matches(matcher: Matcher, labels: Record<string, string>): boolean {
  const value = labels[matcher.name] ?? '';
  switch (matcher.matchType) {
    case '=':
      return value === matcher.value;
    case '!=':
      return value !== matcher.value;
    case '=~':
      return new RegExp(`^(?:${matcher.value})$`).test(value);
    case '!~':
      return !new RegExp(`^(?:${matcher.value})$`).test(value);
  }
}

/**
 * The alerts that page: each critical alert firing that no other firing alert inhibits under the example's
 * inhibit rules, read as Alertmanager reads them (an alert matching both sides of a rule is not inhibited
 * by one that does too, itself included).
 */
export function pagesOf(alerts: PrometheusAlert[], routing: AlertRouting): string[] {
  const firing = alerts.filter((a) => a.state === 'firing');
  const all = (matchers: Matcher[], labels: Record<string, string>) => matchers.every((m) => matches(m, labels));
  const inhibited = (target: PrometheusAlert) =>
    routing.inhibitRules.some(
      (rule) =>
        all(rule.targetMatch, target.labels) &&
        firing.some(
          (source) =>
            source !== target &&
            all(rule.sourceMatch, source.labels) &&
            !(all(rule.sourceMatch, target.labels) && all(rule.targetMatch, source.labels)) &&
            rule.equal.every((label) => (source.labels[label] ?? '') === (target.labels[label] ?? '')),
        ),
    );
  return [
    ...new Set(firing.filter((a) => a.labels.severity === 'critical' && !inhibited(a)).map((a) => a.labels.alertname!)),
  ].sort();
}
