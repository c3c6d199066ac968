import { formatRupees, IN_FLIGHT_STATES, type Paise, type PayoutState } from '@payout/domain';
import type { StatementLine } from './statement-csv.js';

/**
 * How each statement line and each of our payouts of the statement's dates compares (docs/reconciliation.md):
 * - matched: the bank and our books agree;
 * - paid_but_failed_here: the bank paid a payout we settled FAILED (and refunded) — money lost, for a person;
 * - success_here_missing_at_bank: SUCCESS here, settled on one of the statement's dates, and no DEBIT line;
 * - pending_here_paid_at_bank: still PENDING here and the bank paid it — `--apply` settles it SUCCESS;
 * - amount_mismatch: the line's amount is not the payout's;
 * - unknown_reference: no payout of ours has the line's reference;
 * - return: money of a payout came back — `--apply` reverses a SUCCESS payout;
 * - duplicate_line: a second line of the same reference and type;
 * - return_before_sent: money came back on a day before the payout was sent to the rail — it cannot have;
 * - value_date_in_future: a line dated after today (IST) — the bank cannot have done it yet.
 * A statement is evidence, not an order: the last two are never applied, whatever the line says.
 */
export const RECON_CLASSES = [
  'matched',
  'paid_but_failed_here',
  'success_here_missing_at_bank',
  'pending_here_paid_at_bank',
  'amount_mismatch',
  'unknown_reference',
  'return',
  'duplicate_line',
  'return_before_sent',
  'value_date_in_future',
] as const;
export type ReconClass = (typeof RECON_CLASSES)[number];

/** A payout as our books hold it, for matching. */
export interface BookPayout {
  id: bigint;
  ackNo: string;
  state: PayoutState;
  amountPaise: Paise;
  bankReference: string | null;
  /** The (IST) date the payout was settled, YYYY-MM-DD; null while pending. */
  settledOn: string | null;
  /**
   * The (IST) date the payout was first sent to the rail (its first move to SUBMITTING), or the date it
   * was accepted if it never was: no money of it can come back before.
   */
  sentOn: string;
}

/** What `--apply` may do about an item: only the unambiguous. */
export type ReconAction =
  /** A PENDING payout the bank paid: settle it SUCCESS with the statement's UTR. */
  | { kind: 'settle-success'; payoutId: bigint; utr: string }
  /** A SUCCESS payout whose money came back: reverse it. */
  | { kind: 'reverse'; payoutId: bigint; utr: string }
  /** Not for a machine to settle: keep it as a discrepancy for an operator. */
  | { kind: 'record-discrepancy'; payoutId: bigint; discrepancy: 'SUCCESS_AFTER_FAILED' | 'REVERSAL_OF_UNPAID' };

export interface ReconItem {
  class: ReconClass;
  reference: string;
  /** The statement's side (absent for a payout the statement does not mention). */
  line?: StatementLine;
  /** Our side (absent for an unknown reference). */
  payout?: BookPayout;
  /** What `--apply` would do. */
  action?: ReconAction;
  /** True when nothing is left to do: an agreement, or a return already reversed here. */
  resolved: boolean;
}

const PAID_HERE: readonly PayoutState[] = ['SUCCESS', 'REVERSED'];

/**
 * Matches every statement line against our payouts and every payout of the statement's dates against
 * the statement. `payouts` must hold every payout a line references and every payout settled on one of
 * `valueDates`. Pure: the same statement and books always classify the same way, so a second run after
 * `--apply` finds nothing left to apply.
 */
