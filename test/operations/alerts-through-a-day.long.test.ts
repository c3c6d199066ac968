import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { apiConfigSchema, loadConfig, workerConfigSchema } from '@payout/config';
import { startApi, type RunningApi } from '@payout/api';
import { createPrismaClient, type PrismaClient } from '@payout/db';
import { createRailSim, type RailSimServer } from '@payout/rail-sim';
import { startWorker, type RunningWorker } from '@payout/worker';
import { call, impsBody, upiBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { PrivatePostgres } from '../support/private-postgres.js';
import { PrivatePrometheus, type PrometheusAlert } from '../support/private-prometheus.js';

// The shipped monitoring through a day, in real time (docs/operations.md, "Alerts: what each means and what
// to do"): a real Prometheus scrapes a running stack through deploy/prometheus/prometheus.yml — its job names
// and namespace labels, only the targets pointed at this test's ports and the intervals shortened to five
// seconds — and evaluates deploy/prometheus/alerts.yml as shipped, every `for:` as written. Ten minutes of
// ordinary traffic page nobody; then the bank answers 503 and exactly the outage's alerts fire, once each,
// and resolve after the bank is back (of them, Alertmanager's inhibitions page only AllBanksDownForMode). About 20 minutes, mostly waiting: `pnpm test:long` runs it (README).
//
// The stack has a PostgreSQL server of its own, because some gauges are server-wide (the connections in
// use) and every backlog gauge is database-wide: nothing another test does may show on this day.

const SCRAPE_CONFIG = new URL('../../deploy/prometheus/prometheus.yml', import.meta.url);
const RULES = fileURLToPath(new URL('../../deploy/prometheus/alerts.yml', import.meta.url));
const INTERVAL_SECONDS = 5;
const QUIET_DAY_MS = 10 * 60_000;
const PAYOUTS_PER_SECOND = 3;
const NAMESPACE = 'payouts';
/** What a bank outage of a one-bank deployment fires: the rail's errors, and the bank out of routing for both modes. */
const OUTAGE_ALERTS = ['AllBanksDownForMode', 'BankEliminated', 'RailErrorRate'];

/** RailErrorRate's `for:` in alerts.yml. */
const RAIL_ERROR_RATE_FOR_MS = 5 * 60_000;

interface ScrapeConfig {
  job_name: string;
  metrics_path?: string;
  static_configs: { targets: string[]; labels?: Record<string, string> }[];
}

/**
 * The shipped scrape configuration, relabelled only as far as this machine needs: each job's targets are
 * this test's ports, the rules file is the shipped one by its path, and scrapes and evaluations come every
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
class BankFrontDoor {
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
 * A day's payouts, paced: PAYOUTS_PER_SECOND through the merchant API, IMPS and UPI in turn, each mode with
 * the simulator's ordinary mix (docs/rail-sim.md, "Magic values") in every hundred of its payouts: 4
 * declined by the beneficiary's bank (`.11`), 2 to an invalid account or UPI address, 1 settled only at the
 * first status check (`.22`), 1 whose reply is lost (`.33`, a time-out) and 1 the bank answers 503 twice
 * (`.44`), and 2 refused by the API for a merchant's empty wallet. So about 3 rail calls in 100 get no
 * definite answer (RailErrorRate pages over 5 %), and 3 payouts in 100 wait a minute or more for a status
 * check (AcceptToSettleSlow is about the slowest 5 %).
 */
class SteadyTraffic {
  /** Merchant API answers by HTTP status. */
  readonly answers = new Map<number, number>();
  private sent = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly api: RunningApi,
    private readonly funded: TestMerchant,
    private readonly empty: TestMerchant,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.sendOne(), 1000 / PAYOUTS_PER_SECOND);
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

  private sendOne(): void {
    const n = this.sent++;
    const imps = n % 2 === 0;
    const slot = Math.floor(n / 2) % 100;
    const paise = MAGIC_PAISE.get(slot);
    const invalidBeneficiary = slot === 17 || slot === 67;
    const merchant = slot === 29 || slot === 79 ? this.empty : this.funded;
    const Amount = `${100 + (n % 50)}.${paise ?? (n % 3 === 0 ? '50' : '00')}`;
    const body = imps
      ? impsBody({ Amount, ...(invalidBeneficiary && { Account: '000012345678' }) })
      : upiBody({ Amount, ...(invalidBeneficiary && { Upi: 'invalid.name@okhdfc' }) });
    const sending = call(this.api, imps ? '/api/impspayout' : '/api/payout', { merchant, body }).then(
      (response) => void this.answers.set(response.status, (this.answers.get(response.status) ?? 0) + 1),
      () => void this.answers.set(0, (this.answers.get(0) ?? 0) + 1),
    );
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }
}

