import { describe, expect, it } from 'vitest';
import type { AppError } from '@payout/domain';
import { PAYOUT_OPERATIONS } from './payout-requests.js';

// ScheduledAt as the payout operations read it (docs/api.md, "Scheduling a payout"); whether the time is within
// the window is the accept's question (packages/use-cases, createPayout), not the schema's.

const imps = (ScheduledAt: unknown) =>
  PAYOUT_OPERATIONS.IMPS.requestOf({
    TransactionID: '1',
    Amount: '101.00',
    Account: '123456789012',
    Ifsc: 'HDFC0001234',
    Name: 'Asha Kumar',
    ScheduledAt,
  });

function refusedFields(body: () => unknown): string[] {
  try {
    body();
  } catch (error) {
    return ((error as AppError).details.errors as { field: string }[]).map((e) => e.field);
  }
  throw new Error('not refused');
}

describe('ScheduledAt', () => {
  it.each([
    ['2026-12-24T10:00:00+05:30', '2026-12-24T04:30:00.000Z'],
    ['2026-12-24T10:00+05:30', '2026-12-24T04:30:00.000Z'],
    ['2026-12-24T04:30:00Z', '2026-12-24T04:30:00.000Z'],
    ['2026-12-23T23:30:00.250-05:00', '2026-12-24T04:30:00.250Z'],
    // Never earlier than the time given: a fraction finer than a millisecond is the next one up.
    ['2026-12-24T04:30:00.0001Z', '2026-12-24T04:30:00.001Z'],
  ])('when it is %s, then the payout is scheduled for %s', (text, iso) => {
    expect(imps(text).scheduledAt?.toISOString()).toBe(iso);
  });

  it.each([undefined, null, ''])('when it is %j, then the payout is not scheduled', (value) => {
    expect(imps(value).scheduledAt).toBeNull();
  });

  it.each([
    '2026-12-24T10:00:00', // no offset: which clock?
    '2026-12-24T10:00:00+0530',
    '2027-02-29T10:00:00Z',
    '2026-12-24T24:00:00Z',
    '2026-12-24',
    'soon',
    1798108200000,
  ])('when it is %j, then 422 naming ScheduledAt', (value) => {
    expect(refusedFields(() => imps(value))).toEqual(['ScheduledAt']);
  });
});
