import {
  findPayoutSubject,
  findWallet,
  recordOperatorAction,
  settleFailure,
  settleSuccess,
  type ApprovalRequestView,
  type PrismaClient,
} from '@payout/db';
import {
  decideResolution,
  describeRailAnswer,
  FAILURE_REASON_TEXT,
  overrideAtApproval,
  formatRupees,
  type RailAnswer,
  type ResolutionDecision,
  type ResolutionRequest,
} from '@payout/domain';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf, type Person } from './approvals/person.js';
import type { PayoutKey } from './payout-key.js';
import { railOfPayout, type PayoutRails } from './payout-bank.js';

export interface PlanManualResolutionInput {
  payout: PayoutKey;
  request: ResolutionRequest;
  maker: Person;
  /** Why, in the operator's words (the audit log keeps it). */
  reason: string;
  /** Settle as asked even when the rail disagrees or cannot be asked. `reason` must then say why. */
  override?: boolean;
}

export type PlanManualResolutionOutcome =
  | { kind: 'planned'; planned: PlannedRequest; rail: RailAnswer }
  /** The rail disagrees and there is no override: nothing is requested; the refusal is audited. */
  | { kind: 'refused'; ackNo: string; why: string; rail: RailAnswer }
  | { kind: 'no-payout' }
  | { kind: 'not-in-review'; ackNo: string; state: string };

interface ManualResolutionParams {
  payoutId: string;
  ackNo: string;
  request: ResolutionRequest;
  override: boolean;
  /** The bank the payout was sent to, asked at planning and again at approval; absent in older requests. */
  bank?: string | null;
  /** What the rail answered when the maker asked: an override is asked again at approval, beside it. */
  railWhenAsked?: string;
}

/**
 * A manual resolution of a payout under manual review (docs/operations.md, "Resolving a payout under
 * manual review"), checked and described for its approver: the rail is asked first and the request goes
 * through the domain's rule book; a resolution the rail contradicts is refused here (and audited) unless
 * overridden. The approver sees the rail's answer and what the wallet will hold afterwards.
 */
export async function planManualResolution(
  deps: { db: PrismaClient; rails: PayoutRails },
  input: PlanManualResolutionInput,
): Promise<PlanManualResolutionOutcome> {
  const payout = await findPayoutSubject(deps.db, input.payout);
  if (!payout) return { kind: 'no-payout' };
  if (payout.state !== 'MANUAL_REVIEW') return { kind: 'not-in-review', ackNo: payout.ackNo, state: payout.state };

  const rail = await railOfPayout(deps.rails, payout.bank).status(payout.ackNo);
  const override = input.override ?? false;
  const decision = decideResolution(input.request, rail, override);
  if (decision.kind === 'refuse') {
    await recordOperatorAction(deps.db, {
      actor: actorOf(input.maker),
      merchantId: payout.merchantId,
      payoutId: payout.id,
      reason: input.reason,
      action: 'payout.resolve-refused',
      detail: { requested: input.request, override, rail: railDetail(rail), refused: decision.why },
    });
    return { kind: 'refused', ackNo: payout.ackNo, why: decision.why, rail };
  }
  const available = (await findWallet(deps.db, payout.merchantId))?.availablePaise ?? 0n;
  // A failure returns the reserved amount to the main wallet; a success takes nothing more from it.
  const availableAfter = decision.kind === 'settle-failure' ? available + payout.amountPaise : available;
  const params: ManualResolutionParams = {
    payoutId: payout.id.toString(),
    ackNo: payout.ackNo,
    bank: payout.bank,
    request: input.request,
    override,
    railWhenAsked: describeRailAnswer(rail),
  };
  return {
    kind: 'planned',
    rail,
    planned: {
      action: 'payout.resolve',
      merchantId: payout.merchantId,
      payoutId: payout.id,
      params: { ...params },
      preview: {
        summary: `Resolve payout ${payout.ackNo} (${formatRupees(payout.amountPaise)} to ${payout.beneficiaryName}) as ${describeDecision(decision)}${override ? ', overriding the rail' : ''}`,
        mid: payout.mid,
        TransactionID: payout.transactionId,
        ackNo: payout.ackNo,
        amount: formatRupees(payout.amountPaise),
        beneficiary: payout.beneficiaryName,
        resolveAs: decision.kind === 'settle-success' ? 'SUCCESS' : 'FAILED',
        ...(decision.kind === 'settle-success'
          ? { bankReference: decision.bankReference }
          : { failureReason: decision.reason }),
        override,
        railSays: describeRailAnswer(rail),
        availableBefore: formatRupees(available),
        availableAfter: formatRupees(availableAfter),
      },
    },
  };
}

/**
 * The approved resolution. The payout's bank is asked again (before the transaction) and the rule book applied to
 * its answer now — an override too: one the rail now contradicts (it says paid and the override says
 * failed, or the reverse) is refused with both answers (`overrideAtApproval`); in the approver's transaction
 * the payout must still be under manual review. Either failing refuses the approval with the reason, and
 * nothing changes.
 */
