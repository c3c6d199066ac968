import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '@payout/worker';
import { call, useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { workerConfig } from '../support/stack.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';
import { registerEndpoint } from '../webhooks/webhook-fixtures.js';
import { startSwitchableBank, type SwitchableBank } from './switchable-bank.js';
import {
  bankHealth,
  downtimes,
  eliminated,
  payoutsByAckNo,
  productionInquirySchedule,
  scoredAfter,
  sendPayouts,
  twoBanks,
} from './support.js';

// A downtime declared when it is plain (docs/banks.md, "Health"): a bank whose window is full of payouts it
// paid, and which then answers nothing but failures — 503s, refused connections, time-outs — is taken out by
// its newest failures in a row, not by its share of good answers over the window (which its history would
// hold above the threshold for a long while): at ROUTING_DOWN_AFTER_FAILURES of them, or once the first and
// the last of two or more are ROUTING_DOWN_AFTER_MS apart, as at a trickle of traffic. Its downtime opens and
// every merchant with an endpoint hears of it at once — the webhook sweep is an hour away here, so nothing
// waits for it — and sees it in GET /api/downtimes; when the bank answers again, its probes bring it back and
// the merchant hears that too. Routing's window, scoring thresholds and the status-check schedule are the
// production ones; routing refreshes every 250 ms, and half the new payouts probe an eliminated bank, so its
// return is seen from a handful of payouts.

const DOWN_AFTER_FAILURES = 10;
const DOWN_AFTER_MS = 3_000;
/** What a merchant may wait for the news of a plain outage, at under a payout a second. */
const TOLD_WITHIN_MS = 30_000;
const prisma = testPrisma();
const pool: pg.Pool = testPool();
let primary: SwitchableBank;
let secondary: SwitchableBank;
let worker: RunningWorker;
let merchant: TestMerchant;
let endpoint: WebhookReceiver;

beforeAll(async () => {
  primary = await startSwitchableBank('up');
  secondary = await startSwitchableBank('up');
});
const api = useApi(() => ({ BANKS: twoBanks(primary.url, secondary.url, [1, 0]) }));
beforeAll(async () => {
  worker = await startWorker(
    workerConfig({
      // `secondary` takes payouts only when `primary` does not serve.
      BANKS: twoBanks(primary.url, secondary.url, [1, 0]),
      ...productionInquirySchedule(),
      ROUTING_DOWN_AFTER_FAILURES: String(DOWN_AFTER_FAILURES),
      ROUTING_DOWN_AFTER_MS: String(DOWN_AFTER_MS),
      ROUTING_REFRESH_MS: '250',
      ROUTING_HOLD_RETRY_MS: '200',
      ROUTING_PROBE_SHARE: '0.5',
      SWEEP_INTERVAL_MS: '3600000',
      // Long enough for a burst of 25 submits on a busy machine; a bank that holds a submit is cut off at it.
      RAIL_RESPONSE_TIMEOUT_MS: '2000',
    }),
  );
  merchant = await makeMerchant(prisma, { balance: '100000.00' });
  endpoint = await WebhookReceiver.start('/hooks/payouts');
  await registerEndpoint(prisma, merchant, endpoint.url);
});
afterAll(async () => {
  await worker.close();
  await primary.close();
  await secondary.close();
  await endpoint.close();
  await prisma.$disconnect();
  await pool.end();
});

/** The downtime webhooks the merchant has received, with when (its payouts' webhooks come to the same URL). */
function downtimeEvents(): { event: string; bank: string; mode: string; status: string; at: number }[] {
  return endpoint.received.flatMap((r) => {
    const body = JSON.parse(r.body) as { event: string; bank: string; mode: string; status: string };
    return body.event.startsWith('downtime.')
      ? [{ event: body.event, bank: body.bank, mode: body.mode, status: body.status, at: r.at }]
      : [];
  });
}

/** A window full of payouts the primary paid: scored, and healthy; the failures to come start a second later. */
async function healthyHistory(): Promise<void> {
  const sent = await sendPayouts(api.current, merchant, 25);
  const rows = await eventually(
    () => payoutsByAckNo(pool, sent),
    (list) => list.every((r) => r.state === 'SUCCESS'),
    { what: 'the history payouts to be paid' },
  );
  expect(rows.map((r) => r.bank)).toEqual(sent.map(() => 'primary'));
  await eventually(
    () => bankHealth(pool, 'primary'),
    (health) => health?.score === 1 && health.paid >= 20,
    { what: 'primary to be scored 1 over its history' },
  );
  await scoredAfter(pool, 'primary', primary.lastSubmitAt());
}

/** The bank answers again: traffic until its probes bring it back, and the merchant is told (its `nth` downtime). */
async function comesBack(nth: number): Promise<void> {
  await primary.switchTo('up');
  await eventually(
    async () => {
      await sendPayouts(api.current, merchant, 1);
      return downtimes(pool);
    },
    (list) => list.length > 0 && list.every((d) => d.resolved),
    { timeoutMs: 15_000, intervalMs: 100, what: 'the downtime of primary to be resolved' },
  );
  expect(await eliminated(pool, 'primary')).toBe(false);
  const events = await eventually(
    () => Promise.resolve(downtimeEvents()),
    (list) => list.length === 2 * nth,
    { what: 'the merchant to receive downtime.resolved' },
  );
  expect(events.at(-1)).toMatchObject({ event: 'downtime.resolved', bank: 'primary', mode: 'IMPS' });
  const listed = await call(api.current, '/api/downtimes', { merchant });
  expect(listed.json.downtimes).toEqual([]);
  // The workers read the standing every ROUTING_REFRESH_MS: new payouts go to the bank again once they have.
  const sent: string[] = [];
  await eventually(
    async () => {
      sent.push(...(await sendPayouts(api.current, merchant, 1)));
      return payoutsByAckNo(pool, sent);
    },
    (rows) => rows.some((r) => r.routing?.bank === 'primary' && r.routing.reason !== 'probe'),
    { intervalMs: 100, what: 'a new payout routed to primary, not as a probe' },
  );
}

describe('a healthy bank that answers nothing but failures', () => {
  it('when a bank with a window full of paid payouts answers 503 to every submit, then it is eliminated at the configured failures in a row, its downtime opened, told to the merchant and listed by GET /api/downtimes', async () => {
    await healthyHistory();
    primary.manner = 'down';
    const before = await call(api.current, '/api/downtimes', { merchant });
    expect(before.json.downtimes).toEqual([]);

    // One failure short: its share of good answers is still far above the threshold, and it serves on.
    const first = await sendPayouts(api.current, merchant, DOWN_AFTER_FAILURES - 1);
    const unknown = await eventually(
      () => payoutsByAckNo(pool, first),
      (rows) => rows.every((r) => r.state === 'OUTCOME_UNKNOWN'),
      { what: 'the payouts answered 503 to be OUTCOME_UNKNOWN' },
    );
    expect(unknown.map((r) => r.bank)).toEqual(first.map(() => 'primary'));
    const counted = await eventually(
      () => bankHealth(pool, 'primary'),
      (health) => (health?.technical ?? 0) >= DOWN_AFTER_FAILURES - 1,
      { what: 'routing to have scored the failures' },
    );
    expect(counted).toMatchObject({ eliminated: false });
    expect(counted!.score).toBeGreaterThan(0.5);
    expect(await downtimes(pool)).toEqual([]);

    const lastSentAt = Date.now();
    await sendPayouts(api.current, merchant, 1);
    await eventually(
      () => eliminated(pool, 'primary'),
      (is) => is,
      { timeoutMs: 5_000, what: 'primary to be eliminated for IMPS' },
    );
    expect(await downtimes(pool)).toEqual([{ bank: 'primary', mode: 'IMPS', status: 'DOWN', resolved: false }]);
    const told = await eventually(
      () => Promise.resolve(downtimeEvents()),
      (list) => list.length > 0,
      { timeoutMs: TOLD_WITHIN_MS, what: 'the merchant to receive downtime.started' },
    );
    expect(told).toEqual([
      { event: 'downtime.started', bank: 'primary', mode: 'IMPS', status: 'DOWN', at: told[0]!.at },
    ]);
    expect(told[0]!.at - lastSentAt).toBeLessThan(TOLD_WITHIN_MS);
    const listed = await call(api.current, '/api/downtimes', { merchant });
    expect(listed.status).toBe(200);
    expect(listed.json.downtimes).toEqual([
      { mode: 'IMPS', bank: 'primary', since: expect.any(String) as unknown, status: 'DOWN' },
    ]);

    await comesBack(1);
  });

  for (const manner of ['refused', 'hang'] as const) {
    const failing = manner === 'refused' ? 'refuses every connection' : 'lets every submit time out';
    it(`when a bank with a window full of paid payouts ${failing} while payouts trickle in under one a second, then it is eliminated once its failures span ROUTING_DOWN_AFTER_MS, and the merchant hears of it within 30 s`, async () => {
      const startedBefore = downtimeEvents().filter((e) => e.event === 'downtime.started').length;
      await healthyHistory();
      await primary.switchTo(manner);
      const failingFrom = Date.now();
      let sent = 0;
      await eventually(
        async () => {
          await sendPayouts(api.current, merchant, 1);
          sent++;
          return eliminated(pool, 'primary');
        },
        (is) => is,
        // A few times ROUTING_DOWN_AFTER_MS, and within the test's own time-out.
        { timeoutMs: 5 * DOWN_AFTER_MS, intervalMs: 1_100, what: 'primary to be eliminated for IMPS' },
      );
      // Far fewer failures than the count that takes a bank out at once: the time between them did.
      expect(sent).toBeGreaterThanOrEqual(2);
      expect(sent).toBeLessThan(DOWN_AFTER_FAILURES);
      const told = await eventually(
        () => Promise.resolve(downtimeEvents().filter((e) => e.event === 'downtime.started')),
        (list) => list.length > startedBefore,
        { timeoutMs: TOLD_WITHIN_MS, what: 'the merchant to receive downtime.started' },
      );
      expect(told.at(-1)).toMatchObject({ bank: 'primary', mode: 'IMPS', status: 'DOWN' });
      expect(told.at(-1)!.at - failingFrom).toBeLessThan(TOLD_WITHIN_MS);
      const listed = await call(api.current, '/api/downtimes', { merchant });
      expect(listed.json.downtimes).toEqual([
        { mode: 'IMPS', bank: 'primary', since: expect.any(String) as unknown, status: 'DOWN' },
      ]);

      await comesBack(startedBefore + 1);
    });
  }
});
