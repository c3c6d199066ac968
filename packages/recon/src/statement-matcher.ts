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
 * - value_date_in_future: a line dated after today (IST) — the bank cannot have done it yet;
 * - suggested_match: a line of no known reference, UTR or batch, and a few payouts of its amount and
 *   dates that it may be (docs/reconciliation.md, "Matching beyond the reference").
 * A statement is evidence, not an order: the last three are never applied, whatever the line says.
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
  'suggested_match',
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
  /** The beneficiary's name, to narrow a suggestion to the payout a narration names. */
  beneficiaryName?: string;
  /** The bulk batch the payout came in, if any: `payouts` is how many payouts the whole batch has. */
  batch?: { key: string; batchId: string; payouts: number } | null;
}

/** A statement line, with the bank's narration when its format has one. */
export type MatchableLine = StatementLine & { narration?: string };

/** More candidates than this is no suggestion: an operator could not tell them apart. */
export const MAX_SUGGESTIONS = 3;

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
  /** The payouts a `suggested_match` line may be. */
  candidates?: BookPayout[];
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
  lines: readonly MatchableLine[],
  valueDates: readonly string[],
  payouts: readonly BookPayout[],
  calendar: { today: string },
): ReconItem[] {
  const books = indexBooks(payouts);
  const seen = new Set<string>();
  const debited = new Set<string>();
  const items: ReconItem[] = [];

  for (const line of lines) {
    const key = `${line.type}:${line.reference}`;
    const payout = books.byReference(line);
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
    if (!payout) {
      items.push(...matchWithoutKey(line, books, debited, seen));
      continue;
    }
    if (line.type === 'DEBIT') debited.add(payout.ackNo);
    items.push(classifyNamed(line, payout));
  }

  const dates = new Set(valueDates);
  for (const payout of payouts) {
    if (debited.has(payout.ackNo) || !PAID_HERE.includes(payout.state)) continue;
    if (payout.settledOn === null || !dates.has(payout.settledOn)) continue;
    items.push({ class: 'success_here_missing_at_bank', reference: payout.ackNo, payout, resolved: false });
  }
  return items;
}

/** A line and the one payout it names, by our reference or by the payout's UTR. */
function classifyNamed(line: StatementLine, payout: BookPayout): ReconItem {
  const reference = payout.ackNo;
  if (payout.amountPaise !== line.amountPaise) {
    return { class: 'amount_mismatch', reference, line, payout, resolved: false };
  }
  if (line.type === 'RETURN' && line.valueDate < payout.sentOn) {
    return { class: 'return_before_sent', reference, line, payout, resolved: false };
  }
  return line.type === 'DEBIT' ? classifyDebit(line, payout) : classifyReturn(line, payout);
}

/**
 * A line without our reference (docs/reconciliation.md, "Matching beyond the reference"), in this order: a
 * debit naming a bulk batch pays each of its payouts; the UTR of one payout names it as our reference
 * would; a debit of exactly one batch's total pays that batch; otherwise a few payouts of its amount and
 * dates are suggested to an operator, never applied; with none, or too many, it is an unknown reference.
 */
function matchWithoutKey(line: MatchableLine, books: Books, debited: Set<string>, seen: Set<string>): ReconItem[] {
  // A second line for the same payout or batch, under another reference, is a duplicate all the same.
  const once = (key: string, items: () => ReconItem[]): ReconItem[] => {
    if (seen.has(key)) return [{ class: 'duplicate_line', reference: line.reference, line, resolved: false }];
    seen.add(key);
    return items();
  };
  const named = line.type === 'DEBIT' ? books.batchNamed(line) : undefined;
  if (named) return once(`batch:${named[0]!.batch!.key}`, () => payBatch(line, named, debited));
  const payout = books.byUtr(line);
  if (payout) {
    return once(`${line.type}:${payout.ackNo}`, () => {
      if (line.type === 'DEBIT') debited.add(payout.ackNo);
      return [classifyNamed(line, payout)];
    });
  }
  const totalled = line.type === 'DEBIT' ? books.batchTotalling(line) : undefined;
  if (totalled) return once(`batch:${totalled[0]!.batch!.key}`, () => payBatch(line, totalled, debited));
  const candidates = books.candidatesFor(line);
  if (candidates.length > 0 && candidates.length <= MAX_SUGGESTIONS) {
    return [{ class: 'suggested_match', reference: line.reference, line, candidates, resolved: false }];
  }
  return [{ class: 'unknown_reference', reference: line.reference, line, resolved: false }];
}

