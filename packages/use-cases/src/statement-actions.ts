import {
  checkBreaksStillOpen,
  closeBreaksBookedLater,
  lockPayoutStates,
  lockStatementRun,
  markStatementRunApplied,
  reversePayout,
  settleSuccess,
  type BreakClosure,
  type StoredStatementAction,
  type Transaction,
} from '@payout/db';
import { IN_FLIGHT_STATES, type PayoutState } from '@payout/domain';
import {
  inApplyingOrder,
  linePlace,
  type PlannedStatementAction,
  type ReconBreak,
  type ReconCounts,
} from '@payout/recon';
import { provenance, recordStatementDiscrepancies } from './statement-reconciliation.js';

export interface StatementApplyRequest {
  runId: bigint;
  /** The run's planned actions (its report's `plannedActions`), in any order. */
  actions: readonly PlannedStatementAction[];
  /** Who carries them out: "operator:<name>", or whoever approved them. */
  actor: string;
  /** The approval the run takes effect on: its closures of earlier breaks name it. */
  approval?: { id: bigint; maker: string; approver: string };
}

export type StatementApplyOutcome =
  /** Every action was carried out and the run took effect; it now records what it left unresolved. */
  | {
      kind: 'applied';
      settled: number;
      reversed: number;
      /** Earlier breaks closed as booked the next day, and discrepancies recorded, as the run took effect now. */
      closed: number;
      discrepancies: number;
      counts: ReconCounts;
      breaks: ReconBreak[];
    }
  /** Some payouts are no longer in the state they were planned from: nothing was carried out. */
  | { kind: 'moved'; payouts: { ackNo: string; expected: PayoutState; now: PayoutState | null }[] }
  /** Some earlier breaks the run closes are no longer open as it found them: nothing was carried out. */
  | { kind: 'breaks-moved'; breaks: { closure: BreakClosure; why: string }[] };

/**
 * Carries out an approved run, all or none, inside the caller's transaction (docs/reconciliation.md,
 * "Planning and applying", "When a run takes effect"). Each payout is locked and must still be in the state
 * it was planned from; each earlier break the run answers must still be open as the run found it (its run
 * standing, the break there, no final decision on it). If one has moved since the statement was matched (the
 * worker settled a payout, another run reversed it, a person decided a break), nothing is done and the answer
 * names them, so an approval can be refused with that reason. Otherwise every action goes through the
 * ordinary guarded statements, payments before returns, each event naming the run and the line it came from;
 * a run that was waiting takes effect — its discrepancies recorded, the earlier breaks closed as booked the
 * next day — and the run is marked applied with what it left.
 */
