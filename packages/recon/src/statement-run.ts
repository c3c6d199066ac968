import { formatRupees, type Paise, type PayoutState } from '@payout/domain';
import { RECON_CLASSES, type ReconClass, type ReconItem } from './statement-matcher.js';

/**
 * What a statement run keeps of the matcher's items (docs/reconciliation.md, "Planning and applying"): the
 * settlements and reversals it plans, its counts, its breaks, and where each line is in the run's files.
 */

/**
 * A settlement or a reversal a run would carry out: money, so it is planned when the statement is matched
 * and carried out later (docs/reconciliation.md, "Planning and applying"), only if the payout is still in
 * the state it was planned from.
 */
export interface PlannedStatementAction {
  kind: 'settle-success' | 'reverse';
  payoutId: bigint;
  ackNo: string;
  /** The statement's reference of the movement: the payment's UTR, or the return's. */
  utr: string;
  amountPaise: Paise;
  /** The statement line it comes from (the header is line 1). */
  lineNumber: number;
  /** The file of a run of several the line is in (1-based); absent for a run of one file. */
  file?: number;
  valueDate: string;
  /** The payout's state when the statement was matched. */
  expectedState: PayoutState;
}

/** The money actions of a run's items, payments before returns (a payout paid and returned is settled first). */
export function planActions(items: readonly ReconItem[]): PlannedStatementAction[] {
  const planned: PlannedStatementAction[] = [];
  for (const { action, line, payout } of items) {
    if (!action || action.kind === 'record-discrepancy' || !line || !payout) continue;
    planned.push({
      kind: action.kind,
      payoutId: payout.id,
      ackNo: payout.ackNo,
      utr: action.utr,
      // The payout's own amount: a line paying a whole batch pays each payout its part.
      amountPaise: payout.amountPaise,
      lineNumber: line.lineNumber,
      ...(line.file !== undefined && { file: line.file }),
      valueDate: line.valueDate,
      expectedState: payout.state,
    });
  }
  return inApplyingOrder(planned);
}

/** Payments before returns, then in the statements' order: file by file, line by line. */
export function inApplyingOrder(actions: readonly PlannedStatementAction[]): PlannedStatementAction[] {
  const rank = (a: PlannedStatementAction) => (a.kind === 'settle-success' ? 0 : 1);
  return [...actions].sort((a, b) => rank(a) - rank(b) || (a.file ?? 0) - (b.file ?? 0) || a.lineNumber - b.lineNumber);
}

/**
 * Where a line is in a run: its line number, and its file when the run reads several. One text per line,
 * for keying the actions and breaks of a run (a run of one file keys as every run did before).
 */
export function linePlace(at: { lineNumber: number; file?: number } | { line: number; file?: number }): string {
  const line = 'lineNumber' in at ? at.lineNumber : at.line;
  return at.file === undefined ? `line ${line}` : `file ${at.file} line ${line}`;
}

/** The counts of a run: one key per class, plus how many actions `--apply` carried out. */
export type ReconCounts = Record<ReconClass, number> & { applied: number };

export function countItems(items: readonly ReconItem[], applied: number): ReconCounts {
  const counts = Object.fromEntries(RECON_CLASSES.map((c) => [c, 0])) as Record<ReconClass, number>;
  for (const item of items) counts[item.class]++;
  return { ...counts, applied };
}

/** One unresolved item as the report shows it: its kind, the reference, and what each side says. */
export interface ReconBreak {
  kind: ReconClass;
  reference: string;
  /** `file`: the file of a run of several the line is in (1-based); absent for a run of one file. */
  bank: { line: number; file?: number; utr: string; amount: string; type: string; value_date: string } | null;
  books: { state: PayoutState; amount: string; utr: string | null; settled_on: string | null } | null;
  /** For a `suggested_match`: the payouts the line may be. */
  candidates?: { ack_no: string; amount: string; beneficiary: string | null; date: string }[];
}

export function breakOf(item: ReconItem): ReconBreak {
  return {
    kind: item.class,
    reference: item.reference,
    bank: item.line
      ? {
          line: item.line.lineNumber,
          ...(item.line.file !== undefined && { file: item.line.file }),
          utr: item.line.utr,
          amount: formatRupees(item.line.amountPaise),
          type: item.line.type,
          value_date: item.line.valueDate,
        }
      : null,
    books: item.payout
      ? {
          state: item.payout.state,
          amount: formatRupees(item.payout.amountPaise),
          utr: item.payout.bankReference,
          settled_on: item.payout.settledOn,
        }
      : null,
    ...(item.candidates && {
      candidates: item.candidates.map((p) => ({
        ack_no: p.ackNo,
        amount: formatRupees(p.amountPaise),
        beneficiary: p.beneficiaryName ?? null,
        date: p.settledOn ?? p.sentOn,
      })),
    }),
  };
}
