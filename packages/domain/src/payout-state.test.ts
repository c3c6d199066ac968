import { describe, expect, it } from 'vitest';
import {
  canTransition,
  externalStatus,
  isTerminal,
  PAYOUT_STATES,
  payoutMessage,
  QUEUED_MESSAGE,
  statesAllowedBefore,
} from './payout-state.js';

describe('payout state machine', () => {
  it('when a payout is FAILED or REVERSED, then no transition leaves it; SUCCESS may only be reversed', () => {
    for (const to of PAYOUT_STATES) {
      expect(canTransition('SUCCESS', to)).toBe(to === 'REVERSED');
      expect(canTransition('FAILED', to)).toBe(false);
      expect(canTransition('REVERSED', to)).toBe(false);
    }
  });

  it('when a payout waits in the low-balance queue, then it can only be released or fail, and only a queued payout is released', () => {
    expect(PAYOUT_STATES.filter((to) => canTransition('QUEUED', to))).toEqual(['ACCEPTED', 'FAILED']);
    expect(statesAllowedBefore('QUEUED')).toEqual([]);
    expect(payoutMessage('PENDING', null, 'QUEUED')).toBe(QUEUED_MESSAGE);
    expect(payoutMessage('PENDING', null, 'ACCEPTED')).toBe('MP006 - Your transaction is in progress');
  });

  it('when a payout is reversed, then only a SUCCESS could have been', () => {
    expect(statesAllowedBefore('REVERSED')).toEqual(['SUCCESS']);
  });

  it('when mapped outside, then SUCCESS is SUCCESS, FAILED and REVERSED are FAILED, and the rest PENDING', () => {
    expect(PAYOUT_STATES.map(externalStatus)).toEqual([
      'PENDING',
      'PENDING',
      'PENDING',
      'PENDING',
      'PENDING',
      'PENDING',
      'SUCCESS',
      'FAILED',
      'FAILED',
    ]);
    expect(PAYOUT_STATES.filter(isTerminal)).toEqual(['SUCCESS', 'FAILED', 'REVERSED']);
  });

  it('when settling, then every non-terminal state but ACCEPTED may reach SUCCESS', () => {
    expect(statesAllowedBefore('SUCCESS')).toEqual(['SUBMITTING', 'AWAITING_RAIL', 'OUTCOME_UNKNOWN', 'MANUAL_REVIEW']);
  });

  it('when nothing was sent yet, then a payout cannot be marked SUCCESS', () => {
    expect(canTransition('ACCEPTED', 'SUCCESS')).toBe(false);
  });
});

describe('payoutMessage', () => {
  it('when given each status, then the message begins with its result code', () => {
    expect(payoutMessage('PENDING')).toBe('MP006 - Your transaction is in progress');
    expect(payoutMessage('SUCCESS')).toBe('MP00 - Transaction successful');
    expect(payoutMessage('FAILED', 'INSUFFICIENT_BALANCE')).toBe(
      'MP007 - Transaction failed: insufficient balance in main wallet',
    );
    expect(payoutMessage('FAILED', 'DECLINED_BY_BENEFICIARY_BANK')).toBe(
      'MP007 - Transaction failed: declined by beneficiary bank',
    );
    expect(payoutMessage('FAILED', 'REVERSED_BY_BENEFICIARY_BANK')).toBe(
      'MP007 - Transaction failed: reversed by beneficiary bank',
    );
  });
});
