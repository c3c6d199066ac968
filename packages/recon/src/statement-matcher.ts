import { IN_FLIGHT_STATES, type Paise, type PayoutState } from '@payout/domain';
import type { StatementLine } from './statement-csv.js';

/**
 * How each statement line and each of our payouts of the statement's dates compares (docs/reconciliation.md):
 * - matched: the bank and our books agree;
 * - paid_but_failed_here: the bank paid a payout we settled FAILED (and refunded) — money lost, for a person;
 * - success_here_missing_at_bank: SUCCESS here, settled on one of the statement's dates, and no DEBIT line;
 * - reversed_here_missing_at_bank: reversed here (on the rail's or a person's word) on one of the
 *   statement's dates, and no RETURN line brings its money back;
 * - pending_here_paid_at_bank: still PENDING here and the bank paid it — `--apply` settles it SUCCESS;
 * - amount_mismatch: the line's amount is not the payout's;
 * - unknown_reference: no payout of ours has the line's reference;
 * - return: money of a payout came back — `--apply` reverses a SUCCESS payout;
 * - duplicate_line: a second line of the same reference and type;
 * - return_before_sent: money came back on a day before the payout was sent to the rail — it cannot have;
 * - value_date_in_future: a line dated after today (IST) — the bank cannot have done it yet;
 * - suggested_match: a line of no known reference, UTR or batch, and a few payouts of its amount and
 *   dates that it may be (docs/reconciliation.md, "Matching beyond the reference");
 * - return_without_bank_code: money in that only its narration calls a return (the remitter writes
 *   narration; the bank's transaction code does not say so) — a person decides, nothing is reversed.
 * A statement is evidence, not an order: the last four are never applied, whatever the line says.
 */
export const RECON_CLASSES = [
  'matched',
  'paid_but_failed_here',
  'success_here_missing_at_bank',
  'reversed_here_missing_at_bank',
  'pending_here_paid_at_bank',
  'amount_mismatch',
  'unknown_reference',
  'return',
  'duplicate_line',
  'return_before_sent',
  'value_date_in_future',
  'suggested_match',
  'return_without_bank_code',
] as const;
export type ReconClass = (typeof RECON_CLASSES)[number];

/**
 * The breaks that say money is missing (docs/reconciliation.md, "The breaks page"): paid or returned here
 * and not at the bank, or a different amount. Setting one aside ("not ours", "needs the bank") could bury
 * money, so it is a request another approver approves, never one person's decision.
 */
export const MONEY_MISSING_BREAKS: readonly ReconClass[] = [
  'success_here_missing_at_bank',
  'reversed_here_missing_at_bank',
  'amount_mismatch',
];

export function breakSaysMoneyIsMissing(kind: string): boolean {
  return (MONEY_MISSING_BREAKS as readonly string[]).includes(kind);
}

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
   * The (IST) date the payout was reversed here on another word than a statement's (the rail's, an
   * operator's); null or absent when it was not, or when a statement line already proved the return.
   */
  reversedOn?: string | null;
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
  const debited = new Set<string>();
  const state: LineState = { seen: new Set<string>(), debited, today: calendar.today };
  const items: ReconItem[] = [];
  for (const line of lines) items.push(...matchLine(line, books, state));

  const dates = new Set(valueDates);
  for (const payout of payouts) {
    if (debited.has(payout.ackNo) || !PAID_HERE.includes(payout.state)) continue;
    if (payout.settledOn === null || !dates.has(payout.settledOn)) continue;
    items.push(missingAtBank(payout));
  }
  items.push(...reversalsWithoutReturn(items, dates, payouts));
  return items;
}

/**
 * What matching a line needs of the lines before it: the keys they took (a line's type and reference, the
 * payout or batch a line without our reference was found to be) and the payouts debited so far, and today.
 * Matching in the database (docs/reconciliation.md, "Memory") answers `seen` from what it worked out of the
 * earlier lines instead of holding them.
 */
export interface LineState {
  seen: { has(key: string): boolean; add(key: string): void };
  debited: { add(ackNo: string): void };
  today: string;
}

/**
 * One line, in the statement's order (see {@link matchStatement}): a duplicate of an earlier line, dated in
 * the future, a return without the bank's code, the payout our reference names, or the rules beyond the
 * reference. Only `state` ties it to the lines before it.
 */
export function matchLine(line: MatchableLine, books: Books, state: LineState): ReconItem[] {
  const { seen, debited } = state;
  const key = `${line.type}:${line.reference}`;
  // A bank line without our reference is named by the bank's reference: never read as an Ack_no.
  const payout = line.withoutOurReference ? undefined : books.byReference(line);
  if (seen.has(key)) {
    return [{ class: 'duplicate_line', reference: line.reference, line, ...(payout && { payout }), resolved: false }];
  }
  seen.add(key);
  // Dated after today: not a movement yet, so neither a payment nor a return to act on.
  if (line.valueDate > state.today) {
    return [
      { class: 'value_date_in_future', reference: line.reference, line, ...(payout && { payout }), resolved: false },
    ];
  }
  if (line.withoutReturnCode) return [returnWithoutCode(line, payout ?? books.byUtr(line))];
  if (!payout) return matchWithoutKey(line, books, state);
  if (line.type === 'DEBIT') debited.add(payout.ackNo);
  return [classifyNamed(line, payout)];
}

