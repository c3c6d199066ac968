import {
  findLineCandidates,
  findPayoutsNearLine,
  findStatementBreak,
  FINAL_BREAK_DECISIONS,
  recordBreakDecision,
  reversePayout,
  settleSuccess,
  type BreakDecisionView,
  type LineCandidate,
  type OperatorActionName,
  type PrismaClient,
  type PrismaClientOrTransaction,
  type StatementBreakRow,
} from '@payout/db';
import { formatRupees, IN_FLIGHT_STATES, may, parseRupees, type PayoutState } from '@payout/domain';
import { breakSaysMoneyIsMissing } from '@payout/recon';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf, type Person } from './approvals/person.js';

// The audit log's name for every decision on a statement break (docs/reconciliation.md, "The breaks page").
// It belongs in OperatorActionName (packages/db/src/repositories/operator-action-repository.ts).
const DECIDE_BREAK: OperatorActionName = 'statement.decide-break';

/** A break: its statement run and its 1-based position in the run's break_list. */
export interface StatementBreakKey {
  runId: bigint;
  position: number;
}

/** Why a decision on a break was not taken: nothing changed. */
export type BreakRefusal =
  | { kind: 'no-break' }
  | { kind: 'already-decided'; decision: BreakDecisionView }
  | { kind: 'not-allowed'; why: string }
  | { kind: 'refused'; why: string };

export type DecideBreakOutcome =
  | { kind: 'decided' }
  /** The break says money is missing: setting it aside is a request for a second person. */
  | { kind: 'planned'; planned: PlannedRequest }
  | BreakRefusal;

export type MatchLineOutcome =
  /** The payout's state already agrees with the line: recorded at once, no money moved. */
  | { kind: 'matched' }
  /** Matching settles or reverses the payout: a request for a second person. */
  | { kind: 'planned'; planned: PlannedRequest }
  | BreakRefusal;

/** The payouts a break's bank line may be: a suggestion's stored candidates, else the line's amount near its date. */
export async function candidatesOf(
  db: PrismaClientOrTransaction,
  item: StatementBreakRow['item'],
): Promise<LineCandidate[]> {
  if (item.candidates)
    return findLineCandidates(
      db,
      item.candidates.map((c) => c.ack_no),
    );
  const amountPaise = item.bank ? parseRupees(item.bank.amount) : undefined;
  if (!item.bank || amountPaise === undefined) return [];
  return findPayoutsNearLine(db, { amountPaise, valueDate: item.bank.value_date });
}

/**
 * "Not ours" or "needs the bank" (docs/reconciliation.md, "The breaks page"): no money moves, so one operator
 * decides — unless the break says money is missing (`*_missing_at_bank`, `amount_mismatch`): setting that
 * aside could bury money the bank never paid or returned, so it is planned as a `statement.decide` request
 * another approver approves. `needs_bank` keeps the break open, marked waiting; either may follow a `needs_bank`.
 */
export async function decideStatementBreak(
  deps: { db: PrismaClient },
  input: StatementBreakKey & { decision: BreakDecision; note: string; by: Person },
): Promise<DecideBreakOutcome> {
  if (!may(input.by.role, 'act')) return { kind: 'not-allowed', why: `${input.by.username} may not act` };
  const found = await openBreak(deps.db, input);
  if ('kind' in found) return found;
  if (breakSaysMoneyIsMissing(found.item.kind)) {
    if (!may(input.by.role, 'request')) return { kind: 'not-allowed', why: `${input.by.username} may not ask` };
    return { kind: 'planned', planned: planBreakDecision(found, input) };
  }
  return deps.db.$transaction(async (tx) => {
    const again = await openBreak(tx, input);
    if ('kind' in again) return again;
    return record(tx, again, { ...input, payoutId: null, approvalId: null });
  });
}

type BreakDecision = 'not_ours' | 'needs_bank';

/** What a decision on a money-missing break carries to its approval: the break as it was, and the decision. */
interface StatementDecisionParams {
  runId: string;
  position: number;
  kind: string;
  reference: string;
  decision: BreakDecision;
  note: string;
}

const DECISION_WORDS: Record<BreakDecision, string> = {
  not_ours: 'not ours (the break leaves the open list)',
  needs_bank: 'needs the bank (the break stays open, marked waiting)',
};

