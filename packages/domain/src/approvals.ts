import { may, type ConsoleRole } from './console-roles.js';

/**
 * Four eyes on money (docs/operations.md, "Approvals"): the actions that create, return or move money
 * become a request that a second person approves before it runs.
 */
export const APPROVAL_ACTIONS = [
  'wallet.credit',
  'payout.resolve',
  'discrepancy.resolve',
  'statement.apply',
  'token.issue',
  'statement.match',
  'statement.decide',
  // People: adding one, changing a role, resetting a password (docs/operations.md, "Security model").
  'user.add',
  'user.role',
  'user.password-reset',
  'bulk.submit',
  'merchant.ip-allowlist',
  // A new merchant, with the digest of the token it made itself (docs/operations.md, "A merchant's token and
  // webhook secret").
  'merchant.create',
  // A merchant's owner on the dashboard, bound to the enrollment they opened, or bound again after losing
  // their phone (docs/dashboard.md, "Enrollment").
  'merchant-owner.enroll',
] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** The requests that change who may act, rather than money: the only ones an installation in setup approves. */
export const PEOPLE_ACTIONS = [
  'user.add',
  'user.role',
  'user.password-reset',
] as const satisfies readonly ApprovalAction[];

export function isPeopleAction(action: string): action is (typeof PEOPLE_ACTIONS)[number] {
  return (PEOPLE_ACTIONS as readonly string[]).includes(action);
}

/**
 * A request's life: REQUESTED, then exactly one of EXECUTED (approved and carried out), REJECTED (by a
 * second person), CANCELLED (by its maker), EXPIRED (nobody decided in time) or FAILED (approved, but the
 * world had moved on: the payout was no longer under review, the reference was used, …).
 */
export const APPROVAL_STATES = ['REQUESTED', 'EXECUTED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'FAILED'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** How long a request waits for a decision unless configured otherwise. */
export const DEFAULT_APPROVAL_TTL_MS = 24 * 60 * 60 * 1000;

export interface ApprovalStanding {
  state: ApprovalState;
  maker: string;
  expiresAt: Date;
}

export interface Decider {
  username: string;
  role: ConsoleRole;
}

export type ApprovalDecision = 'approve' | 'reject' | 'cancel';

export type DecisionVerdict =
  | { kind: 'allowed' }
  /** The request waited too long: it becomes EXPIRED and nothing runs. */
  | { kind: 'expired' }
  | { kind: 'refused'; why: string };

/**
 * Whether `by` may take `decision` on a request now. The maker never approves or rejects their own
 * request (they cancel it instead) unless self-approval is allowed, which only development permits.
 */
export function decideOnApproval(
  request: ApprovalStanding,
  decision: ApprovalDecision,
  by: Decider,
  now: Date,
  options: { selfApproval: boolean },
): DecisionVerdict {
  if (request.state !== 'REQUESTED') return { kind: 'refused', why: `the request is ${request.state.toLowerCase()}` };
  const ownRequest = request.maker === by.username;
  if (decision === 'cancel') {
    return ownRequest ? { kind: 'allowed' } : { kind: 'refused', why: 'only its maker cancels a request' };
  }
  if (!may(by.role, 'approve')) {
    return { kind: 'refused', why: `${by.username} is ${by.role.toLowerCase()}, not an approver` };
  }
  if (ownRequest && !options.selfApproval) {
    return { kind: 'refused', why: `${by.username} made this request: a second person must ${decision} it` };
  }
  if (request.expiresAt.getTime() <= now.getTime()) return { kind: 'expired' };
  return { kind: 'allowed' };
}

/** The state a request shows now: a REQUESTED one past its expiry is EXPIRED even before anyone looks. */
export function approvalStateAt(request: Pick<ApprovalStanding, 'state' | 'expiresAt'>, now: Date): ApprovalState {
  return request.state === 'REQUESTED' && request.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : request.state;
}
