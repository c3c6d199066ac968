import { findWallet, type PlannedStatementAction, type PrismaClient } from '@payout/db';
import { formatRupees } from '@payout/domain';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf } from './approvals/person.js';
import { applyStatementActions } from './statement-actions.js';
import type { StatementRunReport } from './statement-reconciliation.js';

export type PlanStatementApplicationOutcome =
  | { kind: 'planned'; planned: PlannedRequest }
  /** The statement settles and reverses nothing: there is nothing for a second person to approve. */
  | { kind: 'nothing-to-apply' };

interface StatementApplicationParams {
  runId: string;
  fileName: string;
  actions: (Omit<PlannedStatementAction, 'payoutId' | 'amountPaise'> & { payoutId: string; amountPaise: string })[];
}

/**
 * The settlements and reversals a statement run found (docs/reconciliation.md), described for a second
 * person: a bank file is evidence, and acting on it moves money, so one person never applies it alone.
 * The approver sees every payout, its amount and line, and what each merchant's wallet holds before and after.
 */
export async function planStatementApplication(
  deps: { db: PrismaClient },
  input: { report: StatementRunReport; fileName: string },
): Promise<PlanStatementApplicationOutcome> {
  const actions = input.report.plannedActions;
  if (actions.length === 0) return { kind: 'nothing-to-apply' };
  const settling = actions.filter((a) => a.kind === 'settle-success');
  const reversing = actions.filter((a) => a.kind === 'reverse');
  const sum = (list: readonly PlannedStatementAction[]) => list.reduce((total, a) => total + a.amountPaise, 0n);
  const wallets = await walletsAfterReversals(deps.db, reversing);
  const params: StatementApplicationParams = {
    runId: input.report.runId.toString(),
    fileName: input.fileName,
    actions: actions.map((a) => ({ ...a, payoutId: a.payoutId.toString(), amountPaise: a.amountPaise.toString() })),
  };
  return {
    kind: 'planned',
    planned: {
      action: 'statement.apply',
      merchantId: null,
      params: { ...params },
      preview: {
        summary: `Apply statement ${input.fileName} (run ${input.report.runId}): settle ${settling.length} payout(s) the bank paid (${formatRupees(sum(settling))}) and reverse ${reversing.length} it returned (${formatRupees(sum(reversing))})`,
        run: input.report.runId.toString(),
        file: input.fileName,
        settle: settling.length,
        settleTotal: formatRupees(sum(settling)),
        reverse: reversing.length,
        reverseTotal: formatRupees(sum(reversing)),
        payouts: actions.map((a) => ({
          ackNo: a.ackNo,
          action: a.kind,
          amount: formatRupees(a.amountPaise),
          utr: a.utr,
          line: a.lineNumber,
          stateNow: a.expectedState,
        })),
        wallets,
      },
    },
  };
}

/** Each merchant a reversal pays back: its main wallet before and after. */
async function walletsAfterReversals(
  db: PrismaClient,
  reversing: readonly PlannedStatementAction[],
): Promise<{ mid: string; availableBefore: string; availableAfter: string }[]> {
  if (reversing.length === 0) return [];
  const owners = await db.payout.findMany({
    where: { id: { in: reversing.map((a) => a.payoutId) } },
    select: { id: true, merchantId: true, merchant: { select: { mid: true } } },
  });
  const back = new Map<number, { mid: string; paise: bigint }>();
  for (const action of reversing) {
    const owner = owners.find((o) => o.id === action.payoutId);
    if (!owner) continue;
    const entry = back.get(owner.merchantId) ?? { mid: owner.merchant.mid, paise: 0n };
    entry.paise += action.amountPaise;
    back.set(owner.merchantId, entry);
  }
  return Promise.all(
    [...back].map(async ([merchantId, { mid, paise }]) => {
      const available = (await findWallet(db, merchantId))?.availablePaise ?? 0n;
      return { mid, availableBefore: formatRupees(available), availableAfter: formatRupees(available + paise) };
    }),
  );
}

/**
 * The approved statement: every settlement and reversal in the approver's transaction, each payout still
 * in the state the run found it in; if any moved meanwhile, nothing is applied and the approval is refused
 * with the list (run the statement again to plan afresh).
 */
export const statementApplication = {
  action: 'statement.apply',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as StatementApplicationParams;
    const result = await applyStatementActions(tx, {
      runId: BigInt(params.runId),
      actions: params.actions.map((a) => ({ ...a, payoutId: BigInt(a.payoutId), amountPaise: BigInt(a.amountPaise) })),
      actor: `operator:${approver.username}`,
    });
    if (result.kind === 'moved') {
      const moved = result.payouts.map((p) => `${p.ackNo} is ${p.now ?? 'gone'}, not ${p.expected}`).join('; ');
      return { kind: 'refused', why: `payouts moved since the run: ${moved}` };
    }
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'statement.apply', {
      detail: {
        runId: params.runId,
        file: params.fileName,
        settled: result.settled,
        reversed: result.reversed,
        approvalId: request.id,
        requestedBy: request.maker,
        approvedBy: approver.username,
      },
    });
    return { kind: 'executed', outcome: { runId: params.runId, settled: result.settled, reversed: result.reversed } };
  },
} satisfies MoneyAction;
