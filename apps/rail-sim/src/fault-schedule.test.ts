import { describe, expect, it } from 'vitest';
import { FaultSchedule, NO_FAULTS } from './fault-schedule.js';

const START = Date.parse('2026-11-28T10:00:00Z');
const at = (ms: number) => START + ms;

describe('a bank’s fault schedule', () => {
  it('when nothing is scheduled or switched, then the bank has no fault at any time', () => {
    const schedule = new FaultSchedule([], START);
    expect(schedule.at(at(0))).toEqual(NO_FAULTS);
    expect(schedule.at(at(86_400_000))).toEqual(NO_FAULTS);
    expect(schedule.nextChangeAfter(at(0))).toBeUndefined();
  });

  it('when a window is scheduled, then its faults hold from its start for its length only', () => {
    const schedule = new FaultSchedule([{ atMs: 60_000, forMs: 120_000, down: true }], START);
    expect(schedule.at(at(59_999)).down).toBe(false);
    expect(schedule.at(at(60_000)).down).toBe('unavailable');
    expect(schedule.at(at(179_999)).down).toBe('unavailable');
    expect(schedule.at(at(180_000)).down).toBe(false);
  });

  it('when a window has no length, then its faults hold for good', () => {
    const schedule = new FaultSchedule([{ atMs: 1_000, latencyMs: 800 }], START);
    expect(schedule.at(at(999)).latencyMs).toBe(0);
    expect(schedule.at(at(10_000_000)).latencyMs).toBe(800);
  });

  it('when windows overlap, then a later window wins where it says something, and the earlier one shows elsewhere', () => {
    const schedule = new FaultSchedule(
      [
        { atMs: 0, forMs: 10_000, latencyMs: 500, errorRate: 0.2 },
        { atMs: 5_000, forMs: 10_000, latencyMs: 50, statusLagMs: 3_000 },
      ],
      START,
    );
    expect(schedule.at(at(2_000))).toEqual({ ...NO_FAULTS, latencyMs: 500, errorRate: 0.2 });
    expect(schedule.at(at(7_000))).toEqual({ ...NO_FAULTS, latencyMs: 50, errorRate: 0.2, statusLagMs: 3_000 });
    expect(schedule.at(at(12_000))).toEqual({ ...NO_FAULTS, latencyMs: 50, statusLagMs: 3_000 });
  });

  it('when faults are switched at run time, then they lie over the schedule until switched again or cleared with {}', () => {
    const schedule = new FaultSchedule([{ atMs: 0, forMs: 60_000, down: true, latencyMs: 100 }], START);
    schedule.switchTo({ down: false }, at(10_000));
    // The switch says nothing of latency: the schedule's shows through.
    expect(schedule.at(at(10_000))).toEqual({ ...NO_FAULTS, latencyMs: 100 });
    schedule.switchTo({ down: 'refused' }, at(20_000));
    expect(schedule.at(at(90_000)).down).toBe('refused');
    schedule.switchTo({}, at(95_000));
    expect(schedule.at(at(95_000))).toEqual(NO_FAULTS);
  });

  it('when a switch has a length, then it runs out by itself, and that moment is the next change', () => {
    const schedule = new FaultSchedule([], START);
    schedule.switchTo({ down: true, forMs: 30_000 }, at(1_000));
    expect(schedule.at(at(30_999)).down).toBe('unavailable');
    expect(schedule.nextChangeAfter(at(1_000))).toBe(at(31_000));
    expect(schedule.at(at(31_000)).down).toBe(false);
    expect(schedule.nextChangeAfter(at(31_000))).toBeUndefined();
  });

  it('when asked for the next change, then it is the nearest later window edge', () => {
    const schedule = new FaultSchedule(
      [
        { atMs: 10_000, forMs: 5_000, errorRate: 1 },
        { atMs: 40_000, down: 'refused' },
      ],
      START,
    );
    expect(schedule.nextChangeAfter(at(0))).toBe(at(10_000));
    expect(schedule.nextChangeAfter(at(10_000))).toBe(at(15_000));
    expect(schedule.nextChangeAfter(at(20_000))).toBe(at(40_000));
    expect(schedule.nextChangeAfter(at(40_000))).toBeUndefined();
  });

  it('when calls fail at a rate, then a draw below the rate fails with the set 5xx (500 unless given) and one above passes', () => {
    const schedule = new FaultSchedule([{ atMs: 0, forMs: 1_000, errorRate: 0.25 }], START);
    expect(schedule.failsCall(at(10), 0.2499)).toBe(500);
    expect(schedule.failsCall(at(10), 0.25)).toBeUndefined();
    expect(schedule.failsCall(at(2_000), 0)).toBeUndefined();
    schedule.switchTo({ errorRate: 1, errorStatus: 502 }, at(2_000));
    expect(schedule.failsCall(at(2_000), 0.999)).toBe(502);
  });

  it('when reported, then it shows the faults now, the switch with its end, and the schedule as given', () => {
    const windows = [{ atMs: 0, forMs: 5_000, latencyMs: 200 }];
    const schedule = new FaultSchedule(windows, START);
    schedule.switchTo({ down: true, forMs: 60_000 }, at(1_000));
    expect(schedule.report(at(2_000))).toEqual({
      now: { ...NO_FAULTS, down: 'unavailable', latencyMs: 200 },
      runTime: { down: true, since: '2026-11-28T10:00:01.000Z', until: '2026-11-28T10:01:01.000Z' },
      schedule: windows,
      startedAt: '2026-11-28T10:00:00.000Z',
    });
    expect(schedule.report(at(61_000)).runTime).toBeNull();
  });
});
