import {
  closeApprovalRequest,
  findApprovalRequest,
  insertApprovalRequest,
  lockApprovalRequest,
  type ApprovalRequestView,
  type PrismaClientOrTransaction,
} from '@payout/db';
import { decideOnApproval, may, type ApprovalDecision } from '@payout/domain';
import { audit } from '../audit.js';
import type { ApprovalDeps, HandOver, PlannedRequest } from './money-action.js';
import { moneyActionOf } from './money-actions.js';
import { actorOf, type Person } from './person.js';

export type RequestApprovalOutcome =
  { kind: 'requested'; request: ApprovalRequestView } | { kind: 'not-allowed'; why: string };

/**
 * Stores a planned money action as a request for a second person, with its audit entry: nothing else
 * changes until someone else approves it (docs/operations.md, "Approvals").
 */
export async function requestApproval(
  deps: Pick<ApprovalDeps, 'db' | 'approvals'>,
  input: { planned: PlannedRequest; maker: Person; reason: string },
): Promise<RequestApprovalOutcome> {
  if (!may(input.maker.role, 'request')) {
    return {
      kind: 'not-allowed',
      why: `${input.maker.username} is ${input.maker.role.toLowerCase()}: support reads only`,
    };
  }
  const { planned } = input;
  const request = await deps.db.$transaction(async (tx) => {
    const stored = await insertApprovalRequest(tx, {
      ...planned,
      maker: input.maker.username,
      makerReason: input.reason,
      expiresAt: new Date(Date.now() + deps.approvals.ttlMs),
    });
    await audit(tx, { actor: actorOf(input.maker), reason: input.reason }, 'approval.request', {
      merchantId: planned.merchantId ?? undefined,
      payoutId: planned.payoutId ?? undefined,
      detail: { approvalId: stored.id, action: planned.action, preview: auditedPreview(planned.preview) },
    });
    return stored;
  });
  return { kind: 'requested', request };
}

/** Items of a preview's list that the audit entry keeps; the request itself keeps them all. */
const AUDITED_LIST_ITEMS = 20;

/**
 * A preview as the audit log keeps it: a long list (a bulk batch's 5,000 lines) cut to its first items and
 * a count of the rest, so an audit entry stays a line a person reads on the audit page; the request row
 * keeps the whole preview.
 */
function auditedPreview(preview: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(preview).flatMap(([key, value]) =>
      Array.isArray(value) && value.length > AUDITED_LIST_ITEMS
        ? [
            [key, value.slice(0, AUDITED_LIST_ITEMS)],
            [`${key}NotShown`, value.length - AUDITED_LIST_ITEMS],
          ]
        : [[key, value]],
    ),
  );
}

export type DecideOutcome =
  | { kind: 'executed'; request: ApprovalRequestView; handOver?: HandOver }
  | { kind: 'rejected'; request: ApprovalRequestView }
  | { kind: 'cancelled'; request: ApprovalRequestView }
  /** Approved, but the world had moved on: the request is FAILED, with the reason, and nothing ran. */
  | { kind: 'failed'; request: ApprovalRequestView; why: string }
  | { kind: 'expired'; request: ApprovalRequestView }
  /** This person may not take this decision (their own request, not an approver, already decided). */
  | { kind: 'refused'; request: ApprovalRequestView; why: string }
  | { kind: 'not-found' };

// A statement's approval settles every payout it names in one transaction: minutes, not Prisma's 5 s.
const EXECUTION_TIMEOUT = { timeout: 10 * 60_000, maxWait: 10_000 };

/** Raised inside the approver's transaction to undo everything when the action cannot run. */
class WorldMoved extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

/**
 * Approves a request and runs it, once, in the approver's transaction: the request is locked, the
 * approver checked against the maker, and the action re-checks that the world is still as the request
 * said. When it is not, the request becomes FAILED with the reason and nothing else changes. Two
 * approvers racing take turns on the lock: the second finds it decided.
 */
export async function approveRequest(
  deps: ApprovalDeps,
  input: { id: bigint; by: Person; note?: string },
): Promise<DecideOutcome> {
  const early = await precheck(deps, input, 'approve');
  if (early.kind !== 'allowed') return early.outcome;
  const action = moneyActionOf(early.request.action);
  const prepared = await action.prepare?.(deps, early.request);
  const reason = input.note ?? 'approved';
  let afterCommit: (() => Promise<void>) | undefined;
  let outcome: DecideOutcome;
  try {
    outcome = await deps.db.$transaction(async (tx) => {
      const checked = await checkUnderLock(tx, deps, input, 'approve');
      if (checked.kind !== 'allowed') return checked.outcome;
      const execution = await action.execute(
        { tx, request: checked.request, approver: input.by, ...(deps.producer && { producer: deps.producer }) },
        prepared,
      );
      if (execution.kind === 'refused') throw new WorldMoved(execution.why);
      afterCommit = execution.afterCommit;
      await closeApprovalRequest(tx, input.id, {
        state: 'EXECUTED',
        decidedBy: input.by.username,
        note: input.note ?? null,
        outcome: execution.outcome,
      });
      await auditDecision(tx, checked.request, input.by, reason, 'approval.approve', { outcome: execution.outcome });
      const request = (await findApprovalRequest(tx, input.id))!;
      return { kind: 'executed', request, ...(execution.handOver && { handOver: execution.handOver }) } as const;
    }, EXECUTION_TIMEOUT);
  } catch (error) {
    return failOnApproval(deps, input, reason, error);
  }
  // After the commit, and only after it: what ran is stored, whatever happens here.
  if (outcome.kind === 'executed' && afterCommit) await afterCommit().catch(() => undefined);
  return outcome;
}

