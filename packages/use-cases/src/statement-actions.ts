import {
  lockPayoutStates,
  lockStatementRun,
  markStatementRunApplied,
  reversePayout,
  settleSuccess,
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
import { provenance } from './statement-reconciliation.js';

export interface StatementApplyRequest {
  runId: bigint;
  /** The run's planned actions (its report's `plannedActions`), in any order. */
  actions: readonly PlannedStatementAction[];
  /** Who carries them out: "operator:<name>", or whoever approved them. */
  actor: string;
}

export type StatementApplyOutcome =
  /** Every action was carried out; the run now records what it left unresolved. */
  | { kind: 'applied'; settled: number; reversed: number; counts: ReconCounts; breaks: ReconBreak[] }
  /** Some payouts are no longer in the state they were planned from: nothing was carried out. */
  | { kind: 'moved'; payouts: { ackNo: string; expected: PayoutState; now: PayoutState | null }[] };

/**
 * Carries out a run's planned settlements and reversals, all or none, inside the caller's transaction
 * (docs/reconciliation.md, "Planning and applying"). Each payout is locked and must still be in the state
 * it was planned from: if one has moved since the statement was matched (the worker settled it, another
 * run reversed it), nothing is applied and the answer names them, so an approval can be refused with that
 * reason. Otherwise every action goes through the ordinary guarded statements, payments before returns,
 * each event naming the run and the line it came from, and the run is marked applied with what it left.
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

  // A break is its line's, in its file: line 7 of one day's file is not line 7 of the next day's.
  const appliedLines = new Set(actions.map(linePlace));
  const breaks = run.breakList.filter((b) => b.bank === null || !appliedLines.has(linePlace(b.bank)));
  const counts = { ...run.counts, applied: settled + reversed };
  await markStatementRunApplied(tx, request.runId, { by: request.actor, counts, breaks });
  return { kind: 'applied', settled, reversed, counts, breaks };
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