export const manualResolution = {
  action: 'payout.resolve',
  async prepare(deps, request) {
    if (!deps.rails) throw new Error('approving a manual resolution needs the banks');
    const params = request.params as unknown as ManualResolutionParams;
    return railOfPayout(deps.rails, params.bank).status(params.ackNo);
  },
  async execute({ tx, request, approver }, rail) {
    const params = request.params as unknown as ManualResolutionParams;
    const railWhenAsked = whenAskedOf(params, request.preview);
    if (params.override) {
      const asked = overrideAtApproval(params.request, railWhenAsked, rail);
      if (asked.kind === 'contradicted') return { kind: 'refused', why: asked.why };
    }
    const decision = decideResolution(params.request, rail, params.override);
    if (decision.kind === 'refuse') return { kind: 'refused', why: `the rail now disagrees: ${decision.why}` };
    const payoutId = BigInt(params.payoutId);
    const note = {
      reason:
        `resolved by hand as ${describeDecision(decision)}${params.override ? ' (override)' : ''}: ${request.makerReason} — requested by ${request.maker}, approved by ${approver.username} (approval ${request.id})`.slice(
          0,
          500,
        ),
      actor: `operator:${approver.username}`.slice(0, 100),
      railAnswer: railDetail(rail),
    };
    const settled =
      decision.kind === 'settle-success'
        ? await settleSuccess(tx, payoutId, decision.bankReference, note, { onlyFrom: ['MANUAL_REVIEW'] })
        : await settleFailure(tx, payoutId, decision.reason, note, { onlyFrom: ['MANUAL_REVIEW'] });
    if (!settled.moved) {
      return {
        kind: 'refused',
        why: `payout ${params.ackNo} is ${settled.from ?? 'gone'} now, not under manual review`,
      };
    }
    const status = decision.kind === 'settle-success' ? 'SUCCESS' : 'FAILED';
    const bankReference = decision.kind === 'settle-success' ? decision.bankReference : null;
    await recordOperatorAction(tx, {
      actor: actorOf(approver),
      merchantId: request.merchantId,
      payoutId,
      reason: request.makerReason,
      action: 'payout.resolve',
      detail: {
        requested: params.request,
        override: params.override,
        rail: railDetail(rail),
        resolvedAs: status,
        bankReference,
        approvalId: request.id,
        requestedBy: request.maker,
        approvedBy: approver.username,
      },
    });
    return {
      kind: 'executed',
      outcome: {
        ackNo: params.ackNo,
        status,
        bankReference,
        railWhenAsked,
        railAtApproval: describeRailAnswer(rail),
      },
    };
  },
} satisfies MoneyAction<RailAnswer>;

function describeDecision(decision: Exclude<ResolutionDecision, { kind: 'refuse' }>): string {
  return decision.kind === 'settle-success'
    ? `success (UTR ${decision.bankReference})`
    : `failed (${FAILURE_REASON_TEXT[decision.reason]})`;
}

/** The rail's answer in a few words, as the approver and a refused maker read it (`describeRailAnswer`). */
export function railSummary(answer: RailAnswer): string {
  return describeRailAnswer(answer);
}

function railDetail(answer: RailAnswer): Record<string, unknown> {
  return answer.outcome === 'UNKNOWN'
    ? { outcome: answer.outcome, detail: answer.detail }
    : { outcome: answer.outcome, raw: answer.raw };
}

/** The rail asked again for an approver about to decide an override: its answer then and now. */
export interface OverrideRecheck {
  whenAsked: string;
  now: string;
  /** Why approving would be refused: the rail now contradicts the override. */
  contradicted?: string;
}

/**
 * For the approval page of an open override resolution (docs/operations.md, "Approvals"): asks the rail
 * now, so the approver sees its fresh answer beside the one the maker saw before deciding. Undefined for
 * any other request; approving asks the rail once more, whatever this showed.
 */
export async function recheckOverride(
  deps: { rails: PayoutRails },
  request: Pick<ApprovalRequestView, 'action' | 'params' | 'preview'>,
): Promise<OverrideRecheck | undefined> {
  if (request.action !== 'payout.resolve') return undefined;
  const params = request.params as unknown as ManualResolutionParams;
  if (!params.override) return undefined;
  const whenAsked = whenAskedOf(params, request.preview);
  const now = await railOfPayout(deps.rails, params.bank).status(params.ackNo);
  const asked = overrideAtApproval(params.request, whenAsked, now);
  return {
    whenAsked,
    now: describeRailAnswer(now),
    ...(asked.kind === 'contradicted' && { contradicted: asked.why }),
  };
}

/** What the rail said when the maker asked; a request stored before this was kept has it in its preview only. */
function whenAskedOf(params: ManualResolutionParams, preview: Record<string, unknown>): string {
  if (params.railWhenAsked !== undefined) return params.railWhenAsked;
  return typeof preview.railSays === 'string' ? preview.railSays : 'not recorded';
}
