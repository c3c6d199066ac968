import { describe, expect, it } from 'vitest';
import { accountScenario, upiScenario } from './beneficiary-directory.js';

// The validation magic values of docs/rail-sim.md ("Beneficiary validation"), one row each.
describe('beneficiary validation magic values', () => {
  it.each([
    ['123456789012', { kind: 'valid', registeredName: 'ASHA KUMAR' }],
    ['000012345678', { kind: 'invalid' }],
    ['123456782222', { kind: 'valid', registeredName: 'RAVI SHARMA' }],
    ['123456783333', { kind: 'time-out' }],
    ['000012343333', { kind: 'invalid' }],
  ])('when the account is %s, then %o', (account, scenario) => {
    expect(accountScenario(account)).toEqual(scenario);
  });

  it.each([
    ['asha.kumar@okhdfc', { kind: 'valid', registeredName: 'ASHA KUMAR' }],
    ['Invalid.user@okaxis', { kind: 'invalid' }],
    ['othername@ybl', { kind: 'valid', registeredName: 'RAVI SHARMA' }],
    ['timeout@okhdfc', { kind: 'time-out' }],
  ])('when the UPI address is %s, then %o', (upi, scenario) => {
    expect(upiScenario(upi)).toEqual(scenario);
  });
});
