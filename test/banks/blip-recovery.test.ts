import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRailSim, type RailSim, type RailSimServer } from '@payout/rail-sim';
import { setBankControlAction, type ConfiguredBank } from '@payout/use-cases';
import { startWorker, type RunningWorker } from '@payout/worker';
import { useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { FAST_RAIL, workerConfig } from '../support/stack.js';
import { startSwitchableBank, type SwitchableBank } from './switchable-bank.js';
import {
  downtimes,
  eliminated,
  payoutsByAckNo,
  productionInquirySchedule,
  scoredAfter,
  sendPayouts,
  twoBanks,
  type PayoutRow,
} from './support.js';

// A bank's return is acted on at once (docs/banks.md, "When a bank comes back"). The payouts it answered 503
// while it was down are OUTCOME_UNKNOWN with it — a 503 is no "not paid", so they may not leave it ("Never two
// banks") — and on the production schedule their first status check is a minute after the submit, the next
// ones 15 minutes apart. When the bank comes back (routing sees it healthy again, or an operator resumes it),
// they are asked about at once, and its NOT_FOUND, now that it serves again, sends each again under the same
// reference: settled within seconds of its return, each paid once, by that bank. Routing judges as in
// production (a bank down after ROUTING_DOWN_AFTER_FAILURES failures in a row), but refreshes every 100 ms
// and sends half the new payouts to an eliminated bank as probes, two good ones bringing it back, so its
// return is seen from a handful of payouts; the status checks keep their production schedule.

const prisma = testPrisma();
const pool: pg.Pool = testPool();
const SCHEDULE = productionInquirySchedule();
/** Well within the first status check of the schedule: a payout settled sooner was not waiting for it. */
const SOON_MS = 10_000;
let primary: SwitchableBank;
let secondary: SwitchableBank;
let merchant: TestMerchant;

beforeAll(async () => {
  primary = await startSwitchableBank('up');
  secondary = await startSwitchableBank('up');
  merchant = await makeMerchant(prisma, { balance: '5000.00' });
});
const api = useApi(() => ({ BANKS: twoBanks(primary.url, secondary.url, [1, 0]) }));
afterAll(async () => {
  await primary.close();
  await secondary.close();
  await prisma.$disconnect();
  await pool.end();
});

/** Waits until every one of these payouts is in `state`. */
function allOf(ackNos: string[], state: string, timeoutMs = 10_000): Promise<PayoutRow[]> {
  return eventually(
    () => payoutsByAckNo(pool, ackNos),
    (rows) => rows.length === ackNos.length && rows.every((r) => r.state === state),
    { timeoutMs, what: `${ackNos.length} payouts to be ${state}` },
  );
}

/** Routing as in production, seen within 100 ms, and an eliminated bank's return seen from a few payouts. */
const ROUTING = {
  ROUTING_REFRESH_MS: '100',
  ROUTING_HOLD_RETRY_MS: '200',
  ROUTING_PROBE_SHARE: '0.5',
  ROUTING_RECOVER_MIN_OUTCOMES: '2',
  // Every submit here is answered at once: a time-out would only be a busy machine.
  RAIL_RESPONSE_TIMEOUT_MS: '2000',
};

/**
 * Sends one payout every poll until `done` holds (given the payouts sent so far): traffic, which shows where
 * routing sends new payouts, and whose probes let it see a bank's return.
 */
function withTraffic<T>(probe: (sent: string[]) => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const sent: string[] = [];
  return eventually(
    async () => {
      sent.push(...(await sendPayouts(api.current, merchant, 1)));
      return probe(sent);
    },
    done,
    { timeoutMs: 15_000, intervalMs: 100, what },
  );
}

describe('a bank down for a moment, then back: the payouts it left undecided', () => {
  let worker: RunningWorker;
  beforeAll(async () => {
    // The schedule is the production one: a payout settled within seconds was not waiting for it.
    expect(Number(SCHEDULE.INQUIRY_IMPS_FIRST_DELAY_MS)).toBeGreaterThanOrEqual(60_000);
    expect(Number(SCHEDULE.INQUIRY_IMPS_SPACING_MS)).toBeGreaterThanOrEqual(15 * 60_000);
    worker = await startWorker(
      workerConfig({
        BANKS: twoBanks(primary.url, secondary.url, [1, 0]),
        ...ROUTING,
        ...SCHEDULE,
      }),
    );
  });
  afterAll(() => worker.close());

  it('when an operator pauses a bank that answered 503 and resumes it once it is back, then its caught payouts are asked about at the resume and settle within seconds, paid once by that bank', async () => {
    const banks: ConfiguredBank[] = ['primary', 'secondary'].map((name) => ({
      name,
      modes: ['IMPS', 'UPI'],
      weight: 1,
      maxTps: 200,
      enabled: true,
    }));
    const operator = (action: 'pause' | 'resume', reason: string) =>
      setBankControlAction({ db: prisma, banks }, { bank: 'primary', action, actor: 'cli:on-call', reason });

    primary.manner = 'down';
    // Too few failures for routing to take the bank out: only the operator does.
    const caught = await sendPayouts(api.current, merchant, 3);
    const unknown = await allOf(caught, 'OUTCOME_UNKNOWN');
    expect(unknown.map((r) => r.bank)).toEqual(caught.map(() => 'primary'));
    expect(await eliminated(pool, 'primary')).toBe(false);

    expect(await operator('pause', 'the bank reports an incident on its side')).toEqual({
      kind: 'changed',
      from: 'ACTIVE',
      to: 'PAUSED',
    });
    // The bank is fixed while it is paused; once the workers see the hold, new payouts go to the other bank.
    primary.manner = 'up';
    await withTraffic(
      (sent) => payoutsByAckNo(pool, sent),
      (rows) => rows.some((r) => r.bank === 'secondary'),
      'a new payout routed to secondary while primary is paused',
    );
    expect(caught.filter((reference) => primary.statusChecks.has(reference))).toEqual([]);

    const resumedAt = Date.now();
    expect(await operator('resume', 'the bank says it is fixed')).toMatchObject({ kind: 'changed', to: 'ACTIVE' });
    const settled = await allOf(caught, 'SUCCESS', SOON_MS);
    expect(Date.now() - resumedAt).toBeLessThan(SOON_MS);
    expect(settled.map((r) => r.bank)).toEqual(caught.map(() => 'primary'));
    for (const reference of caught) {
      // Asked after the resume, not a minute after its submit; then sent again under the same reference.
      const asked = primary.statusChecks.get(reference) ?? [];
      expect(asked.length, `status checks of ${reference}`).toBeGreaterThan(0);
      expect(Math.min(...asked)).toBeGreaterThanOrEqual(resumedAt);
      expect(primary.submits.get(reference)).toHaveLength(2);
      expect(primary.paid.has(reference)).toBe(true);
      expect(secondary.submits.has(reference)).toBe(false);
    }
  });

  it('when a bank answers 503 until routing takes it out and then pays again, then the payouts it answered 503 are asked about as soon as it is back and settle within seconds, each paid once by that bank and never by the other', async () => {
    await scoredAfter(pool, 'primary', primary.lastSubmitAt());
    primary.manner = 'down';
    // As many failures in a row as take a bank out (ROUTING_DOWN_AFTER_FAILURES, 10 by default).
    const caught = await sendPayouts(api.current, merchant, 10);
    await allOf(caught, 'OUTCOME_UNKNOWN');
    await eventually(
      () => eliminated(pool, 'primary'),
      (is) => is,
      { what: 'primary to be eliminated for IMPS' },
    );
    expect(await downtimes(pool)).toEqual([{ bank: 'primary', mode: 'IMPS', status: 'DOWN', resolved: false }]);

    primary.manner = 'up';
    const upAt = Date.now();
    await withTraffic(
      () => downtimes(pool),
      (list) => list.length === 1 && list[0]!.resolved,
      'the downtime of primary to be resolved',
    );
    const settled = await allOf(caught, 'SUCCESS', SOON_MS);
    expect(Date.now() - upAt).toBeLessThan(SOON_MS);
    expect(settled.map((r) => r.bank)).toEqual(caught.map(() => 'primary'));
    for (const reference of caught) {
      expect(Math.min(...(primary.statusChecks.get(reference) ?? [0]))).toBeGreaterThanOrEqual(upAt);
      expect(primary.paid.get(reference)! - upAt).toBeLessThan(SOON_MS);
      expect(secondary.submits.has(reference)).toBe(false);
    }
    // Every payout of the file, caught or not, was paid by exactly one bank.
    const all = await eventually(
      () =>
        pool.query<{ ack_no: string; state: string; bank: string }>(`SELECT ack_no, state::text, bank FROM payouts`),
      ({ rows }) => rows.every((r) => r.state === 'SUCCESS'),
      { what: 'every payout of the file to be paid' },
    );
    for (const row of all.rows) {
      expect([primary.paid.has(row.ack_no), secondary.paid.has(row.ack_no)], row.ack_no).toEqual([
        row.bank === 'primary',
        row.bank === 'secondary',
      ]);
    }
    await expectBooksBalanced(pool, merchant.merchant.id);
  });
});

describe('a rail simulator down for a moment, then back', () => {
  // Aliases of their own: the switchable banks' health and downtimes above are not theirs.
  const sims: { sim: RailSim; server: RailSimServer }[] = [];
  let worker: RunningWorker;
  let simBanks: string;
  beforeAll(async () => {
    for (const name of ['sim-primary', 'sim-secondary']) {
      const sim = createRailSim({ ...FAST_RAIL, name });
      sims.push({ sim, server: await sim.listen(0) });
    }
    simBanks = JSON.stringify([
      { name: 'sim-primary', baseUrl: sims[0]!.server.url, maxTps: 200, weight: 1 },
      { name: 'sim-secondary', baseUrl: sims[1]!.server.url, maxTps: 200, weight: 0 },
    ]);
    worker = await startWorker(workerConfig({ BANKS: simBanks, ...ROUTING, ...SCHEDULE }));
  });
  afterAll(async () => {
    await worker.close();
    for (const { server } of sims) await server.close();
  });

  it('when its `down` fault ends, then the payouts it answered 503 settle within seconds, paid once by it and unknown to the other', async () => {
    const [atPrimary, atSecondary] = [sims[0]!.sim, sims[1]!.sim];
    atPrimary.switchFaults({ down: true });
    const caught = await sendPayouts(api.current, merchant, 10);
    await allOf(caught, 'OUTCOME_UNKNOWN');
    await eventually(
      () => eliminated(pool, 'sim-primary'),
      (is) => is,
      { what: 'sim-primary to be eliminated for IMPS' },
    );
    expect(caught.filter((reference) => atPrimary.payout(reference) !== undefined)).toEqual([]);

    atPrimary.switchFaults({});
    const upAt = Date.now();
    await withTraffic(
      () => downtimes(pool),
      (list) => list.some((d) => d.bank === 'sim-primary' && d.resolved),
      'the downtime of sim-primary to be resolved',
    );
    const settled = await allOf(caught, 'SUCCESS', SOON_MS);
    expect(Date.now() - upAt).toBeLessThan(SOON_MS);
    expect(settled.map((r) => r.bank)).toEqual(caught.map(() => 'sim-primary'));
    for (const reference of caught) {
      expect(atPrimary.payout(reference)?.status, reference).toBe('SUCCESS');
      expect(atSecondary.payout(reference), reference).toBeUndefined();
    }
    await expectBooksBalanced(pool, merchant.merchant.id);
  });
});