const firingNames = (alerts: PrometheusAlert[]) =>
  [...new Set(alerts.filter((a) => a.state === 'firing').map((a) => a.labels.alertname!))].sort();

/** Waits, pacing the day by the clock, and reads the firing alerts at every evaluation meanwhile. */
async function watchAlertsFor(prometheus: PrivatePrometheus, ms: number): Promise<string[]> {
  const seen = new Set<string>();
  const end = Date.now() + ms;
  while (Date.now() < end) {
    for (const name of firingNames(await prometheus.alerts())) seen.add(name);
    await new Promise((resolve) => setTimeout(resolve, Math.min(INTERVAL_SECONDS * 1000, end - Date.now())));
  }
  return [...seen];
}

/** The alert names that were in `state` at any evaluation of the last `seconds`, from Prometheus's own ALERTS series. */
async function alertsThatWere(prometheus: PrivatePrometheus, state: string, seconds: number): Promise<string[]> {
  const series = await prometheus.query(
    `group by (alertname) (max_over_time(ALERTS{alertstate="${state}"}[${Math.ceil(seconds)}s]))`,
  );
  return series.map((s) => s.metric.alertname!).sort();
}

let postgres: PrivatePostgres | undefined;
let db: PrismaClient | undefined;
let rail: RailSimServer | undefined;
let bank: BankFrontDoor | undefined;
let api: RunningApi | undefined;
let worker: RunningWorker | undefined;
let prometheus: PrivatePrometheus | undefined;
let traffic: SteadyTraffic | undefined;
/** What the report of this test prints at the end: how long each part took. */
const figures: Record<string, string> = {};
const startedAt = Date.now();

beforeAll(async () => {
  postgres = await PrivatePostgres.start();
  const env = { ...process.env, DATABASE_URL: postgres.databaseUrl };
  db = createPrismaClient({ url: postgres.databaseUrl, poolSize: 2, connectTimeoutMs: 5_000 });
  // The simulator as a bank: its defaults, an answer taking 20 ms.
  rail = await createRailSim({ latencyMs: 20 }).listen(0);
  bank = await BankFrontDoor.start(rail.url);
  api = await startApi(loadConfig(apiConfigSchema, { ...env, PORT: '0', HOST: '127.0.0.1', RAIL_BASE_URL: rail.url }));
  // The worker as deployed: every timing at its default (status checks a minute and more apart), only its
  // health port free.
  worker = await startWorker(loadConfig(workerConfigSchema, { ...env, RAIL_BASE_URL: bank.url, HEALTH_PORT: '0' }));
  const local = (url: string) => new URL(url).host;
  prometheus = await PrivatePrometheus.start(
    await localScrapeConfig({
      'payout-api': local(api.adminUrl),
      'payout-worker': `127.0.0.1:${worker.healthPort}`,
      'rail-sim': local(rail.url),
    }),
  );
  traffic = new SteadyTraffic(
    api,
    await makeMerchant(db, { balance: '10000000.00' }),
    await makeMerchant(db, { balance: '0.00' }),
  );
}, 120_000);

afterAll(async () => {
  await traffic?.stop();
  await prometheus?.stop();
  await worker?.close();
  await api?.close();
  await bank?.close();
  await rail?.close();
  await db?.$disconnect();
  await postgres?.destroy();
  figures['whole file'] = `${Math.round((Date.now() - startedAt) / 1000)} s`;
  console.info(`alerts through a day: ${JSON.stringify(figures)}`);
}, 120_000);