/** The approval found the world moved on: the request becomes FAILED with the reason, and nothing else changes. */
async function failOnApproval(
  deps: ApprovalDeps,
  input: { id: bigint; by: Person; note?: string },
  reason: string,
  error: unknown,
): Promise<DecideOutcome> {
  if (!(error instanceof WorldMoved)) throw error;
  return deps.db.$transaction(async (tx) => {
    const checked = await checkUnderLock(tx, deps, input, 'approve');
    if (checked.kind !== 'allowed') return checked.outcome;
    await closeApprovalRequest(tx, input.id, {
      state: 'FAILED',
      decidedBy: input.by.username,
      note: input.note ?? null,
      outcome: { refused: error.why },
    });
    await auditDecision(tx, checked.request, input.by, reason, 'approval.fail', { refused: error.why });
    const request = (await findApprovalRequest(tx, input.id))!;
    return { kind: 'failed', request, why: error.why } as const;
  });
}

/** A second person says no: the request is REJECTED and nothing runs. */
export function rejectRequest(
  deps: ApprovalDeps,
  input: { id: bigint; by: Person; note?: string },
): Promise<DecideOutcome> {
  return closeWithoutRunning(deps, input, 'reject');
}

/** The maker withdraws their own open request. */
export function cancelRequest(
  deps: ApprovalDeps,
  input: { id: bigint; by: Person; note?: string },
): Promise<DecideOutcome> {
  return closeWithoutRunning(deps, input, 'cancel');
}

async function closeWithoutRunning(
  deps: ApprovalDeps,
  input: { id: bigint; by: Person; note?: string },
  decision: 'reject' | 'cancel',
): Promise<DecideOutcome> {
  return deps.db.$transaction(async (tx) => {
    const checked = await checkUnderLock(tx, deps, input, decision);
    if (checked.kind !== 'allowed') return checked.outcome;
    const state = decision === 'reject' ? 'REJECTED' : 'CANCELLED';
    await closeApprovalRequest(tx, input.id, { state, decidedBy: input.by.username, note: input.note ?? null });
    await auditDecision(
      tx,
      checked.request,
      input.by,
      input.note ?? (decision === 'reject' ? 'rejected' : 'cancelled'),
      decision === 'reject' ? 'approval.reject' : 'approval.cancel',
      {},
    );
    const request = (await findApprovalRequest(tx, input.id))!;
    return decision === 'reject' ? ({ kind: 'rejected', request } as const) : ({ kind: 'cancelled', request } as const);
  });
}

type Check = { kind: 'allowed'; request: ApprovalRequestView } | { kind: 'stop'; outcome: DecideOutcome };

/** The decision's rules before anything slow happens (asking the rail), so a refusal costs nothing. */
async function precheck(
  deps: ApprovalDeps,
  input: { id: bigint; by: Person },
  decision: ApprovalDecision,
): Promise<Check> {
  const request = await findApprovalRequest(deps.db, input.id);
  if (!request) return { kind: 'stop', outcome: { kind: 'not-found' } };
  const verdict = decideOnApproval(request, decision, input.by, new Date(), {
    selfApproval: deps.approvals.selfApproval,
  });
  if (verdict.kind === 'refused') return { kind: 'stop', outcome: { kind: 'refused', request, why: verdict.why } };
  if (verdict.kind === 'expired') return { kind: 'stop', outcome: await expire(deps, input) };
  return { kind: 'allowed', request };
}

/** The same rules again under the request's lock, where they decide. */
async function checkUnderLock(
  tx: PrismaClientOrTransaction,
  deps: ApprovalDeps,
  input: { id: bigint; by: Person },
  decision: ApprovalDecision,
): Promise<Check> {
  const request = await lockApprovalRequest(tx, input.id);
  if (!request) return { kind: 'stop', outcome: { kind: 'not-found' } };
  const verdict = decideOnApproval(request, decision, input.by, new Date(), {
    selfApproval: deps.approvals.selfApproval,
  });
  if (verdict.kind === 'refused') return { kind: 'stop', outcome: { kind: 'refused', request, why: verdict.why } };
  if (verdict.kind === 'expired') {
    await closeApprovalRequest(tx, input.id, { state: 'EXPIRED', decidedBy: input.by.username });
    await auditDecision(tx, request, input.by, 'expired before a decision', 'approval.expire', {});
    return { kind: 'stop', outcome: { kind: 'expired', request: (await findApprovalRequest(tx, input.id))! } };
  }
  return { kind: 'allowed', request };
}

function expire(deps: ApprovalDeps, input: { id: bigint; by: Person }): Promise<DecideOutcome> {
  return deps.db.$transaction(async (tx) => {
    const checked = await checkUnderLock(tx, deps, input, 'approve');
    // Someone else decided meanwhile, or it had not expired after all: report what the lock found.
    return checked.kind === 'stop' ? checked.outcome : { kind: 'refused', request: checked.request, why: 'try again' };
  });
}

function auditDecision(
  tx: PrismaClientOrTransaction,
  request: ApprovalRequestView,
  by: Person,
  reason: string,
  action: 'approval.approve' | 'approval.reject' | 'approval.cancel' | 'approval.expire' | 'approval.fail',
  detail: Record<string, unknown>,
): Promise<void> {
  return audit(tx, { actor: actorOf(by), reason }, action, {
    merchantId: request.merchantId ?? undefined,
    payoutId: request.payoutId ?? undefined,
    detail: { approvalId: request.id, action: request.action, maker: request.maker, ...detail },
  });
}
