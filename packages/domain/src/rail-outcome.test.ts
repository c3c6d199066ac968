import { describe, expect, it } from 'vitest';
import { inquiryDelayMs, nextStep, type Circumstances, type NextStep, type RailAnswer } from './rail-outcome.js';

const fresh: Circumstances = { deadlinePassed: false, checksLeft: 3, refused: 'never' };

// The steps that wait for a later answer, or for a person.
const inquireUnknown: NextStep = { kind: 'inquire-later', state: 'OUTCOME_UNKNOWN' };
const inquireAwaiting: NextStep = { kind: 'inquire-later', state: 'AWAITING_RAIL' };
const manualReviewChecksUsedUp: NextStep = { kind: 'manual-review', why: 'checks-used-up' };

describe('nextStep', () => {
  it('when the rail says SUCCESS, FAILED or REVERSED, then that is acted on, even past the deadline or out of checks', () => {
    for (const c of [
      fresh,
      { ...fresh, deadlinePassed: true },
      { ...fresh, checksLeft: 0, refused: 'recently' as const },
    ]) {
      expect(nextStep({ outcome: 'SUCCESS', bankReference: '123' }, c)).toEqual({
        kind: 'settle-success',
        bankReference: '123',
      });
      expect(nextStep({ outcome: 'FAILED', reason: 'INVALID_UPI_ADDRESS' }, c)).toEqual({
        kind: 'settle-failure',
        reason: 'INVALID_UPI_ADDRESS',
      });
      expect(nextStep({ outcome: 'REVERSED', bankReference: '123' }, c)).toEqual({
        kind: 'reverse',
        bankReference: '123',
      });
    }
  });

  it('when a submit is refused with a 4xx, then nothing is settled: the status API is asked', () => {
    const refused: RailAnswer = { outcome: 'REFUSED', detail: 'HTTP 400 DUPLICATE_REFERENCE' };
    expect(nextStep(refused, fresh)).toEqual(inquireUnknown);
    expect(nextStep(refused, { ...fresh, refused: 'long-ago' })).toEqual(inquireUnknown);
  });

  it('when the outcome is unknown, then it is never settled as FAILED: it waits for an inquiry', () => {
    expect(nextStep({ outcome: 'UNKNOWN', detail: 'time-out' }, fresh)).toEqual(inquireUnknown);
  });

  it('when the rail is still deciding, then it waits', () => {
    expect(nextStep({ outcome: 'PENDING' }, fresh)).toEqual(inquireAwaiting);
  });

  it('when the rail has no record and never refused it, then it is sent again under the same reference', () => {
    expect(nextStep({ outcome: 'NOT_FOUND' }, fresh)).toEqual({ kind: 'resubmit' });
    expect(nextStep({ outcome: 'NOT_FOUND' }, { ...fresh, checksLeft: 0 })).toEqual({ kind: 'resubmit' });
  });

  it('when the rail refused it and then has no record, then NOT_FOUND is believed only once the refusal is old enough', () => {
    expect(nextStep({ outcome: 'NOT_FOUND' }, { ...fresh, refused: 'recently' })).toEqual(inquireUnknown);
    expect(nextStep({ outcome: 'NOT_FOUND' }, { ...fresh, refused: 'long-ago' })).toEqual({
      kind: 'settle-failure',
      reason: 'RAIL_REJECTED',
    });
  });

  it('when still undecided past the deadline, then a person must resolve it', () => {
    for (const verdict of [
      { outcome: 'PENDING' },
      { outcome: 'UNKNOWN', detail: 'x' },
      { outcome: 'NOT_FOUND' },
      { outcome: 'REFUSED', detail: 'x' },
    ] as const) {
      expect(nextStep(verdict, { ...fresh, deadlinePassed: true })).toEqual({ kind: 'manual-review', why: 'deadline' });
    }
  });

  it('when the status checks the rules allow are used up, then the statement or a person decides', () => {
    const spent = { ...fresh, checksLeft: 0 };
    expect(nextStep({ outcome: 'PENDING' }, spent)).toEqual(manualReviewChecksUsedUp);
    expect(nextStep({ outcome: 'UNKNOWN', detail: 'x' }, spent)).toEqual(manualReviewChecksUsedUp);
    expect(nextStep({ outcome: 'NOT_FOUND' }, { ...spent, refused: 'recently' })).toEqual(manualReviewChecksUsedUp);
  });
});

describe('inquiryDelayMs', () => {
  const upi = { firstDelayMs: 90_000, spacingMs: 2_700_000, maxChecks: 3 };

  it('when checks go on, then the first waits the first delay and every later one the spacing', () => {
    const noJitter = () => 0;
    expect([1, 2, 3, 7].map((n) => inquiryDelayMs(n, upi, noJitter))).toEqual([
      90_000, 2_700_000, 2_700_000, 2_700_000,
    ]);
  });

  it('when jitter is drawn, then it adds at most a tenth and never shortens the wait', () => {
    expect(inquiryDelayMs(1, upi, () => 0.999)).toBe(98_991);
    expect(inquiryDelayMs(1, upi, () => 0)).toBe(90_000);
  });

  it('when the UPI defaults are followed, then the three checks fall within two hours of the payment', () => {
    const worst = () => 0.999_999;
    const lastCheckAt = inquiryDelayMs(1, upi, worst) + inquiryDelayMs(2, upi, worst) + inquiryDelayMs(3, upi, worst);
    expect(lastCheckAt).toBeLessThan(2 * 60 * 60 * 1000);
  });
});