/** A payout paid here, settled on one of the statement's dates, whose debit no line is. */
export function missingAtBank(payout: BookPayout): ReconItem {
  return { class: 'success_here_missing_at_bank', reference: payout.ackNo, payout, resolved: false };
}

/** A payout reversed here on one of the statement's dates on another word than the bank's, with no return line. */
export function reversedMissingAtBank(payout: BookPayout): ReconItem {
  return { class: 'reversed_here_missing_at_bank', reference: payout.ackNo, payout, resolved: false };
}

/**
 * Money in that only its narration calls a return (docs/reconciliation.md, the class table): whoever sends
 * money writes its narration, so "REV <Ack_no>" proves nothing. It is shown beside the payout it names, if
 * any, for a person to match (a second person approves a reversal) or set aside; nothing is planned.
 */
function returnWithoutCode(line: StatementLine, payout: BookPayout | undefined): ReconItem {
  return {
    class: 'return_without_bank_code',
    reference: payout?.ackNo ?? line.reference,
    line,
    ...(payout && { payout }),
    resolved: false,
  };
}

/**
 * Payouts reversed here on one of the statement's dates on the rail's or a person's word, whose money no
 * line brings back: the merchant was credited, and the bank has not returned the money (yet). Money lost
 * unless the return is booked on a later day, so a break (docs/reconciliation.md).
 */
function reversalsWithoutReturn(
  items: readonly ReconItem[],
  dates: ReadonlySet<string>,
  payouts: readonly BookPayout[],
): ReconItem[] {
  // Only a return the bank vouches for brings the money back; one only narrated leaves the break standing.
  const returned = new Set(
    items.filter((i) => i.line?.type === 'RETURN' && !i.line.withoutReturnCode && i.payout).map((i) => i.payout!.ackNo),
  );
  return payouts
    .filter((p) => p.state === 'REVERSED' && dates.has(p.reversedOn ?? '') && !returned.has(p.ackNo))
    .map(reversedMissingAtBank);
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
 * debit naming a bulk batch (as its reference or in its narration) pays each of its payouts; the UTR of one
 * payout names it as our reference would; a debit of exactly one batch's total pays that batch; otherwise a
 * few payouts of its amount and dates are suggested to an operator, never applied; with none, or too many,
 * it is an unknown reference. None of these settles a payout: only our reference is proof enough to.
 */
function matchWithoutKey(line: MatchableLine, books: Books, { debited, seen }: LineState): ReconItem[] {
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
      return [withoutSettlement(classifyNamed(line, payout))];
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
function payBatch(line: StatementLine, batch: readonly BookPayout[], debited: LineState['debited']): ReconItem[] {
  const total = batch.reduce((sum, p) => sum + p.amountPaise, 0n);
  if (total !== line.amountPaise) {
    return [{ class: 'amount_mismatch', reference: line.reference, line, resolved: false }];
  }
  for (const payout of batch) debited.add(payout.ackNo);
  return batch.map((payout) => withoutSettlement(classifyDebit(line, payout)));
}

/**
 * A pending payout paid by a line that does not carry our reference stays a break for a person: the UTR a
 * bank narrates, or a batch's debit, is not the proof of this payout's payment that settling needs.
 */
function withoutSettlement(item: ReconItem): ReconItem {
  const { action, ...rest } = item;
  return action?.kind === 'settle-success' ? rest : item;
}

/** The books as one line is matched against them: each answer depends on the line alone, not on other lines. */
export interface Books {
  /** The payout our reference names. */
  byReference(line: StatementLine): BookPayout | undefined;
  /** The payout whose bank reference is the line's UTR, when exactly one has it. */
  byUtr(line: StatementLine): BookPayout | undefined;
  /** The payouts of the one bulk batch whose merchant's batch id is the line's reference or in its narration. */
  batchNamed(line: MatchableLine): BookPayout[] | undefined;
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
    batchNamed: (line) => {
      const names = new Set([line.reference, ...narrationTokens(line.narration)]);
      return only(batches.filter((members) => names.has(members[0]!.batch!.batchId)));
    },
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

/**
 * The words of a narration a key may be: runs of letters and digits, as the readers search it for a UTR
 * (docs/reconciliation-formats.md, "Keys in the narration").
 */
export function narrationTokens(narration: string | undefined): string[] {
  return (narration ?? '').split(/[^A-Za-z0-9]+/).filter((token) => token !== '');
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
