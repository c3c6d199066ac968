import type { PayoutInstruction } from '@payout/rails';
import { describe, expect, it } from 'vitest';
import { scenarioFor } from './magic-values.js';

const base: PayoutInstruction = {
  reference: 'R1',
  mode: 'IMPS',
  amountPaise: 10000n,
  account: '123456789012',
  ifsc: 'HDFC0001234',
  beneficiaryName: 'Asha Rao',
};

describe('scenarioFor', () => {
  it.each([
    [10011n, 'fail'],
    [10022n, 'settle-later'],
    [10033n, 'pay-but-lose-reply'],
    [10044n, 'unavailable-twice'],
    [10055n, 'pending-forever'],
    [10077n, 'fail-but-lose-reply'],
    [10066n, 'deemed-success'],
    [10088n, 'lost-reply-lagging-status'],
    [10091n, 'pay-but-garble-reply'],
    [10094n, 'pay-but-garble-reply'],
    [10099n, 'pay-then-reverse'],
    [10050n, 'pay'],
    [11n, 'fail'],
    [100n, 'pay'],
  ])('when the amount is %i paise, then the scenario is %s', (amountPaise, kind) => {
    expect(scenarioFor({ ...base, amountPaise }).kind).toBe(kind);
  });

  it('when a bad account meets a magic amount, then the bad account wins, except over .44', () => {
    expect(scenarioFor({ ...base, account: '0000123', amountPaise: 10022n })).toEqual({
      kind: 'fail',
      reason: 'INVALID_BENEFICIARY_ACCOUNT',
    });
    expect(scenarioFor({ ...base, mode: 'UPI', account: 'INVALID@okbank', ifsc: undefined })).toEqual({
      kind: 'fail',
      reason: 'INVALID_UPI_ADDRESS',
    });
    expect(scenarioFor({ ...base, account: '0000123', amountPaise: 10044n }).kind).toBe('unavailable-twice');
  });

  it('when a UPI address merely contains 0000 or an IMPS account contains "invalid", then it pays', () => {
    expect(scenarioFor({ ...base, mode: 'UPI', account: '0000@okbank', ifsc: undefined }).kind).toBe('pay');
    expect(scenarioFor({ ...base, account: 'invalid1' }).kind).toBe('pay');
  });
});
