import { describe, expect, it } from 'vitest';
import { isSameInstruction } from './payout-instruction.js';
import type { InstructionIdentity } from './payout.js';

const base: InstructionIdentity = {
  mode: 'IMPS',
  amountPaise: 10100n,
  account: '123456789',
  ifsc: 'HDFC0001234',
  name: 'Asha',
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
  ])('when the %s differs, then it is a different payout', (_what, change) => {
    expect(isSameInstruction(base, { ...base, ...change })).toBe(false);
  });
});
