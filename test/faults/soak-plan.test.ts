import { describe, expect, it } from 'vitest';
import { DISTRIBUTED_FAULT_KINDS, FAULT_KINDS, planFaults } from '../../scripts/soak/fault-schedule.js';
import { planPayouts } from '../../scripts/soak/payout-mix.js';

// `pnpm soak` promises that a seed reproduces its run's plan: the faults and the payouts.
const SHAPE = { loadMs: 45_000, faults: 10, workers: 2, apis: 2 };

describe('soak plan', () => {
  it('when the same seed is planned twice, then the fault schedule and the payouts are the same; another seed plans another run', () => {
    expect(planFaults(42, SHAPE)).toEqual(planFaults(42, SHAPE));
    expect(planPayouts(42, 200, 8)).toEqual(planPayouts(42, 200, 8));
    expect(planFaults(43, SHAPE)).not.toEqual(planFaults(42, SHAPE));
    expect(planPayouts(43, 200, 8)).not.toEqual(planPayouts(42, 200, 8));
  });

  it('when faults are planned, then every kind occurs, each on a real target, and each is over before the next begins', () => {
    for (const seed of [1, 42, 20261121, 2 ** 31 - 1]) {
      const schedule = planFaults(seed, SHAPE);
      expect(new Set(schedule.map((f) => f.kind))).toEqual(new Set(FAULT_KINDS));
      schedule.forEach((fault, i) => {
        expect(fault.atMs + fault.downMs).toBeLessThan(schedule[i + 1]?.atMs ?? SHAPE.loadMs);
        expect(fault.target).toBeLessThan(fault.kind === 'kill-worker' ? SHAPE.workers : SHAPE.apis);
      });
    }
  });

  it('when faults are planned for the distributed topology, then a short run has every one of its kinds, each on a real target', () => {
    const shape = { ...SHAPE, workers: 3, kinds: DISTRIBUTED_FAULT_KINDS };
    for (const seed of [1, 42, 20261123]) {
      const schedule = planFaults(seed, shape);
      expect(new Set(schedule.map((f) => f.kind))).toEqual(new Set(DISTRIBUTED_FAULT_KINDS));
      for (const fault of schedule) {
        const targets = { 'kill-worker': 3, 'kill-api': 2, 'fail-over-redis-master': 3 }[fault.kind as string] ?? 1;
        expect(fault.target).toBeLessThan(targets);
      }
    }
    // The single box's schedule of a seed is what it was before the distributed kinds existed.
    expect(planFaults(42, SHAPE).map((f) => f.kind)).not.toContain('restart-pgbouncer');
  });

  it('when payouts are planned, then TransactionIDs are unique and each magic value expects the rail simulator’s outcome', () => {
    const payouts = planPayouts(7, 2_000, 20);
    expect(new Set(payouts.map((p) => p.body.TransactionID)).size).toBe(payouts.length);
    for (const p of payouts) {
      const paise = Number(p.amountPaise % 100n);
      const invalid = p.body.Account?.startsWith('0000') === true || p.body.Upi?.startsWith('invalid') === true;
      const expected =
        invalid || paise === 11 || paise === 77
          ? 'FAILED'
          : paise === 55
            ? 'PENDING'
            : paise === 99
              ? 'REVERSED'
              : 'SUCCESS';
      expect({ index: p.index, expected: p.expected }).toEqual({ index: p.index, expected });
      expect(p.merchant).toBeLessThan(20);
    }
    // Every behaviour is in the mix.
    expect(new Set(payouts.map((p) => p.flavour)).size).toBe(12);
  });
});