function planBreakDecision(found: StatementBreakRow, input: { decision: BreakDecision; note: string }): PlannedRequest {
  const { item } = found;
  const params: StatementDecisionParams = {
    runId: found.run.id.toString(),
    position: found.position,
    kind: item.kind,
    reference: item.reference,
    decision: input.decision,
    note: input.note,
  };
  const bank = item.bank;
  const books = item.books;
  return {
    action: 'statement.decide',
    merchantId: null,
    params: { ...params },
    preview: {
      summary: `Decide statement run ${params.runId} break ${params.position} (${item.kind}, ${item.reference}) as ${DECISION_WORDS[input.decision]}`,
      run: params.runId,
      break: item.kind,
      reference: item.reference,
      decision: input.decision,
      bankSays: bank ? `${bank.type} ₹ ${bank.amount}, UTR ${bank.utr}, ${bank.value_date}` : 'nothing',
      booksSay: books
        ? `${books.state} ₹ ${books.amount}${books.utr ? `, UTR ${books.utr}` : ''}${books.settled_on ? `, settled ${books.settled_on}` : ''}`
        : 'nothing',
    },
  };
}

/**
 * The approved decision, in the approver's transaction: the break must still be open and the same break;
 * then it is decided as asked, naming both people. Otherwise nothing changes.
 */
export const statementBreakDecision = {
  action: 'statement.decide',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as StatementDecisionParams;
    const found = await openBreak(tx, { runId: BigInt(params.runId), position: params.position });
    if ('kind' in found) return { kind: 'refused', why: refusalText(found) };
    if (found.item.kind !== params.kind || found.item.reference !== params.reference) {
      return { kind: 'refused', why: 'the break at that position is no longer the one decided' };
    }
    const recorded = await record(tx, found, {
      decision: params.decision,
      note: `${params.note} — requested by ${request.maker}, approved by ${approver.username} (approval ${request.id})`,
      by: approver,
      payoutId: null,
      approvalId: request.id,
    });
    if (recorded.kind !== 'decided') return { kind: 'refused', why: refusalText(recorded) };
    return {
      kind: 'executed',
      outcome: { runId: params.runId, position: params.position, decision: params.decision },
    };
  },
} satisfies MoneyAction;

/**
 * Matches a break's bank line to one of its candidate payouts. When the payout already is where the line says
 * (a DEBIT of a SUCCESS or REVERSED payout, a RETURN of a REVERSED one) the match is recorded at once; when
 * matching moves money — a DEBIT of a payout still in flight is settled SUCCESS with the line's UTR, a RETURN
 * of a SUCCESS payout reverses it — it is planned for a second person.
 */
export async function matchStatementLine(
  deps: { db: PrismaClient },
  input: StatementBreakKey & { ackNo: string; note: string; by: Person },
): Promise<MatchLineOutcome> {
  if (!may(input.by.role, 'request')) return { kind: 'not-allowed', why: `${input.by.username} may not match` };
  const found = await openBreak(deps.db, input);
  if ('kind' in found) return found;
  const bank = found.item.bank;
  if (!bank) return { kind: 'refused', why: 'the break has no bank line to match' };
  const chosen = (await candidatesOf(deps.db, found.item)).find((c) => c.ackNo === input.ackNo);
  if (!chosen) return { kind: 'refused', why: `${input.ackNo} is not one of the line's candidates` };
  if (formatRupees(chosen.amountPaise) !== bank.amount) {
    return {
      kind: 'refused',
      why: `${chosen.ackNo} is ₹ ${formatRupees(chosen.amountPaise)}, the line ₹ ${bank.amount}`,
    };
  }
  const effect = effectOf(bank.type, chosen.state);
  if (effect.kind === 'refused') return effect;
  if (effect.kind === 'none') {
    return deps.db.$transaction(async (tx) => {
      const again = await openBreak(tx, input);
      if ('kind' in again) return again;
      const outcome = await record(tx, again, { ...input, decision: 'matched', payoutId: chosen.id, approvalId: null });
      return outcome.kind === 'decided' ? { kind: 'matched' } : outcome;
    });
  }
  return { kind: 'planned', planned: await planMoneyMatch(deps.db, found, chosen, effect.kind, input) };
}

