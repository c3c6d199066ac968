import { describe, expect, it } from 'vitest';
import {
  istMinute,
  SCHEDULE_MAX_LEAD_MS,
  SCHEDULE_MIN_LEAD_MS,
  SCHEDULED_MESSAGE_PATTERN,
  scheduledMessage,
  scheduleWindowProblem,
} from './payout-schedule.js';
import { payoutMessage } from './payout-state.js';

const acceptedAt = new Date('2026-12-20T06:00:00Z');
const after = (ms: number) => new Date(acceptedAt.getTime() + ms);

describe('scheduleWindowProblem', () => {
  it('when the time is exactly one minute or exactly 90 days ahead, then it is within the window', () => {
    expect(scheduleWindowProblem(after(SCHEDULE_MIN_LEAD_MS), acceptedAt)).toBeNull();
    expect(scheduleWindowProblem(after(SCHEDULE_MAX_LEAD_MS), acceptedAt)).toBeNull();
  });

  it('when the time is less than a minute ahead, or past, then it is too soon', () => {
    expect(scheduleWindowProblem(after(SCHEDULE_MIN_LEAD_MS - 1), acceptedAt)).toBe(
      'ScheduledAt must be at least one minute ahead',
    );
    expect(scheduleWindowProblem(after(-1), acceptedAt)).toBe('ScheduledAt must be at least one minute ahead');
  });

  it('when the time is more than 90 days ahead, then it is too late', () => {
    expect(scheduleWindowProblem(after(SCHEDULE_MAX_LEAD_MS + 1), acceptedAt)).toBe(
      'ScheduledAt must be at most 90 days ahead',
    );
  });
});

describe('the scheduled message', () => {
  it('when a time is given in any offset, then it is told in IST to the minute', () => {
    expect(istMinute(new Date('2026-12-24T10:00:00+05:30'))).toBe('2026-12-24 10:00 IST');
    expect(istMinute(new Date('2026-12-24T04:30:59Z'))).toBe('2026-12-24 10:00 IST');
    // Past midnight in India while still the day before in UTC.
    expect(istMinute(new Date('2026-12-31T19:00:00Z'))).toBe('2027-01-01 00:30 IST');
  });

  it('when a payout waits for its time, then the MP006 text names it, and the pattern the wire lists matches it', () => {
    const at = new Date('2026-12-24T04:30:00Z');
    expect(scheduledMessage(at)).toBe('MP006 - Your transaction is scheduled for 2026-12-24 10:00 IST');
    expect(SCHEDULED_MESSAGE_PATTERN.test(scheduledMessage(at))).toBe(true);
  });

  it('when a scheduled payout is ACCEPTED, then it says scheduled; queued, held or sent, it says that instead', () => {
    const at = new Date('2026-12-24T04:30:00Z');
    expect(payoutMessage('PENDING', null, 'ACCEPTED', false, at)).toBe(scheduledMessage(at));
    expect(payoutMessage('PENDING', null, 'ACCEPTED', false, null)).toBe('MP006 - Your transaction is in progress');
    expect(payoutMessage('PENDING', null, 'SUBMITTING', false, at)).toBe('MP006 - Your transaction is in progress');
    expect(payoutMessage('PENDING', null, 'QUEUED', false, at)).toMatch(/queued/);
    expect(payoutMessage('PENDING', null, 'ACCEPTED', true, at)).toMatch(/held/);
    expect(payoutMessage('FAILED', 'CANCELLED_BY_MERCHANT', 'FAILED', false, at)).toBe(
      'MP007 - Transaction failed: cancelled by you',
    );
  });
});
