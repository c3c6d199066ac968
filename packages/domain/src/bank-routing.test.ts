import { describe, expect, it } from 'vitest';
import type { BankControlState } from './banks.js';
import {
  assessBankHealth,
  bankOutcomeOf,
  DEFAULT_ROUTING_SETTINGS,
  healthKey,
  isServing,
  mayCallBank,
  NO_OUTCOMES,
  NO_RUN,
  recentRun,
  routePayout,
  type BankHealth,
  type BankLandscape,
  type OutcomeCounts,
  type RoutableBank,
  type RoutingRequest,
} from './bank-routing.js';

const settings = DEFAULT_ROUTING_SETTINGS;
const now = new Date('2026-11-28T10:00:00.000Z');
const bank = (name: string, extra: Partial<RoutableBank> = {}): RoutableBank => ({
  name,
  modes: ['IMPS', 'UPI'],
  weight: 1,
  enabled: true,
  ...extra,
});

function landscape(
  banks: RoutableBank[],
  health: Record<string, BankHealth> = {},
  controls: Record<string, BankControlState> = {},
): BankLandscape {
  return { banks, health: new Map(Object.entries(health)), controls: new Map(Object.entries(controls)) };
}

/** A random source that returns the given numbers in turn. */
function draws(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

const imps = (random: () => number, extra: Partial<RoutingRequest> = {}): RoutingRequest => ({
  mode: 'IMPS',
  now,
  random,
  ...extra,
});
const healthy = (score: number | null): BankHealth => ({ score, eliminated: false });
const down = (score: number | null): BankHealth => ({ score, eliminated: true });

describe('assessBankHealth: the score and elimination, with hysteresis', () => {
  it('when the window holds too few outcomes, then the bank is unscored and keeps its standing', () => {
    expect(assessBankHealth({ paid: 1, refused: 0, technical: 18, timeouts: 0 }, false, settings)).toEqual({
      score: null,
      eliminated: false,
    });
    expect(assessBankHealth({ paid: 0, refused: 0, technical: 0, timeouts: 0 }, true, settings)).toEqual({
      score: null,
      eliminated: true,
    });
  });

  it('when the share of work done falls below the elimination threshold, then the bank is eliminated', () => {
    expect(assessBankHealth({ paid: 9, refused: 1, technical: 8, timeouts: 2 }, false, settings)).toEqual({
      score: 0.45,
      eliminated: true,
    });
    expect(assessBankHealth({ paid: 10, refused: 0, technical: 10, timeouts: 0 }, false, settings)).toEqual({
      score: 0.5,
      eliminated: false,
    });
  });

  it('when an eliminated bank scores between the two thresholds, then it stays eliminated; at the recovery threshold over its probes, it is back', () => {
    expect(assessBankHealth({ paid: 7, refused: 0, technical: 3, timeouts: 0 }, true, settings).eliminated).toBe(true);
    expect(assessBankHealth({ paid: 4, refused: 0, technical: 1, timeouts: 0 }, true, settings)).toEqual({
      score: 0.8,
      eliminated: false,
    });
    // Too few probes to judge: still eliminated.
    expect(assessBankHealth({ paid: 4, refused: 0, technical: 0, timeouts: 0 }, true, settings).eliminated).toBe(true);
  });
});

describe('a hard outage and a clean recovery, judged by the newest run', () => {
  const second = (n: number, counts: Partial<OutcomeCounts>) => ({ second: n, counts: { ...NO_OUTCOMES, ...counts } });

  it('when the newest seconds hold only failures, then they are a failing run back to the last second the bank answered', () => {
    const seconds = [
      second(100, { paid: 30 }),
      second(104, { technical: 3 }),
      second(101, { paid: 2, technical: 1 }),
      second(103, { timeouts: 2 }),
    ];
    expect(recentRun(seconds, 104)).toEqual({ failures: 5, failingForMs: 1000, healthy: 0 });
    // Nothing healthy since: the run lasts until now, though routing has stopped sending the bank payouts.
    expect(recentRun(seconds, 120)).toEqual({ failures: 5, failingForMs: 17_000, healthy: 0 });
    // A refusal is the bank answering: it ends the failing run without counting as work done.
    expect(recentRun([second(10, { technical: 4 }), second(11, { refused: 1 })], 11)).toEqual(NO_RUN);
    expect(recentRun([], 11)).toEqual(NO_RUN);
  });

  it('when the newest seconds hold no failure, then their paid submits are a healthy run', () => {
    expect(
      recentRun([second(1, { technical: 9 }), second(2, { paid: 3 }), second(3, { paid: 1, refused: 1 })], 9),
    ).toEqual({
      failures: 0,
      failingForMs: 0,
      healthy: 4,
    });
  });

  it('when a bank with a healthy window fails the configured submits in a row, then it is eliminated at once', () => {
    const healthyWindow = { paid: 200, refused: 0, technical: 9, timeouts: 0 };
    expect(assessBankHealth(healthyWindow, false, settings, { failures: 9, failingForMs: 2000, healthy: 0 })).toEqual({
      score: 200 / 209,
      eliminated: false,
    });
    expect(
      assessBankHealth({ ...healthyWindow, technical: 10 }, false, settings, {
        failures: 10,
        failingForMs: 2000,
        healthy: 0,
      }).eliminated,
    ).toBe(true);
  });

  it('when traffic is low, then two failures or more with nothing healthy for the configured time eliminate the bank, and one does not', () => {
    const few = { paid: 3, refused: 0, technical: 2, timeouts: 0 };
    const span = settings.downAfterMs;
    expect(assessBankHealth(few, false, settings, { failures: 2, failingForMs: span, healthy: 0 })).toEqual({
      score: null,
      eliminated: true,
    });
    expect(
      assessBankHealth(few, false, settings, { failures: 2, failingForMs: span - 1000, healthy: 0 }).eliminated,
    ).toBe(false);
    expect(
      assessBankHealth(few, false, settings, { failures: 1, failingForMs: 10 * span, healthy: 0 }).eliminated,
    ).toBe(false);
  });

  it('when an eliminated bank does its work on its newest probes, then it is back once they reach the recovery count', () => {
    const probes = { paid: 5, refused: 0, technical: 12, timeouts: 0 };
    expect(assessBankHealth(probes, true, settings, { failures: 0, failingForMs: 0, healthy: 4 }).eliminated).toBe(
      true,
    );
    expect(assessBankHealth(probes, true, settings, { failures: 0, failingForMs: 0, healthy: 5 }).eliminated).toBe(
      false,
    );
  });
});

describe('bankOutcomeOf: what a submit answer counts as', () => {
  it("counts a beneficiary's decline as the bank working, a rail rejection or a 4xx as a refusal, and no answer as technical or a time-out", () => {
    expect(bankOutcomeOf({ outcome: 'SUCCESS', bankReference: '1' }, false)).toBe('PAID');
    expect(bankOutcomeOf({ outcome: 'PENDING' }, false)).toBe('PAID');
    expect(bankOutcomeOf({ outcome: 'FAILED', reason: 'DECLINED_BY_BENEFICIARY_BANK' }, false)).toBe('PAID');
    expect(bankOutcomeOf({ outcome: 'FAILED', reason: 'INVALID_BENEFICIARY_ACCOUNT' }, false)).toBe('PAID');
    expect(bankOutcomeOf({ outcome: 'FAILED', reason: 'RAIL_REJECTED' }, false)).toBe('REFUSED');
    expect(bankOutcomeOf({ outcome: 'REFUSED', detail: '422' }, false)).toBe('REFUSED');
    expect(bankOutcomeOf({ outcome: 'UNKNOWN', detail: '503' }, false)).toBe('TECHNICAL');
    expect(bankOutcomeOf({ outcome: 'UNKNOWN', detail: 'no reply' }, true)).toBe('TIMEOUT');
  });
});

describe('routePayout', () => {
  const two = [bank('primary'), bank('secondary')];

  it('when one bank serves the mode, then it is the only bank, whatever its score', () => {
    const one = landscape([bank('primary')], { [healthKey('primary', 'IMPS')]: down(0.1) });
    expect(routePayout(imps(draws(0)), one, settings)).toEqual({
      kind: 'route',
      decision: { bank: 'primary', score: 0.1, reason: 'only-bank', at: now.toISOString() },
    });
    const upiOnlyAtSecondary = landscape([bank('primary', { modes: ['IMPS'] }), bank('secondary')], {
      [healthKey('secondary', 'UPI')]: down(0.2),
    });
    expect(routePayout({ ...imps(draws(0)), mode: 'UPI' }, upiOnlyAtSecondary, settings)).toMatchObject({
      decision: { bank: 'secondary', reason: 'only-bank' },
    });
  });

  it('when one bank scores clearly better, then it gets the payout; within the margin, they share by weight', () => {
    const apart = landscape(two, {
      [healthKey('primary', 'IMPS')]: healthy(0.7),
      [healthKey('secondary', 'IMPS')]: healthy(0.99),
    });
    expect(routePayout(imps(draws(0.99)), apart, settings)).toMatchObject({
      decision: { bank: 'secondary', score: 0.99, reason: 'best-score' },
    });
    const close = landscape([bank('primary', { weight: 3 }), bank('secondary', { weight: 1 })], {
      [healthKey('primary', 'IMPS')]: healthy(0.97),
      [healthKey('secondary', 'IMPS')]: healthy(0.99),
    });
    expect(routePayout(imps(draws(0.7)), close, settings)).toMatchObject({
      decision: { bank: 'primary', reason: 'weighted-share' },
    });
    expect(routePayout(imps(draws(0.8)), close, settings)).toMatchObject({
      decision: { bank: 'secondary', reason: 'weighted-share' },
    });
  });

  it('when a bank is eliminated, then it gets only the probe share; the rest go to the others', () => {
    const oneDown = landscape(two, {
      [healthKey('primary', 'IMPS')]: down(0.2),
      [healthKey('secondary', 'IMPS')]: healthy(0.98),
    });
    expect(routePayout(imps(draws(0.01, 0)), oneDown, settings)).toMatchObject({
      decision: { bank: 'primary', score: 0.2, reason: 'probe' },
    });
    expect(routePayout(imps(draws(0.06)), oneDown, settings)).toMatchObject({
      decision: { bank: 'secondary', reason: 'best-score' },
    });
  });

  it('when this worker probed an eliminated bank less than the probe interval ago, then the draw that would probe goes to the others', () => {
    const oneDown = landscape(two, {
      [healthKey('primary', 'IMPS')]: down(0.2),
      [healthKey('secondary', 'IMPS')]: healthy(0.98),
    });
    const request = imps(draws(0.01, 0));
    const at = request.now.getTime();
    const probedJustNow = new Map([['primary', at - settings.probeIntervalMs + 1]]);
    expect(routePayout({ ...request, probedAt: probedJustNow }, oneDown, settings)).toMatchObject({
      decision: { bank: 'secondary', reason: 'best-score' },
    });
    const probedAnIntervalAgo = new Map([['primary', at - settings.probeIntervalMs]]);
    expect(routePayout({ ...imps(draws(0.01, 0)), probedAt: probedAnIntervalAgo }, oneDown, settings)).toMatchObject({
      decision: { bank: 'primary', reason: 'probe' },
    });
  });

  it('when every bank serving the mode is eliminated, then payouts are held, but for the probes', () => {
    const allDown = landscape(two, {
      [healthKey('primary', 'IMPS')]: down(0.2),
      [healthKey('secondary', 'IMPS')]: down(0.1),
    });
    expect(routePayout(imps(draws(0.5)), allDown, settings)).toEqual({
      kind: 'hold',
      why: 'no-bank-serves-the-mode',
    });
    expect(routePayout(imps(draws(0.01, 0.9)), allDown, settings)).toMatchObject({
      decision: { bank: 'secondary', reason: 'probe' },
    });
  });

  it('when a bank is paused, draining or disabled, then it gets no new payout, not even a probe', () => {
    for (const control of ['PAUSED', 'DRAINING'] as const) {
      const held = landscape(two, {}, { secondary: control });
      expect(routePayout(imps(draws(0.99)), held, settings)).toMatchObject({ decision: { bank: 'primary' } });
      expect(isServing(held, 'secondary', 'IMPS')).toBe(false);
    }
    const disabled = landscape([bank('primary'), bank('secondary', { enabled: false })]);
    expect(routePayout(imps(draws(0.99)), disabled, settings)).toMatchObject({
      decision: { bank: 'primary', reason: 'only-bank' },
    });
    expect(
      routePayout(imps(draws(0.01)), landscape(two, {}, { primary: 'PAUSED', secondary: 'DRAINING' }), settings),
    ).toEqual({ kind: 'hold', why: 'no-bank-serves-the-mode' });
    expect(mayCallBank(landscape(two, {}, { primary: 'DRAINING' }), 'primary')).toBe(true);
    expect(mayCallBank(landscape(two, {}, { primary: 'PAUSED' }), 'primary')).toBe(false);
  });

  it('when the merchant is pinned, then its payouts go to its bank, or wait for it — never to another bank', () => {
    const scores = {
      [healthKey('primary', 'IMPS')]: healthy(0.6),
      [healthKey('secondary', 'IMPS')]: healthy(0.99),
    };
    expect(routePayout(imps(draws(0.99), { pinnedBank: 'primary' }), landscape(two, scores), settings)).toMatchObject({
      decision: { bank: 'primary', reason: 'pinned' },
    });
    expect(
      routePayout(
        imps(draws(0.99), { pinnedBank: 'primary' }),
        landscape(two, scores, { primary: 'PAUSED' }),
        settings,
      ),
    ).toEqual({ kind: 'hold', why: 'pinned-bank-not-serving' });
    const pinnedDown = landscape(two, { ...scores, [healthKey('primary', 'IMPS')]: down(0.1) });
    expect(routePayout(imps(draws(0.5), { pinnedBank: 'primary' }), pinnedDown, settings)).toEqual({
      kind: 'hold',
      why: 'pinned-bank-not-serving',
    });
    expect(routePayout(imps(draws(0.01), { pinnedBank: 'primary' }), pinnedDown, settings)).toMatchObject({
      decision: { bank: 'primary', reason: 'probe' },
    });
    // A pin to a bank that does not serve the mode is no pin for it.
    const impsOnly = landscape([bank('primary', { modes: ['UPI'] }), bank('secondary')], scores);
    expect(routePayout(imps(draws(0.5), { pinnedBank: 'primary' }), impsOnly, settings)).toMatchObject({
      decision: { bank: 'secondary' },
    });
  });

  it('when a payout fails over, then its previous bank is left out, no probe is made and the reason says failover', () => {
    const oneDown = landscape(two, { [healthKey('primary', 'IMPS')]: down(0.1) });
    expect(routePayout(imps(draws(0.001), { failoverFrom: 'primary' }), oneDown, settings)).toMatchObject({
      decision: { bank: 'secondary', reason: 'failover' },
    });
    const otherDown = landscape(two, { [healthKey('secondary', 'IMPS')]: down(0.1) });
    expect(routePayout(imps(draws(0.001), { failoverFrom: 'primary' }), otherDown, settings)).toEqual({
      kind: 'hold',
      why: 'no-bank-serves-the-mode',
    });
  });

  it('is deterministic given the random numbers, and shares the load between banks within the margin', () => {
    const land = landscape(two, {
      [healthKey('primary', 'IMPS')]: healthy(0.98),
      [healthKey('secondary', 'IMPS')]: healthy(0.99),
    });
    const chosen = (r: number) => {
      const routing = routePayout(imps(draws(r)), land, settings);
      return routing.kind === 'route' ? routing.decision.bank : 'held';
    };
    const spread = [0.1, 0.3, 0.6, 0.9];
    expect(spread.map(chosen)).toEqual(spread.map(chosen));
    expect(spread.map(chosen)).toEqual(['primary', 'primary', 'secondary', 'secondary']);
  });
});