export async function applyStatementActions(
  tx: Transaction,
  request: StatementApplyRequest,
): Promise<StatementApplyOutcome> {
  // On a bare client every statement would commit on its own, and the locks would not hold to the end. A
  // transaction's client is the one that cannot disconnect.
  if (typeof (tx as { $disconnect?: unknown }).$disconnect === 'function') {
    throw new Error('applyStatementActions runs inside a transaction: pass the client db.$transaction gives');
  }
  const run = await lockStatementRun(tx, request.runId);
  if (!run) throw new Error(`statement run ${request.runId} does not exist`);
  if (run.applied) throw new Error(`statement run ${request.runId} was already applied`);
  // Only what the statement supported when it was matched: nothing a caller adds or changes on the way.
  const planned = new Set(run.plannedActions.map(planKey));
  const unplanned = request.actions.find((a) => !planned.has(planKey(a)));
  if (unplanned) {
    throw new Error(`statement run ${request.runId} planned no such action for ${linePlace(unplanned)}`);
  }

  // Everything is checked before anything is written: the earlier runs (locked before the payouts, as a
  // person's decision on a break locks its run before its payout), then the payouts.
  const waiting = !run.inEffect;
  const breaks = waiting ? await checkBreaksStillOpen(tx, run.breakClosures) : { kind: 'open' as const, closures: [] };
  if (breaks.kind === 'not-open') return { kind: 'breaks-moved', breaks: breaks.breaks };
  const actions = inApplyingOrder(request.actions);
  const moved = await payoutsMovedSincePlanned(tx, actions);
  if (moved.length > 0) return { kind: 'moved', payouts: moved };

  let settled = 0;
  let reversed = 0;
  for (const action of actions) {
    const changed = await applyAction(tx, request.runId, action, request.actor);
    // Under the row lock, in the state it was planned from: a guarded statement that still refuses means
    // the plan does not fit the payout, and the caller's transaction must not commit half of it.
    if (!changed) {
      throw new Error(`statement run ${request.runId} ${linePlace(action)}: ${action.ackNo} did not move`);
    }
    if (action.kind === 'settle-success') settled++;
    else reversed++;
  }
  const closed = await closeBreaksBookedLater(tx, request.runId, breaks.closures, request.approval);
  const discrepancies = waiting ? run.foundDiscrepancies : [];
  await recordStatementDiscrepancies(tx, request.runId, discrepancies);

  // A break is its line's, in its file: line 7 of one day's file is not line 7 of the next day's.
  const appliedLines = new Set(actions.map(linePlace));
  const left = run.breakList.filter((b) => b.bank === null || !appliedLines.has(linePlace(b.bank)));
  const counts = { ...run.counts, applied: settled + reversed };
  await markStatementRunApplied(tx, request.runId, { by: request.actor, counts, breaks: left });
  return { kind: 'applied', settled, reversed, closed, discrepancies: discrepancies.length, counts, breaks: left };
}

/** Locks the planned payouts (in id order, as every statement locking several does) and compares their states. */
async function payoutsMovedSincePlanned(tx: Transaction, actions: readonly PlannedStatementAction[]) {
  const now = await lockPayoutStates(
    tx,
    actions.map((a) => a.payoutId),
  );
  return actions
    .filter((a) => now.get(a.payoutId.toString()) !== a.expectedState)
    .map((a) => ({ ackNo: a.ackNo, expected: a.expectedState, now: now.get(a.payoutId.toString()) ?? null }));
}

/** Carries out one planned action; true when it moved the payout. */
async function applyAction(
  tx: Transaction,
  runId: bigint,
  action: PlannedStatementAction,
  actor: string,
): Promise<boolean> {
  const line = {
    lineNumber: action.lineNumber,
    ...(action.file !== undefined && { file: action.file }),
    reference: action.ackNo,
    utr: action.utr,
    amountPaise: action.amountPaise,
    type: action.kind === 'settle-success' ? ('DEBIT' as const) : ('RETURN' as const),
    valueDate: action.valueDate,
  };
  const from = `statement run ${runId} ${linePlace(action)}`;
  switch (action.kind) {
    case 'settle-success': {
      const note = {
        reason: `${from}: the bank paid it (UTR ${action.utr})`,
        actor,
        railAnswer: provenance(runId, line),
      };
      return (await settleSuccess(tx, action.payoutId, action.utr, note, { onlyFrom: IN_FLIGHT_STATES })).moved;
    }
    case 'reverse': {
      const note = {
        reason: `${from}: the money came back (UTR ${action.utr})`,
        actor,
        railAnswer: provenance(runId, line),
      };
      return (await reversePayout(tx, action.payoutId, { source: 'statement', bankReference: action.utr, note })).moved;
    }
  }
}

/**
 * Every field of a planned action, as one text: an action given back is applied only if the run planned it.
 * An action of a run of one file has no `file`, as those stored before runs could read several.
 */
function planKey(a: PlannedStatementAction | StoredStatementAction): string {
  const { kind, payoutId, ackNo, utr, amountPaise, lineNumber, valueDate, expectedState } = a;
  return [kind, payoutId, ackNo, utr, amountPaise, a.file ?? '', lineNumber, valueDate, expectedState].join(' ');
}
