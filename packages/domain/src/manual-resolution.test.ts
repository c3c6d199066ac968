import { describe, expect, it } from 'vitest';
import { decideResolution, type ResolutionRequest } from './manual-resolution.js';
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