type Effect = { kind: 'none' | 'settle' | 'reverse' } | { kind: 'refused'; why: string };

/** What matching a line of `type` to a payout in `state` does to the payout. */
function effectOf(type: string, state: PayoutState): Effect {
  if (type === 'DEBIT') {
    if (state === 'SUCCESS' || state === 'REVERSED') return { kind: 'none' };
    if (IN_FLIGHT_STATES.includes(state)) return { kind: 'settle' };
    return { kind: 'refused', why: `the payout is ${state}: a payment of it is a discrepancy, not a match` };
  }
  if (state === 'SUCCESS') return { kind: 'reverse' };
  if (state === 'REVERSED') return { kind: 'none' };
  return { kind: 'refused', why: `the payout is ${state}: money of it cannot come back` };
}

/**
 * The break, if it exists, its run is in effect, and it has no final decision (a `needs_bank` is still open).
 * A run waiting for a second person's approval has no breaks to decide yet; one that was not approved never
 * has (docs/reconciliation.md, "When a run takes effect").
 */
async function openBreak(
  db: PrismaClientOrTransaction,
  key: StatementBreakKey,
): Promise<StatementBreakRow | BreakRefusal> {
  const found = await findStatementBreak(db, key.runId, key.position, { lock: true });
  if (!found) return { kind: 'no-break' };
  if (!found.run.inEffect) {
    return {
      kind: 'refused',
      why:
        found.run.waitingFor === null
          ? `statement run ${found.run.id} was not approved: its breaks never counted`
          : `statement run ${found.run.id} waits for approval ${found.run.waitingFor}: its breaks are decided once it is approved`,
    };
  }
  if (found.decision && FINAL_BREAK_DECISIONS.includes(found.decision.decision)) {
    return { kind: 'already-decided', decision: found.decision };
  }
  return found;
}

/** Records the decision and its audit entry, in the caller's transaction. */
async function record(
  tx: PrismaClientOrTransaction,
  found: StatementBreakRow,
  input: {
    decision: 'matched' | 'not_ours' | 'needs_bank';
    note: string;
    by: Pick<Person, 'username' | 'via'>;
    payoutId: bigint | null;
    approvalId: bigint | null;
  },
): Promise<DecideBreakOutcome> {
  const recorded = await recordBreakDecision(tx, {
    runId: found.run.id,
    position: found.position,
    item: found.item,
    decision: input.decision,
    decidedBy: actorOf(input.by),
    note: input.note,
    payoutId: input.payoutId,
    approvalRequestId: input.approvalId,
  });
  if (!recorded) return { kind: 'refused', why: 'the break was decided meanwhile' };
  await audit(tx, { actor: actorOf(input.by), reason: input.note }, DECIDE_BREAK, {
    payoutId: input.payoutId,
    detail: {
      runId: found.run.id,
      position: found.position,
      kind: found.item.kind,
      reference: found.item.reference,
      line: found.item.bank?.line ?? null,
      decision: input.decision,
      ...(input.approvalId !== null && { approvalId: input.approvalId }),
    },
  });
  return { kind: 'decided' };
}

/** What a money match carries to its approval: the break as it was, and the payout as it was. */
interface StatementMatchParams {
  runId: string;
  position: number;
  kind: string;
  reference: string;
  payoutId: string;
  ackNo: string;
  effect: 'settle' | 'reverse';
  expectedState: PayoutState;
  line: { line: number; utr: string; amount: string; type: string; value_date: string };
  note: string;
}

