import { describe, expect, it } from 'vitest';
import { FAILURE_REASON_TEXT, PAYOUT_STATES, type FailureReason, type PayoutState } from './payout-state.js';
import {
  ledgerExpectations,
  PAYOUT_TRANSITIONS,
  postingsCarried,
  postingsOf,
  statesBefore,
} from './payout-transitions.js';

describe('the table of transitions', () => {
  it('names each (from, to, cause) once', () => {
    const keys = PAYOUT_TRANSITIONS.map((t) => `${t.from} → ${t.to} (${t.cause})`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('makes the same postings and webhook for every row of one (to, cause), so the callers need not know where from', () => {
    for (const row of PAYOUT_TRANSITIONS) {
      expect(postingsOf(row.to, row.cause), `${row.from} → ${row.to} (${row.cause})`).toEqual(row.postings);
      const same = PAYOUT_TRANSITIONS.filter((t) => t.to === row.to && t.cause === row.cause);
      expect(new Set(same.map((t) => t.webhook)).size).toBe(1);
    }
  });

  it('fails a payout only with a reason, and a settlement with any reason but a short balance, a downtime or a cancel', () => {
    for (const row of PAYOUT_TRANSITIONS)
      expect(row.failureReasons !== undefined).toBe(row.to === 'FAILED' || row.to === 'REVERSED');
    const all = Object.keys(FAILURE_REASON_TEXT) as FailureReason[];
    const settled = PAYOUT_TRANSITIONS.find((t) => t.to === 'FAILED' && t.cause === 'settlement')!;
    // A short balance is decided before anything is reserved; a downtime, or its merchant's cancel, fails only a
    // payout never sent.
    const notBySettlement = ['INSUFFICIENT_BALANCE', 'BANK_DOWNTIME', 'CANCELLED_BY_MERCHANT'];
    expect([...settled.failureReasons!].sort()).toEqual(all.filter((r) => !notBySettlement.includes(r)).sort());
  });

  it('never lets a settlement fail a queued payout: it would release a reservation never made', () => {
    expect(statesBefore('FAILED', 'settlement')).not.toContain('QUEUED');
    expect(statesBefore('FAILED', 'queue-expiry')).toEqual(['QUEUED']);
    // A held payout was never sent: only an ACCEPTED one fails for a downtime, its reservation released.
    expect(statesBefore('FAILED', 'hold-expiry')).toEqual(['ACCEPTED']);
    expect(postingsOf('FAILED', 'hold-expiry')).toEqual(['release']);
    // Its merchant cancels only what no bank has: an accepted payout's reservation goes back, a queued one had none.
    expect(statesBefore('FAILED', 'cancel')).toEqual(['ACCEPTED']);
    expect(postingsOf('FAILED', 'cancel')).toEqual(['release']);
    expect(statesBefore('FAILED', 'cancel-queued')).toEqual(['QUEUED']);
    expect(postingsOf('FAILED', 'cancel-queued')).toEqual([]);
    expect(statesBefore('ACCEPTED', 'progress')).toEqual([]);
    expect(statesBefore('REVERSED', 'reversal')).toEqual(['SUCCESS']);
  });

  it('reaches every state, each with the postings the books expect', () => {
    const expectations = ledgerExpectations();
    expect(new Set(expectations.map((e) => e.state))).toEqual(new Set(PAYOUT_STATES));
    const of = (state: PayoutState, reason: FailureReason | null = null) => postingsCarried(state, reason);
    expect(of('QUEUED')).toEqual([[]]);
    expect(of('MANUAL_REVIEW')).toEqual([['reserve']]);
    expect(of('SUCCESS')).toEqual([['reserve', 'settle']]);
    expect(of('REVERSED', 'REVERSED_BY_BENEFICIARY_BANK')).toEqual([['reserve', 'settle', 'reverse']]);
    expect(of('FAILED', 'INSUFFICIENT_BALANCE')).toEqual([[]]);
    expect(of('FAILED', 'BANK_DOWNTIME')).toEqual([['reserve', 'release']]);
    expect(of('SUCCESS', 'RAIL_REJECTED')).toEqual([]);
    expect(of('FAILED', 'RAIL_REJECTED')).toEqual([
      ['reserve', 'release'],
      ['reserve', 'release', 'late-debit'],
    ]);
  });

  it('when a row is added, the expectations follow it', () => {
    const cancel = { from: 'QUEUED', to: 'FAILED', cause: 'queue-expiry', postings: [], webhook: null } as const;
    const withCancel = [...PAYOUT_TRANSITIONS, { ...cancel, failureReasons: ['RAIL_REJECTED' as const] }];
    const failedRailRejected = ledgerExpectations(withCancel).find(
      (e) => e.state === 'FAILED' && e.failureReason === 'RAIL_REJECTED',
    );
    expect(failedRailRejected?.postings).toContainEqual([]);
  });
});
