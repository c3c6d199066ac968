import { describe, expect, it } from 'vitest';
import { approvalStateAt, decideOnApproval, type ApprovalStanding } from './approvals.js';
import { may, permissionsOf } from './console-roles.js';

const now = new Date('2026-11-26T10:00:00Z');
const open: ApprovalStanding = { state: 'REQUESTED', maker: 'asha', expiresAt: new Date('2026-11-27T10:00:00Z') };
const strict = { selfApproval: false };

describe('approvals', () => {
  it('when a second approver approves or rejects an open request, then it is allowed', () => {
    const kiran = { username: 'kiran', role: 'APPROVER' } as const;
    expect(decideOnApproval(open, 'approve', kiran, now, strict)).toEqual({ kind: 'allowed' });
    expect(decideOnApproval(open, 'reject', kiran, now, strict)).toEqual({ kind: 'allowed' });
  });

  it('when the maker decides on their own request, then only cancelling is allowed', () => {
    const asha = { username: 'asha', role: 'APPROVER' } as const;
    expect(decideOnApproval(open, 'approve', asha, now, strict)).toMatchObject({ kind: 'refused' });
    expect(decideOnApproval(open, 'reject', asha, now, strict)).toMatchObject({ kind: 'refused' });
    expect(decideOnApproval(open, 'cancel', asha, now, strict)).toEqual({ kind: 'allowed' });
    expect(decideOnApproval(open, 'approve', asha, now, { selfApproval: true })).toEqual({ kind: 'allowed' });
  });

  it('when someone without the approver role or another person decides, then they are refused', () => {
    for (const role of ['SUPPORT', 'OPERATOR'] as const) {
      expect(decideOnApproval(open, 'approve', { username: 'ravi', role }, now, strict)).toMatchObject({
        kind: 'refused',
        why: expect.stringContaining('not an approver') as string,
      });
    }
    expect(decideOnApproval(open, 'cancel', { username: 'kiran', role: 'APPROVER' }, now, strict)).toMatchObject({
      kind: 'refused',
    });
  });

  it('when a request is decided already or has expired, then nothing more is allowed', () => {
    const kiran = { username: 'kiran', role: 'APPROVER' } as const;
    for (const state of ['EXECUTED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'FAILED'] as const) {
      expect(decideOnApproval({ ...open, state }, 'approve', kiran, now, strict)).toMatchObject({ kind: 'refused' });
    }
    const stale = { ...open, expiresAt: now };
    expect(decideOnApproval(stale, 'approve', kiran, now, strict)).toEqual({ kind: 'expired' });
    expect(approvalStateAt(stale, now)).toBe('EXPIRED');
    expect(approvalStateAt(open, now)).toBe('REQUESTED');
  });

  it('when roles are compared, then each reaches only its own permissions', () => {
    expect(permissionsOf('SUPPORT')).toEqual(['read']);
    expect(may('SUPPORT', 'act')).toBe(false);
    expect(may('OPERATOR', 'request')).toBe(true);
    expect(may('OPERATOR', 'approve')).toBe(false);
    expect(may('APPROVER', 'approve')).toBe(true);
  });
});
