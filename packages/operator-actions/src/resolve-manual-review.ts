import { findPayoutSubject, recordOperatorAction, settleFailure, settleSuccess, type PrismaClient } from '@payout/db';
import { decideResolution, type RailAnswer, type ResolutionRequest } from '@payout/domain';
import type { RailAdapter } from '@payout/rails';
import type { PayoutKey } from './payout-key.js';

export interface ResolveManualReviewInput {
  payout: PayoutKey;
  request: ResolutionRequest;
  /** Who: "console:<username>" or "cli:<name>". */
  actor: string;
  /** Why, in the operator's words (the audit log keeps it). */
  reason: string;
  /** Settle as asked even when the rail disagrees or cannot be asked. `reason` must then say why. */
  override?: boolean;
}

export type ResolveManualReviewOutcome =
  | { kind: 'resolved'; ackNo: string; status: 'SUCCESS' | 'FAILED'; bankReference: string | null; rail: RailAnswer }
  | { kind: 'refused'; ackNo: string; why: string; rail: RailAnswer }
  | { kind: 'no-payout' }
  | { kind: 'not-in-review'; ackNo: string; state: string }
  /** Someone (the worker, another operator) moved it between our read and our settlement. */
  | { kind: 'moved'; ackNo: string; state: string | null };

/**
 * Settles a payout under manual review by hand — after asking the rail (docs/operations.md, "Resolving a
 * payout under manual review"). The rail's answer and the operator's request go through the domain's rule
 * book; a refusal changes nothing but is written to the audit log too, and a settlement goes through the
 * normal settlement statement, in the same transaction as its audit entry.
 */
export async function resolveManualReview(
  deps: { db: PrismaClient; rail: RailAdapter },
  input: ResolveManualReviewInput,
): Promise<ResolveManualReviewOutcome> {
  const payout = await findPayoutSubject(deps.db, input.payout);
  if (!payout) return { kind: 'no-payout' };
  if (payout.state !== 'MANUAL_REVIEW') return { kind: 'not-in-review', ackNo: payout.ackNo, state: payout.state };

  const rail = await deps.rail.status(payout.ackNo);
  const decision = decideResolution(input.request, rail, input.override ?? false);
  const audit = {
    actor: input.actor,
    merchantId: payout.merchantId,
    payoutId: payout.id,
    reason: input.reason,
  };
  const detail = { requested: input.request, override: input.override ?? false, rail: railDetail(rail) };

  if (decision.kind === 'refuse') {
    await recordOperatorAction(deps.db, {
      ...audit,
      action: 'payout.resolve-refused',
      detail: { ...detail, refused: decision.why },
    });
    return { kind: 'refused', ackNo: payout.ackNo, why: decision.why, rail };
  }

  const note = {
    reason:
      `resolved by hand as ${decision.kind === 'settle-success' ? 'success' : 'failed'}${input.override ? ' (override)' : ''}: ${input.reason}`.slice(
        0,
        500,
      ),
    actor: `operator:${input.actor}`.slice(0, 100),
    railAnswer: railDetail(rail),
  };
  return deps.db.$transaction(async (tx) => {
    const settled =
      decision.kind === 'settle-success'
        ? await settleSuccess(tx, payout.id, decision.bankReference, note, { onlyFrom: ['MANUAL_REVIEW'] })
        : await settleFailure(tx, payout.id, decision.reason, note, { onlyFrom: ['MANUAL_REVIEW'] });
    if (!settled.moved) return { kind: 'moved', ackNo: payout.ackNo, state: settled.from } as const;
    const status = decision.kind === 'settle-success' ? 'SUCCESS' : 'FAILED';
    const bankReference = decision.kind === 'settle-success' ? decision.bankReference : null;
    await recordOperatorAction(tx, {
      ...audit,
      action: 'payout.resolve',
      detail: { ...detail, resolvedAs: status, bankReference },
    });
    return { kind: 'resolved', ackNo: payout.ackNo, status, bankReference, rail } as const;
  });
}

function railDetail(answer: Awaited<ReturnType<RailAdapter['status']>>): Record<string, unknown> {
  return answer.outcome === 'UNKNOWN'
    ? { outcome: answer.outcome, detail: answer.detail }
    : { outcome: answer.outcome, raw: answer.raw };
}