async function planMoneyMatch(
  db: PrismaClient,
  found: StatementBreakRow,
  chosen: LineCandidate,
  effect: 'settle' | 'reverse',
  input: { note: string },
): Promise<PlannedRequest> {
  const line = found.item.bank!;
  const { merchantId } = await db.payout.findUniqueOrThrow({ where: { id: chosen.id }, select: { merchantId: true } });
  const params: StatementMatchParams = {
    runId: found.run.id.toString(),
    position: found.position,
    kind: found.item.kind,
    reference: found.item.reference,
    payoutId: chosen.id.toString(),
    ackNo: chosen.ackNo,
    effect,
    expectedState: chosen.state,
    line,
    note: input.note,
  };
  const what = effect === 'settle' ? `settle it SUCCESS with UTR ${line.utr}` : 'reverse it (the money came back)';
  return {
    action: 'statement.match',
    merchantId,
    payoutId: chosen.id,
    params: { ...params },
    preview: {
      summary: `Match statement run ${params.runId} line ${line.line} (${line.type} ₹ ${line.amount}) to ${chosen.ackNo} and ${what}`,
      run: params.runId,
      line: line.line,
      bankSays: `${line.type} ₹ ${line.amount}, UTR ${line.utr}, ${line.value_date}`,
      break: found.item.kind,
      ackNo: chosen.ackNo,
      beneficiary: chosen.beneficiaryName,
      amount: formatRupees(chosen.amountPaise),
      stateNow: chosen.state,
      effect: effect === 'settle' ? 'settle SUCCESS' : 'reverse',
    },
  };
}

/**
 * The approved match, in the approver's transaction: the break must still be open and the same break, the
 * payout still in the state it was matched in; then the ordinary guarded transition moves it (naming the run
 * and the line, as a statement's own changes do) and the break is decided `matched`. Otherwise nothing runs.
 */
export const statementLineMatch = {
  action: 'statement.match',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as StatementMatchParams;
    const found = await openBreak(tx, { runId: BigInt(params.runId), position: params.position });
    if ('kind' in found) return { kind: 'refused', why: refusalText(found) };
    if (found.item.kind !== params.kind || found.item.reference !== params.reference) {
      return { kind: 'refused', why: `the break at that position is no longer the one matched` };
    }
    const payoutId = BigInt(params.payoutId);
    const moved = await movePayout(tx, payoutId, params, approver.username);
    if (moved.kind === 'refused') return moved;
    const recorded = await record(tx, found, {
      decision: 'matched',
      note: `${params.note} — requested by ${request.maker}, approved by ${approver.username} (approval ${request.id})`,
      by: approver,
      payoutId,
      approvalId: request.id,
    });
    if (recorded.kind !== 'decided') return { kind: 'refused', why: refusalText(recorded) };
    return {
      kind: 'executed',
      outcome: { runId: params.runId, position: params.position, ackNo: params.ackNo, effect: params.effect },
    };
  },
} satisfies MoneyAction;

/** Settles or reverses the matched payout through the guarded transitions, only from the state it was matched in. */
async function movePayout(
  tx: PrismaClientOrTransaction,
  payoutId: bigint,
  params: StatementMatchParams,
  approver: string,
): Promise<{ kind: 'moved' } | { kind: 'refused'; why: string }> {
  const { line } = params;
  const from = `statement run ${params.runId} line ${line.line}, matched by a person`;
  const railAnswer = {
    statementRunId: params.runId,
    lineNumber: line.line,
    utr: line.utr,
    amountPaise: parseRupees(line.amount)?.toString() ?? null,
    type: line.type,
    valueDate: line.value_date,
  };
  const actor = `operator:${approver}`;
  const result =
    params.effect === 'settle'
      ? await settleSuccess(
          tx,
          payoutId,
          line.utr,
          { reason: `${from}: the bank paid it (UTR ${line.utr})`, actor, railAnswer },
          { onlyFrom: [params.expectedState] },
        )
      : params.expectedState === 'SUCCESS'
        ? await reversePayout(tx, payoutId, {
            source: 'statement',
            bankReference: line.utr,
            note: { reason: `${from}: the money came back (UTR ${line.utr})`, actor, railAnswer },
          })
        : { moved: false, from: null };
  if (result.moved) return { kind: 'moved' };
  return {
    kind: 'refused',
    why: `${params.ackNo} is ${result.from ?? 'gone'} now, not ${params.expectedState}: match the line again`,
  };
}

function refusalText(refusal: BreakRefusal | DecideBreakOutcome): string {
  switch (refusal.kind) {
    case 'no-break':
      return 'the break is gone';
    case 'already-decided':
      return `the break was decided meanwhile (${refusal.decision.decision} by ${refusal.decision.decidedBy})`;
    case 'not-allowed':
    case 'refused':
      return refusal.why;
    case 'decided':
      return 'decided';
    case 'planned':
      return 'asked of a second person';
  }
}