export function matchStatement(
  lines: readonly StatementLine[],
  valueDates: readonly string[],
  payouts: readonly BookPayout[],
  calendar: { today: string },
): ReconItem[] {
  const byReference = new Map(payouts.map((p) => [p.ackNo, p]));
  const seen = new Set<string>();
  const debited = new Set<string>();
  const items: ReconItem[] = [];

  for (const line of lines) {
    const key = `${line.type}:${line.reference}`;
    const payout = byReference.get(line.reference);
    if (seen.has(key)) {
      items.push({
        class: 'duplicate_line',
        reference: line.reference,
        line,
        ...(payout && { payout }),
        resolved: false,
      });
      continue;
    }
    seen.add(key);
    // Dated after today: not a movement yet, so neither a payment nor a return to act on.
    if (line.valueDate > calendar.today) {
      items.push({
        class: 'value_date_in_future',
        reference: line.reference,
        line,
        ...(payout && { payout }),
        resolved: false,
      });
      continue;
    }
    if (line.type === 'DEBIT') debited.add(line.reference);
    if (!payout) {
      items.push({ class: 'unknown_reference', reference: line.reference, line, resolved: false });
      continue;
    }
    if (payout.amountPaise !== line.amountPaise) {
      items.push({ class: 'amount_mismatch', reference: line.reference, line, payout, resolved: false });
      continue;
    }
    if (line.type === 'RETURN' && line.valueDate < payout.sentOn) {
      items.push({ class: 'return_before_sent', reference: line.reference, line, payout, resolved: false });
      continue;
    }
    items.push(line.type === 'DEBIT' ? classifyDebit(line, payout) : classifyReturn(line, payout));
  }

  const dates = new Set(valueDates);
  for (const payout of payouts) {
    if (debited.has(payout.ackNo) || !PAID_HERE.includes(payout.state)) continue;
    if (payout.settledOn === null || !dates.has(payout.settledOn)) continue;
    items.push({ class: 'success_here_missing_at_bank', reference: payout.ackNo, payout, resolved: false });
  }
  return items;
}

function classifyDebit(line: StatementLine, payout: BookPayout): ReconItem {
  const base = { reference: line.reference, line, payout };
  if (PAID_HERE.includes(payout.state)) return { ...base, class: 'matched', resolved: true };
  if (payout.state === 'FAILED') {
    return {
      ...base,
      class: 'paid_but_failed_here',
      action: { kind: 'record-discrepancy', payoutId: payout.id, discrepancy: 'SUCCESS_AFTER_FAILED' },
      resolved: false,
    };
  }
  // Pending here. Only a payout that reached the rail can be settled; one still ACCEPTED is a break.
  const settleable = IN_FLIGHT_STATES.includes(payout.state);
  return {
    ...base,
    class: 'pending_here_paid_at_bank',
    ...(settleable && { action: { kind: 'settle-success', payoutId: payout.id, utr: line.utr } as const }),
    resolved: false,
  };
}

function classifyReturn(line: StatementLine, payout: BookPayout): ReconItem {
  const base = { class: 'return' as const, reference: line.reference, line, payout };
  if (payout.state === 'REVERSED') return { ...base, resolved: true };
  if (payout.state === 'SUCCESS') {
    return { ...base, action: { kind: 'reverse', payoutId: payout.id, utr: line.utr }, resolved: false };
  }
  // Money came back for a payout not paid here (FAILED, or still pending): for a person.
  return {
    ...base,
    action: { kind: 'record-discrepancy', payoutId: payout.id, discrepancy: 'REVERSAL_OF_UNPAID' },
    resolved: false,
  };
}

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
      amountPaise: line.amountPaise,
      lineNumber: line.lineNumber,
      valueDate: line.valueDate,
      expectedState: payout.state,
    });
  }
  return inApplyingOrder(planned);
}

/** Payments before returns, then in the statement's order. */
export function inApplyingOrder(actions: readonly PlannedStatementAction[]): PlannedStatementAction[] {
  const rank = (a: PlannedStatementAction) => (a.kind === 'settle-success' ? 0 : 1);
  return [...actions].sort((a, b) => rank(a) - rank(b) || a.lineNumber - b.lineNumber);
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
  bank: { line: number; utr: string; amount: string; type: string; value_date: string } | null;
  books: { state: PayoutState; amount: string; utr: string | null; settled_on: string | null } | null;
}

export function breakOf(item: ReconItem): ReconBreak {
  return {
    kind: item.class,
    reference: item.reference,
    bank: item.line
      ? {
          line: item.line.lineNumber,
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
  };
}