describe('the shipped alerts through a day, in real time', () => {
  it(
    'when ten minutes of ordinary payouts are scraped through the shipped configuration, then no alert fires',
    async () => {
      const targets = await eventually(
        () => prometheus!.targets(),
        (found) => found.length === 3 && found.every((t) => t.health === 'up'),
        {
          timeoutMs: 30_000,
          intervalMs: 500,
          what: 'the three jobs of deploy/prometheus/prometheus.yml to be scraped',
        },
      );
      expect(targets.map((t) => [t.labels.job, t.labels.namespace]).sort()).toEqual([
        ['payout-api', NAMESPACE],
        ['payout-worker', NAMESPACE],
        ['rail-sim', NAMESPACE],
      ]);

      const quietFrom = Date.now();
      traffic!.start();
      const firedMeanwhile = await watchAlertsFor(prometheus!, QUIET_DAY_MS);
      const quietSeconds = (Date.now() - quietFrom) / 1000;

      expect(firedMeanwhile).toEqual([]);
      expect(await alertsThatWere(prometheus!, 'firing', quietSeconds)).toEqual([]);
      expect(firingNames(await prometheus!.alerts())).toEqual([]);
      figures['quiet day'] = `${Math.round(quietSeconds)} s`;
      figures['pending at some point on the quiet day (none fired)'] = (
        await alertsThatWere(prometheus!, 'pending', quietSeconds)
      ).join(', ');

      // It was a day of traffic, with the ordinary failures in it: a quiet dashboard with nothing on it would
      // prove nothing. Every merchant answer was a 202 or a 400 (declined, or refused for an empty wallet).
      const answers = traffic!.takeAnswers();
      expect(Object.keys(answers).sort()).toEqual(['202', '400']);
      expect(answers[202]).toBeGreaterThan(PAYOUTS_PER_SECOND * 540 * 0.95);
      const settled = await prometheus!.query(
        `sum by (outcome) (increase(payouts_settled_total{job="payout-worker"}[${Math.ceil(quietSeconds)}s]))`,
      );
      const byOutcome = Object.fromEntries(settled.map((s) => [s.metric.outcome, Number(s.value[1])]));
      expect(byOutcome.SUCCESS).toBeGreaterThan(1000);
      expect(byOutcome.FAILED).toBeGreaterThan(50);
      const [railErrors] = await prometheus!.query(
        `sum(increase(rail_request_duration_seconds_count{job="payout-worker",outcome=~"UNKNOWN|REFUSED"}[${Math.ceil(quietSeconds)}s]))`,
      );
      expect(Number(railErrors?.value[1])).toBeGreaterThan(10);
    },
    QUIET_DAY_MS + 120_000,
  );

  it(
    'when the bank answers 503, then RailErrorRate and the bank alerts fire within their `for:`, and resolve once the bank is back',
    async () => {
      const downAt = Date.now();
      bank!.down = true;

      const railErrorRate = (alerts: PrometheusAlert[]) => alerts.find((a) => a.labels.alertname === 'RailErrorRate');
      const alerts = await eventually(
        () => prometheus!.alerts(),
        (now) => railErrorRate(now)?.state === 'firing',
        { timeoutMs: RAIL_ERROR_RATE_FOR_MS + 120_000, intervalMs: 1_000, what: 'RailErrorRate to fire' },
      );
      const firedAt = Date.now();
      const fired = railErrorRate(alerts)!;
      const activeAt = Date.parse(fired.activeAt);
      figures['bank down → RailErrorRate pending'] = `${Math.round((activeAt - downAt) / 1000)} s`;
      figures['bank down → RailErrorRate firing'] = `${Math.round((firedAt - downAt) / 1000)} s`;

      // The only bank is out of routing too (docs/banks.md): its two alerts, whose `for:` is shorter, fire as well.
      expect(firingNames(alerts)).toEqual(OUTAGE_ALERTS);
      expect(fired.labels).toMatchObject({ namespace: NAMESPACE, severity: 'critical' });
      expect(fired.annotations.runbook_url).toBe('docs/operations.md#railerrorrate');
      // Its condition holds once errors are over 5 % of the calls in the 5-minute window: at this traffic ten to
      // twenty seconds of refusals, plus a scrape and an evaluation.
      expect(activeAt - downAt).toBeLessThan(60_000);
      // Then it fires at the first evaluation after its `for:` (and is seen at the next poll).
      expect(firedAt - activeAt).toBeGreaterThanOrEqual(RAIL_ERROR_RATE_FOR_MS);
      expect(firedAt - activeAt).toBeLessThan(RAIL_ERROR_RATE_FOR_MS + 2 * INTERVAL_SECONDS * 1000 + 1_000);

      const backAt = Date.now();
      bank!.down = false;
      await eventually(
        () => prometheus!.alerts(),
        (now) => firingNames(now).length === 0,
        { timeoutMs: 8 * 60_000, intervalMs: 1_000, what: 'RailErrorRate to resolve once the bank answers again' },
      );
      figures['bank back → resolved'] = `${Math.round((Date.now() - backAt) / 1000)} s`;

      // Nothing else pages later for the same outage: no critical alert is even pending now. (Tickets may be:
      // the outage's payouts settle only at their next status check, a quarter of an hour and more later.)
      const left = await prometheus!.alerts();
      expect(left.filter((a) => a.labels.severity === 'critical').map((a) => a.labels.alertname)).toEqual([]);
      figures['warnings pending when RailErrorRate resolved'] = left.map((a) => a.labels.alertname).join(', ');

      // Over the whole outage and its end, one page and nothing else; and the merchants saw no error of ours.
      expect(await alertsThatWere(prometheus!, 'firing', (Date.now() - downAt) / 1000)).toEqual(OUTAGE_ALERTS);
      figures['pending at some point of the bad day'] = (
        await alertsThatWere(prometheus!, 'pending', (Date.now() - downAt) / 1000)
      ).join(', ');
      expect(Object.keys(traffic!.takeAnswers()).sort()).toEqual(['202', '400']);
    },
    RAIL_ERROR_RATE_FOR_MS + 12 * 60_000,
  );
});
