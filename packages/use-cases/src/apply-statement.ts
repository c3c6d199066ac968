import { findWallet, type PlannedStatementAction, type PrismaClient } from '@payout/db';
import { formatRupees } from '@payout/domain';
import { linePlace } from '@payout/recon';
import { audit } from './audit.js';
import type { MoneyAction, PlannedRequest } from './approvals/money-action.js';
import { actorOf } from './approvals/person.js';
import { applyStatementActions } from './statement-actions.js';
import type { FoundDiscrepancy } from './statement-matching.js';
import type { StatementRunReport } from './statement-reconciliation.js';

export type PlanStatementApplicationOutcome =
  | { kind: 'planned'; planned: PlannedRequest }
  /** The run asks a second person for nothing (no settlement, reversal or closure): it took effect as stored. */
  | { kind: 'nothing-to-apply' };

interface StatementApplicationParams {
  runId: string;
  fileName: string;
  actions: (Omit<PlannedStatementAction, 'payoutId' | 'amountPaise'> & { payoutId: string; amountPaise: string })[];
}

/**
 * What a statement run found (docs/reconciliation.md, "When a run takes effect"), described for a second
 * person: a bank file is evidence, and acting on it moves money or sets aside a break that says money is
 * missing, so one person never applies it alone. The approver sees every payout it settles or reverses, its
 * amount and line, and what each merchant's wallet holds before and after; the earlier breaks it closes as
 * booked the next day; and what else takes effect with it — the breaks it leaves for a person and the
 * discrepancies it records.
 */
export async function planStatementApplication(
  deps: { db: PrismaClient },
  input: { report: StatementRunReport; fileName: string; discrepancies: readonly FoundDiscrepancy[] },
): Promise<PlanStatementApplicationOutcome> {
  const { report } = input;
  const actions = report.plannedActions;
  const closures = report.closesEarlierBreaks;
  if (actions.length === 0 && closures.length === 0) return { kind: 'nothing-to-apply' };
  const settling = actions.filter((a) => a.kind === 'settle-success');
  const reversing = actions.filter((a) => a.kind === 'reverse');
  const sum = (list: readonly PlannedStatementAction[]) => list.reduce((total, a) => total + a.amountPaise, 0n);
  const wallets = await walletsAfterReversals(deps.db, reversing);
  const params: StatementApplicationParams = {
    runId: report.runId.toString(),
    fileName: input.fileName,
    actions: actions.map((a) => ({ ...a, payoutId: a.payoutId.toString(), amountPaise: a.amountPaise.toString() })),
  };
  const closing = closures.length
    ? `; close ${closures.length} earlier break(s) of money missing at the bank that it shows booked the next day`
    : '';
  return {
    kind: 'planned',
    planned: {
      action: 'statement.apply',
      merchantId: null,
      params: { ...params },
      preview: {
        summary: `Apply statement ${input.fileName} (run ${report.runId}): settle ${settling.length} payout(s) the bank paid (${formatRupees(sum(settling))}) and reverse ${reversing.length} it returned (${formatRupees(sum(reversing))})${closing}`,
        run: report.runId.toString(),
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
        closesEarlierBreaks: closures.map((c) => ({
          run: c.runId.toString(),
          break: c.kind,
          ackNo: c.reference,
          line: linePlace(c),
        })),
        breaksLeft: breaksLeftAfter(report),
        discrepancies: input.discrepancies.map((d) => ({
          kind: d.kind,
          reference: d.line.reference,
          line: linePlace(d.line),
        })),
      },
    },
  };
}

/** The run's breaks a person is left with once its actions are carried out (a break is its line's, in its file). */
function breaksLeftAfter(report: StatementRunReport): number {
  const acted = new Set(report.plannedActions.map(linePlace));
  return report.breaks.filter((b) => b.bank === null || !acted.has(linePlace(b.bank))).length;
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
 * The approved statement: the run takes effect in the approver's transaction — every settlement and reversal,
 * each payout still in the state the run found it in; every earlier break it answers closed, each still open
 * as the run found it; its discrepancies recorded. If a payout moved or a break was decided meanwhile,
 * nothing is done and the approval is refused with the list (run the statement again to plan afresh).
 */
export const statementApplication = {
  action: 'statement.apply',
  async execute({ tx, request, approver }) {
    const params = request.params as unknown as StatementApplicationParams;
    const result = await applyStatementActions(tx, {
      runId: BigInt(params.runId),
      actions: params.actions.map((a) => ({ ...a, payoutId: BigInt(a.payoutId), amountPaise: BigInt(a.amountPaise) })),
      actor: `operator:${approver.username}`,
      approval: { id: request.id, maker: request.maker, approver: approver.username },
    });
    if (result.kind === 'moved') {
      const moved = result.payouts.map((p) => `${p.ackNo} is ${p.now ?? 'gone'}, not ${p.expected}`).join('; ');
      return { kind: 'refused', why: `payouts moved since the run: ${moved}` };
    }
    if (result.kind === 'breaks-moved') {
      const why = result.breaks.map((b) => b.why).join('; ');
      return { kind: 'refused', why: `earlier breaks are no longer open as the run found them: ${why}` };
    }
    await audit(tx, { actor: actorOf(approver), reason: request.makerReason }, 'statement.apply', {
      detail: {
        runId: params.runId,
        file: params.fileName,
        settled: result.settled,
        reversed: result.reversed,
        closedEarlierBreaks: result.closed,
        discrepancies: result.discrepancies,
        approvalId: request.id,
        requestedBy: request.maker,
        approvedBy: approver.username,
      },
    });
    return {
      kind: 'executed',
      outcome: {
        runId: params.runId,
        settled: result.settled,
        reversed: result.reversed,
        closedEarlierBreaks: result.closed,
        discrepancies: result.discrepancies,
      },
    };
  },
} satisfies MoneyAction;
