import {
  closeApprovalRequest,
  findApprovalRequest,
  findConsoleUser,
  insertApprovalRequest,
  lockApprovalRequest,
  setupStanding,
  type ApprovalRequestView,
  type PrismaClientOrTransaction,
} from '@payout/db';
import { decideOnApproval, isPeopleAction, may, type ApprovalDecision } from '@payout/domain';
import { audit } from '../audit.js';
import { proveSecondFactor, secondFactorRefusal } from '../people/second-factor.js';
import type { ApprovalDeps, PlannedRequest } from './money-action.js';
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

export type RequestPeopleChangeOutcome =
  | RequestApprovalOutcome
  /** In setup, an approver's change ran at once on their own second factor (or was refused as an approval is). */
  | { kind: 'set-up'; outcome: DecideOutcome };

/**
 * A change to people ({@link requestApproval}). While the installation is in setup (fewer than two approvers
 * have enrolled), an approver's change runs at once — their second factor proving them, audited as setup —
 * since there is nobody yet to approve it (docs/operations.md, "A new installation").
 */
export async function requestPeopleChange(
  deps: ApprovalDeps,
  input: { planned: PlannedRequest; maker: Person; reason: string; secondFactorCode?: string },
): Promise<RequestPeopleChangeOutcome> {
  const asked = await requestApproval(deps, input);
  if (asked.kind !== 'requested' || !may(input.maker.role, 'approve')) return asked;
  if ((await setupStanding(deps.db)) !== 'in-setup') return asked;
  const outcome = await decide(deps, {
    id: asked.request.id,
    by: input.maker,
    note: 'setup: an approver enrolls people alone until a second approver has enrolled',
    ...(input.secondFactorCode !== undefined && { secondFactorCode: input.secondFactorCode }),
    setup: true,
  });
  return { kind: 'set-up', outcome };
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
  | { kind: 'executed'; request: ApprovalRequestView }
  | { kind: 'rejected'; request: ApprovalRequestView }
  | { kind: 'cancelled'; request: ApprovalRequestView }
  /** Approved, but the world had moved on: the request is FAILED, with the reason, and nothing ran. */
  | { kind: 'failed'; request: ApprovalRequestView; why: string }
  | { kind: 'expired'; request: ApprovalRequestView }
  /** This person may not take this decision (their own request, not an approver, already decided, setup). */
  | { kind: 'refused'; request: ApprovalRequestView; why: string }
  /** The approver's second factor did not prove them: nothing ran, and the request still waits. */
  | { kind: 'second-factor'; request: ApprovalRequestView; why: string; waitSeconds?: number }
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
 * approver checked against the maker and proved by their second factor (a current code, each used once),
 * the maker checked to be still enabled with a role that may ask, and the action re-checks that the world
 * is still as the request said. When it is not, the request becomes FAILED with the reason and nothing
 * else changes. Two approvers racing take turns on the lock: the second finds it decided. While the
 * installation is in setup, only changes to people are approved: money waits for a second approver.
 */
export function approveRequest(
  deps: ApprovalDeps,
  input: { id: bigint; by: Person; note?: string; secondFactorCode?: string },
): Promise<DecideOutcome> {
  return decide(deps, { ...input, setup: false });
}

async function decide(
  deps: ApprovalDeps,
  input: { id: bigint; by: Person; note?: string; secondFactorCode?: string; setup: boolean },
): Promise<DecideOutcome> {
  const early = await precheck(deps, input, 'approve');
  if (early.kind !== 'allowed') return early.outcome;
  if (!isPeopleAction(early.request.action) && (await setupStanding(deps.db)) === 'in-setup') {
    return {
      kind: 'refused',
      request: early.request,
      why: 'this installation is in setup: fewer than two approvers have enrolled, so no money request can be approved yet',
    };
  }
  const proof = await proveSecondFactor(
    { db: deps.db, secondFactor: deps.approvals.secondFactor },
    {
      username: input.by.username,
      code: input.secondFactorCode,
      actor: actorOf(input.by),
      purpose: `approving request ${input.id}`,
    },
  );
  if (proof.kind !== 'proved') {
    return {
      kind: 'second-factor',
      request: early.request,
      why: secondFactorRefusal(proof),
      ...(proof.kind === 'locked' && { waitSeconds: proof.waitSeconds }),
    };
  }
  const action = moneyActionOf(early.request.action);
  const prepared = await action.prepare?.(deps, early.request);
  const reason = input.note ?? 'approved';
  let afterCommit: (() => Promise<void>) | undefined;
  let outcome: DecideOutcome;
  try {
    outcome = await deps.db.$transaction(async (tx) => {
      const checked = await checkUnderLock(tx, deps, input, 'approve');
      if (checked.kind !== 'allowed') return checked.outcome;
      const makerProblem = await makerStanding(tx, checked.request.maker);
      if (makerProblem) throw new WorldMoved(makerProblem);
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
      if (input.setup) {
        await audit(tx, { actor: actorOf(input.by), reason: input.note ?? 'setup' }, 'setup.people-change', {
          detail: { approvalId: checked.request.id, action: checked.request.action, outcome: execution.outcome },
        });
      }
      const request = (await findApprovalRequest(tx, input.id))!;
      return { kind: 'executed', request } as const;
    }, EXECUTION_TIMEOUT);
  } catch (error) {
    return failOnApproval(deps, input, reason, error);
  }
  // After the commit, and only after it: what ran is stored, whatever happens here.
  if (outcome.kind === 'executed' && afterCommit) await afterCommit().catch(() => undefined);
  return outcome;
}

/**
 * Why the person who asked may no longer have it run, or undefined: a request stands on its maker, so one
 * made by someone since disabled, or whose role no longer asks, fails rather than running.
 */
async function makerStanding(tx: PrismaClientOrTransaction, maker: string): Promise<string | undefined> {
  const person = await findConsoleUser(tx, maker);
  if (!person) return `${maker}, who asked for it, is no longer a console user`;
  if (person.disabledAt) return `${maker}, who asked for it, has been disabled since`;
  if (!may(person.role, 'request'))
    return `${maker}, who asked for it, is ${person.role.toLowerCase()} now and may not ask`;
  return undefined;
}

/** The approval found the world moved on: the request becomes FAILED with the reason, and nothing else changes. */
async function failOnApproval(
  deps: ApprovalDeps,
  input: { id: bigint; by: Person; note?: string; setup?: boolean },
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
  input: { id: bigint; by: Person; setup?: boolean },
  decision: ApprovalDecision,
): Promise<Check> {
  const request = await findApprovalRequest(deps.db, input.id);
  if (!request) return { kind: 'stop', outcome: { kind: 'not-found' } };
  const verdict = decideOnApproval(request, decision, input.by, new Date(), {
    selfApproval: deps.approvals.selfApproval || input.setup === true,
  });
  if (verdict.kind === 'refused') return { kind: 'stop', outcome: { kind: 'refused', request, why: verdict.why } };
  if (verdict.kind === 'expired') return { kind: 'stop', outcome: await expire(deps, input) };
  return { kind: 'allowed', request };
}

/** The same rules again under the request's lock, where they decide. */
async function checkUnderLock(
  tx: PrismaClientOrTransaction,
  deps: ApprovalDeps,
  input: { id: bigint; by: Person; setup?: boolean },
  decision: ApprovalDecision,
): Promise<Check> {
  const request = await lockApprovalRequest(tx, input.id);
  if (!request) return { kind: 'stop', outcome: { kind: 'not-found' } };
  const verdict = decideOnApproval(request, decision, input.by, new Date(), {
    selfApproval: deps.approvals.selfApproval || input.setup === true,
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
