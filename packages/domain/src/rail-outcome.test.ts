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
  const imps = { firstDelayMs: 60_000, spacingMs: 900_000, maxChecks: 6 };
  const noJitter = () => 0;

  it('when a check follows a submit, then it waits the first delay, and when it follows a check, the spacing', () => {
    expect(inquiryDelayMs('submit', upi, noJitter)).toBe(90_000);
    expect(inquiryDelayMs('status-check', upi, noJitter)).toBe(2_700_000);
  });

  it('when a submit answered 5xx is checked, found unknown and sent again, then the resubmit is checked after the first delay again', () => {
    // Submit (503) → check 1 after the first delay → NOT_FOUND → resubmit (503) → check 2 after the first
    // delay, not the spacing → NOT_FOUND → resubmit → paid. The bank's short outage costs two first delays.
    const waits = (schedule: typeof imps) => [
      inquiryDelayMs('submit', schedule, noJitter),
      inquiryDelayMs('submit', schedule, noJitter),
    ];
    expect(waits(imps)).toEqual([60_000, 60_000]);
    expect(waits(upi)).toEqual([90_000, 90_000]);
    const worst = () => 0.999_999;
    const impsWorst = inquiryDelayMs('submit', imps, worst) * 2;
    expect(impsWorst).toBeLessThan(3 * 60 * 1000);
  });

  it('when jitter is drawn, then it adds at most a tenth and never shortens the wait', () => {
    expect(inquiryDelayMs('submit', upi, () => 0.999)).toBe(98_991);
    expect(inquiryDelayMs('submit', upi, () => 0)).toBe(90_000);
    expect(inquiryDelayMs('status-check', upi, () => 0.5)).toBe(2_835_000);
  });

  it('when the UPI defaults are followed, then the three checks fall within two hours of the payment', () => {
    const worst = () => 0.999_999;
    const lastCheckAt =
      inquiryDelayMs('submit', upi, worst) +
      inquiryDelayMs('status-check', upi, worst) +
      inquiryDelayMs('status-check', upi, worst);
    expect(lastCheckAt).toBeLessThan(2 * 60 * 60 * 1000);
  });
});
