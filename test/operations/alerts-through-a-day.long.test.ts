import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import {
  alertsThatWere,
  firingNames,
  MonitoredStack,
  NAMESPACE,
  SteadyTraffic,
  untilFiring,
  watchAlertsFor,
} from '../support/monitored-stack.js';

// The shipped monitoring through a day, in real time (docs/operations.md, "Alerts: what each means and what
// to do"), on a stack of its own watched by a real Prometheus (test/support/monitored-stack.ts). Ten minutes
// of ordinary traffic page nobody; then the bank answers 503 and exactly the outage's alerts fire, once
// each, and resolve after the bank is back; of them, the example Alertmanager configuration's inhibitions
// page only AllBanksDownForMode. About 20 minutes, mostly waiting: `pnpm test:long` runs it (README).

const QUIET_DAY_MS = 10 * 60_000;
const PAYOUTS_PER_SECOND = 3;
/**
 * What a bank outage of a one-bank deployment fires: the bank out of routing for both modes, and no bank
 * answering. RailErrorRate is quiet: it says nothing of a bank routing has eliminated.
 */
const OUTAGE_ALERTS = ['AllBanksDownForMode', 'AllBanksFailing', 'BankEliminated'];
/**
 * AllBanksFailing fires within 8 minutes of the last definite answer (docs/operations.md, "AllBanksFailing"):
 * its 5 minutes' window, its 2 minutes' `for:`, scrapes and evaluations.
 */
const ALL_BANKS_FAILING_WITHIN_MS = 8 * 60_000;

let stack: MonitoredStack | undefined;
let traffic: SteadyTraffic | undefined;
/** What the report of this test prints at the end: how long each part took. */
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
  console.info(`alerts through a day: ${JSON.stringify(figures)}`);
}, 120_000);

describe('the shipped alerts through a day, in real time', () => {
  it(
    'when ten minutes of ordinary payouts are scraped through the shipped configuration, then no alert fires',
    async () => {
      await stack!.scraped();
      const prometheus = stack!.prometheus;

      const quietFrom = Date.now();
      traffic!.start();
      const meanwhile = await watchAlertsFor(prometheus, QUIET_DAY_MS);
      const quietSeconds = (Date.now() - quietFrom) / 1000;

      expect(meanwhile).toEqual({ firing: [], paged: [] });
      expect(await alertsThatWere(prometheus, 'firing', quietSeconds)).toEqual([]);
      expect(firingNames(await prometheus.alerts())).toEqual([]);
      figures['quiet day'] = `${Math.round(quietSeconds)} s`;
      figures['pending at some point on the quiet day (none fired)'] = (
        await alertsThatWere(prometheus, 'pending', quietSeconds)
      ).join(', ');

      // It was a day of traffic, with the ordinary failures in it: a quiet dashboard with nothing on it would
      // prove nothing. Every merchant answer was a 202 or a 400 (declined, or refused for an empty wallet).
      const answers = traffic!.takeAnswers();
      expect(Object.keys(answers).sort()).toEqual(['202', '400']);
      expect(answers[202]).toBeGreaterThan(PAYOUTS_PER_SECOND * 540 * 0.95);
      const settled = await prometheus.query(
        `sum by (outcome) (increase(payouts_settled_total{job="payout-worker"}[${Math.ceil(quietSeconds)}s]))`,
      );
      const byOutcome = Object.fromEntries(settled.map((s) => [s.metric.outcome, Number(s.value[1])]));
      expect(byOutcome.SUCCESS).toBeGreaterThan(1000);
      expect(byOutcome.FAILED).toBeGreaterThan(50);
      const [railErrors] = await prometheus.query(
        `sum(increase(rail_request_duration_seconds_count{job="payout-worker",outcome=~"UNKNOWN|REFUSED"}[${Math.ceil(quietSeconds)}s]))`,
      );
      expect(Number(railErrors?.value[1])).toBeGreaterThan(10);
    },
    QUIET_DAY_MS + 120_000,
  );

  it(
    'when the bank answers 503, then the bank alerts fire and AllBanksFailing within its documented time, one page, and they resolve once the bank is back',
    async () => {
      const { prometheus, bank } = stack!;
      const downAt = Date.now();
      bank.down = true;

      const { alerts, fired, firedAt, paged } = await untilFiring(
        prometheus,
        'AllBanksFailing',
        ALL_BANKS_FAILING_WITHIN_MS + 60_000,
      );
      figures['bank down → AllBanksFailing pending'] = `${Math.round((Date.parse(fired.activeAt) - downAt) / 1000)} s`;
      figures['bank down → AllBanksFailing firing'] = `${Math.round((firedAt - downAt) / 1000)} s`;
      expect(firedAt - downAt).toBeLessThan(ALL_BANKS_FAILING_WITHIN_MS);
      expect(fired.labels).toMatchObject({ namespace: NAMESPACE, severity: 'critical' });
      expect(fired.annotations.runbook_url).toBe('docs/operations.md#allbanksfailing');

      // The only bank is out of routing too (docs/banks.md): its two alerts, whose `for:` is shorter, fired
      // first, and the first of them pages alone; the elimination and the counts say the same outage.
      expect(firingNames(alerts)).toEqual(OUTAGE_ALERTS);
      expect([...paged]).toEqual(['AllBanksDownForMode']);

      const backAt = Date.now();
      bank.down = false;
      await eventually(
        () => prometheus.alerts(),
        (now) => firingNames(now).length === 0,
        { timeoutMs: 8 * 60_000, intervalMs: 1_000, what: 'the outage alerts to resolve once the bank answers again' },
      );
      figures['bank back → resolved'] = `${Math.round((Date.now() - backAt) / 1000)} s`;

      // Nothing else pages later for the same outage: a critical alert still pending (settlements behind
      // acceptance, while the outage's payouts wait for their next status check) clears before its `for:`.
      // (Tickets may stay pending: those payouts settle a quarter of an hour and more later.)
      figures['pending when the outage resolved'] = (await prometheus.alerts())
        .map((a) => a.labels.alertname)
        .join(', ');
      await eventually(
        () => prometheus.alerts(),
        (now) => now.every((a) => a.labels.severity !== 'critical'),
        { timeoutMs: 10 * 60_000, intervalMs: 1_000, what: 'no critical alert to be pending after the outage' },
      );
      figures['bank back → no critical alert pending'] = `${Math.round((Date.now() - backAt) / 1000)} s`;

      // Over the whole outage and its end, these and nothing else: RailErrorRate never fires for the bank
      // routing took out. And the merchants saw no error of ours.
      expect(await alertsThatWere(prometheus, 'firing', (Date.now() - downAt) / 1000)).toEqual(OUTAGE_ALERTS);
      figures['pending at some point of the bad day'] = (
        await alertsThatWere(prometheus, 'pending', (Date.now() - downAt) / 1000)
      ).join(', ');
      expect(Object.keys(traffic!.takeAnswers()).sort()).toEqual(['202', '400']);
    },
    ALL_BANKS_FAILING_WITHIN_MS + 20 * 60_000,
  );
});
