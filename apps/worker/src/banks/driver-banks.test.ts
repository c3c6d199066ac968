import { describe, expect, it } from 'vitest';
import { DEFAULT_ROUTING_SETTINGS, healthKey, type BankLandscape, type RoutableBank } from '@payout/domain';
import type { RailAdapter } from '@payout/rails';
import { RoutedBanks } from './driver-banks.js';

const bank = (name: string): RoutableBank => ({ name, modes: ['IMPS', 'UPI'], weight: 1, enabled: true });
const primaryDown: BankLandscape = {
  banks: [bank('primary'), bank('secondary')],
  health: new Map([
    [healthKey('primary', 'IMPS'), { score: 0, eliminated: true }],
    [healthKey('primary', 'UPI'), { score: 0, eliminated: true }],
    [healthKey('secondary', 'IMPS'), { score: 1, eliminated: false }],
    [healthKey('secondary', 'UPI'), { score: 1, eliminated: false }],
  ]),
  controls: new Map(),
};

function banksWithPrimaryDown(probeIntervalMs: number) {
  return new RoutedBanks({
    rails: { rail: () => ({}) as RailAdapter },
    view: { landscape: primaryDown },
    settings: { ...DEFAULT_ROUTING_SETTINGS, probeIntervalMs },
    // Every draw would probe: only the spacing keeps the down bank from every payout.
    random: () => 0,
  });
}

const bankOf = (route: unknown) => (route as { decision?: { bank: string; reason: string } }).decision;

describe('RoutedBanks: probes of a down bank', () => {
  it('when every draw would probe, then a down bank is offered once per mode in each probe interval, the rest go to the bank that is up', () => {
    const banks = banksWithPrimaryDown(1_000);
    const at = (ms: number) => banks.routes(new Date(Date.UTC(2026, 11, 7, 10, 0, 0, ms))).routes;

    const first = at(0);
    expect(bankOf(first.IMPS)).toEqual({ bank: 'primary', reason: 'probe', score: 0, at: expect.any(String) });
    expect(bankOf(first.UPI)).toMatchObject({ bank: 'primary', reason: 'probe' });
    for (const ms of [1, 500, 999]) {
      const routes = at(ms);
      expect([bankOf(routes.IMPS)?.bank, bankOf(routes.UPI)?.bank]).toEqual(['secondary', 'secondary']);
    }
    const next = at(1_000);
    expect([bankOf(next.IMPS)?.reason, bankOf(next.UPI)?.reason]).toEqual(['probe', 'probe']);
  });

  it('when the probe interval is 0, then the probe share alone decides, as before spacing', () => {
    const banks = banksWithPrimaryDown(0);
    const now = new Date();
    for (let i = 0; i < 3; i++) expect(bankOf(banks.routes(now).routes.IMPS)?.reason).toBe('probe');
  });
});
