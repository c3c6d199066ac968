import { describe, expect, it } from 'vitest';
import {
  decideResolution,
  isSettlementFailureReason,
  overrideAtApproval,
  RESOLUTION_FAILURE_REASONS,
  type ResolutionRequest,
} from './manual-resolution.js';
import { FAILURE_REASON_TEXT } from './payout-state.js';
import type { RailAnswer } from './rail-outcome.js';

const asFailed: ResolutionRequest = { outcome: 'FAILED', reason: 'DECLINED_BY_BENEFICIARY_BANK' };
const asSuccess: ResolutionRequest = { outcome: 'SUCCESS', bankReference: '412345678901' };
const rail = {
  success: { outcome: 'SUCCESS', bankReference: '412345678901' },
  otherUtr: { outcome: 'SUCCESS', bankReference: '499999999999' },
  failed: { outcome: 'FAILED', reason: 'INVALID_BENEFICIARY_ACCOUNT' },
  pending: { outcome: 'PENDING' },
  unknown: { outcome: 'UNKNOWN', detail: 'connect ECONNREFUSED' },
  notFound: { outcome: 'NOT_FOUND' },
} satisfies Record<string, RailAnswer>;

describe('manual resolution asks the rail first', () => {
  it.each([
    ['success', rail.success],
    ['pending', rail.pending],
    ['unknown', rail.unknown],
  ] as const)('when resolving as failed while the rail says %s, then it is refused', (_name, verdict) => {
    expect(decideResolution(asFailed, verdict, false).kind).toBe('refuse');
  });

  it('when resolving as failed while the rail failed it or never saw it, then it settles as failed', () => {
    expect(decideResolution(asFailed, rail.failed, false)).toEqual({
      kind: 'settle-failure',
      reason: 'DECLINED_BY_BENEFICIARY_BANK',
    });
    expect(decideResolution(asFailed, rail.notFound, false).kind).toBe('settle-failure');
  });

  it('when resolving as success, then only a rail SUCCESS with the same UTR lets it through', () => {
    expect(decideResolution(asSuccess, rail.success, false)).toEqual({
      kind: 'settle-success',
      bankReference: '412345678901',
    });
    expect(decideResolution({ outcome: 'SUCCESS' }, rail.success, false)).toEqual({
      kind: 'settle-success',
      bankReference: '412345678901',
    });
    for (const verdict of [rail.otherUtr, rail.failed, rail.notFound, rail.pending, rail.unknown]) {
      expect(decideResolution(asSuccess, verdict, false).kind).toBe('refuse');
    }
  });

  it('when overridden, then the request stands whatever the rail says, but a success still needs a UTR', () => {
    expect(decideResolution(asFailed, rail.success, true).kind).toBe('settle-failure');
    expect(decideResolution(asSuccess, rail.pending, true).kind).toBe('settle-success');
    expect(decideResolution({ outcome: 'SUCCESS' }, rail.pending, true).kind).toBe('refuse');
  });
});

describe('an override asked again at approval', () => {
  const saw = 'no answer (connect ECONNREFUSED)';
  it.each([
    ['failed', asFailed, rail.success, 'SUCCESS, UTR 412345678901'],
    ['success', asSuccess, rail.failed, 'FAILED (INVALID_BENEFICIARY_ACCOUNT)'],
  ] as const)(
    'when the override says %s and the rail now says the opposite, then it is refused naming both answers',
    (_name, request, now, described) => {
      expect(overrideAtApproval(request, saw, now)).toEqual({
        kind: 'contradicted',
        why: `the rail now says ${described} (when it was asked, ${saw}), and the override says ${request.outcome}`,
      });
    },
  );

  it.each([
    ['failed', asFailed, rail.failed],
    ['failed', asFailed, rail.pending],
    ['failed', asFailed, rail.notFound],
    ['success', asSuccess, rail.success],
    ['success', asSuccess, rail.unknown],
    ['success', asSuccess, rail.pending],
  ] as const)('when the override says %s and the rail now says %o, then it stands', (_name, request, now) => {
    expect(overrideAtApproval(request, saw, now)).toEqual({ kind: 'stands' });
  });
});

describe('the reasons a person may resolve a payout as failed with', () => {
  it('are every failure reason but the short balance and the reversal, in the contract order', () => {
    expect(RESOLUTION_FAILURE_REASONS).toEqual([
      'INVALID_BENEFICIARY_ACCOUNT',
      'INVALID_UPI_ADDRESS',
      'DECLINED_BY_BENEFICIARY_BANK',
      'RAIL_REJECTED',
    ]);
  });

  it.each(['INSUFFICIENT_BALANCE', 'REVERSED_BY_BENEFICIARY_BANK', 'toString', 'NOPE', undefined])(
    'refuses %s',
    (value) => {
      expect(isSettlementFailureReason(value)).toBe(false);
    },
  );

  it('each have the text the console shows', () => {
    for (const reason of RESOLUTION_FAILURE_REASONS) expect(FAILURE_REASON_TEXT[reason]).toMatch(/^[a-z]/);
  });
});
