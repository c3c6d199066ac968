import { describe, expect, it } from 'vitest';
import { inquiryDelayMs, nextStep } from './rail-outcome.js';

describe('nextStep', () => {
  it('when the rail says SUCCESS or FAILED, then the payout settles that way, even past the deadline', () => {
    expect(nextStep({ outcome: 'SUCCESS', bankReference: '123' }, true)).toEqual({
      kind: 'settle-success',
      bankReference: '123',
    });
    expect(nextStep({ outcome: 'FAILED', reason: 'INVALID_UPI_ADDRESS' }, false)).toEqual({
      kind: 'settle-failure',
      reason: 'INVALID_UPI_ADDRESS',
    });
  });

  it('when the outcome is unknown, then it is never settled as FAILED: it waits for an inquiry', () => {
    expect(nextStep({ outcome: 'UNKNOWN', detail: 'time-out' }, false)).toEqual({
      kind: 'inquire-later',
      state: 'OUTCOME_UNKNOWN',
    });
  });

  it('when the rail is still deciding, then it waits', () => {
    expect(nextStep({ outcome: 'PENDING' }, false)).toEqual({ kind: 'inquire-later', state: 'AWAITING_RAIL' });
  });

  it('when the rail never saw the instruction, then it is sent again', () => {
    expect(nextStep({ outcome: 'NOT_FOUND' }, false)).toEqual({ kind: 'resubmit' });
  });

  it('when still undecided past the deadline, then a person must resolve it', () => {
    for (const verdict of [
      { outcome: 'PENDING' },
      { outcome: 'UNKNOWN', detail: 'x' },
      { outcome: 'NOT_FOUND' },
    ] as const) {
      expect(nextStep(verdict, true)).toEqual({ kind: 'manual-review' });
    }
  });
});

describe('inquiryDelayMs', () => {
  const schedule = { firstDelayMs: 1_000, maxDelayMs: 60_000 };

  it('when attempts go on, then the delay doubles up to the cap', () => {
    const noJitter = () => 0;
    expect([1, 2, 3, 4, 7, 8, 50].map((n) => inquiryDelayMs(n, schedule, noJitter))).toEqual([
      1_000, 2_000, 4_000, 8_000, 60_000, 60_000, 60_000,
    ]);
  });

  it('when jitter is drawn, then it adds at most a fifth', () => {
    expect(inquiryDelayMs(1, schedule, () => 0.999)).toBe(1_200);
  });
});
