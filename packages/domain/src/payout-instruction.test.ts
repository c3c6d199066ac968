import { describe, expect, it } from 'vitest';
import { isSameInstruction } from './payout-instruction.js';
import type { InstructionIdentity } from './payout.js';

const base: InstructionIdentity = {
  mode: 'IMPS',
  amountPaise: 10100n,
  account: '123456789',
  ifsc: 'HDFC0001234',
  name: 'Asha',
  scheduledAt: null,
};

describe('isSameInstruction', () => {
  it('when everything that identifies the payout is equal, then it is the same payout', () => {
    expect(isSameInstruction(base, { ...base })).toBe(true);
  });

  it.each([
    ['mode', { mode: 'UPI' as const }],
    ['amount', { amountPaise: 10101n }],
    ['account', { account: '123456780' }],
    ['IFSC', { ifsc: 'HDFC0001235' }],
    ['name', { name: 'Asha K' }],
    ['scheduled time (one has none)', { scheduledAt: new Date('2026-12-24T04:30:00Z') }],
  ])('when the %s differs, then it is a different payout', (_what, change) => {
    expect(isSameInstruction(base, { ...base, ...change })).toBe(false);
  });
});

describe('isSameInstruction with a scheduled time', () => {
  const scheduled = { ...base, scheduledAt: new Date('2026-12-24T10:00:00+05:30') };

  it('when both name the same instant with different offsets, then it is the same payout', () => {
    expect(isSameInstruction(scheduled, { ...base, scheduledAt: new Date('2026-12-24T04:30:00Z') })).toBe(true);
  });

  it('when the times differ by a minute, then it is a different payout', () => {
    expect(isSameInstruction(scheduled, { ...base, scheduledAt: new Date('2026-12-24T10:01:00+05:30') })).toBe(false);
  });
});