/**
 * One debit for a whole batch: each payout counts as paid by the line, if the line pays the batch's total.
 * A pending one is a break for a person, not settled with the line's UTR: a UTR is the proof of one payment
 * (docs/reconciliation.md, `utr-settles-one-payout`), and the debit's is the batch's, not the payout's.
 */
function payBatch(line: StatementLine, batch: readonly BookPayout[], debited: Set<string>): ReconItem[] {
  const total = batch.reduce((sum, p) => sum + p.amountPaise, 0n);
  if (total !== line.amountPaise) {
    return [{ class: 'amount_mismatch', reference: line.reference, line, resolved: false }];
  }
  for (const payout of batch) debited.add(payout.ackNo);
  return batch.map((payout) => {
    const { action, ...item } = classifyDebit(line, payout);
    return action?.kind === 'settle-success' ? item : { ...item, ...(action && { action }) };
  });
}

interface Books {
  /** The payout our reference names. */
  byReference(line: StatementLine): BookPayout | undefined;
  /** The payout whose bank reference is the line's UTR, when exactly one has it. */
  byUtr(line: StatementLine): BookPayout | undefined;
  /** The payouts of the one bulk batch whose merchant's batch id is the line's reference. */
  batchNamed(line: StatementLine): BookPayout[] | undefined;
  /** The payouts of the one batch all sent on the line's value date that total exactly its amount. */
  batchTotalling(line: StatementLine): BookPayout[] | undefined;
  /** Payouts of the line's amount settled or sent within a day of its value date (and of the narration's name). */
  candidatesFor(line: MatchableLine): BookPayout[];
}

function indexBooks(payouts: readonly BookPayout[]): Books {
  const byAckNo = new Map(payouts.map((p) => [p.ackNo, p]));
  const byUtr = groupBy(payouts, (p) => p.bankReference);
  // Only a batch whose every payout is loaded can be totalled.
  const batches = [...groupBy(payouts, (p) => p.batch?.key ?? null).values()].filter(
    (members) => members.length === members[0]!.batch!.payouts,
  );
  const only = <T>(found: readonly T[]): T | undefined => (found.length === 1 ? found[0] : undefined);
  return {
    byReference: (line) => byAckNo.get(line.reference),
    byUtr: (line) => only(byUtr.get(line.utr) ?? []),
    batchNamed: (line) => only(batches.filter((members) => members[0]!.batch!.batchId === line.reference)),
    batchTotalling: (line) =>
      only(
        batches.filter(
          (members) =>
            members.every((p) => p.sentOn === line.valueDate) &&
            members.reduce((sum, p) => sum + p.amountPaise, 0n) === line.amountPaise,
        ),
      ),
    candidatesFor: (line) => {
      const near = payouts.filter(
        (p) =>
          p.amountPaise === line.amountPaise &&
          [p.settledOn, p.sentOn].some((day) => day !== null && daysApart(day, line.valueDate) <= 1),
      );
      const narration = line.narration?.toLowerCase() ?? '';
      const named = near.filter((p) => p.beneficiaryName && narration.includes(p.beneficiaryName.toLowerCase()));
      return named.length > 0 ? named : near;
    },
  };
}

function groupBy<T>(values: readonly T[], keyOf: (value: T) => string | null): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    if (key === null) continue;
    groups.set(key, [...(groups.get(key) ?? []), value]);
  }
  return groups;
}

/** Whole days between two YYYY-MM-DD dates, either way. */
function daysApart(a: string, b: string): number {
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;
}

function classifyDebit(line: StatementLine, payout: BookPayout): ReconItem {
  const base = { reference: payout.ackNo, line, payout };
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
  const base = { class: 'return' as const, reference: payout.ackNo, line, payout };
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
      // The payout's own amount: a line paying a whole batch pays each payout its part.
      amountPaise: payout.amountPaise,
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
