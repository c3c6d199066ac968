import { formatRupees, type Paise } from '@payout/domain';
import { canonicalCsvReader } from './statement-csv.js';
import type { MatchableLine } from './statement-matcher.js';
import { linePlace } from './statement-run.js';
import { bankCsvReader, type BankCsvProfile } from './formats/bank-csv.js';
import {
  readWhole,
  signedAmount,
  type BankEntry,
  type BankStatement,
  type EntrySink,
  type ReadResult,
  type StatementHead,
  type StatementStreamReader,
} from './formats/bank-statement.js';
import { camt053Reader } from './formats/camt053.js';
import { detectLayout, type StatementLayout } from './formats/detect.js';
import { mt940Reader } from './formats/mt940.js';

export type {
  BankEntry,
  BankEntryClass,
  BankEntryType,
  BankStatement,
  ReadResult,
  StatementFormat,
  StatementHead,
} from './formats/bank-statement.js';

/**
 * A statement file as banks send it (docs/reconciliation-formats.md): read in whatever layout it has,
 * checked whole, and turned into the canonical lines the matcher reads. A file that fails any check is
 * refused whole with the reason, so nothing of a damaged or out-of-order file is ever applied.
 */

export interface StatementFileOptions {
  /** The bank's profile, needed for a bank's own CSV export (and only for it). */
  profile?: BankCsvProfile;
  /** The settlement account the statement must be for; without it the account is only reported. */
  settlementAccount?: string;
  /** The last statement number stored for that account; the file must follow it without a gap. */
  lastSequence?: number;
}

export type StatementFile =
  | {
      ok: true;
      statements: BankStatement[];
      /** The movements of our payouts, and the debits and returns that may be, for the matcher. */
      lines: MatchableLine[];
      /** The dates the statements cover, for the matcher. */
      valueDates: string[];
      /** Entries that are not movements of our payouts, each with why (charges, top-ups, unkeyed lines). */
      setAside: SetAside[];
      /** What was not checked, and why (no balances in the file, no settlement account given, …). */
      notes: string[];
    }
  | { ok: false; reason: string };

export interface SetAside {
  entry: BankEntry;
  /** The file of a run of several the entry is in (1-based); absent for a run of one file. */
  file?: number;
  why: string;
}

/** Reads, checks and converts a statement file: the one door for every layout. */
export function acceptStatementFile(text: string, options: StatementFileOptions = {}): StatementFile {
  const read = readStatementFile(text, options.profile);
  if (!read.ok) return read;
  const checked = checkStatementFile(read.statements, options);
  if (!checked.ok) return checked;
  return { ok: true, statements: read.statements, ...toStatementLines(read.statements), notes: checked.notes };
}

/** Reads a file in the layout its content shows. */
export function readStatementFile(text: string, profile?: BankCsvProfile): ReadResult {
  const reader = statementReader(detectLayout(text), profile);
  return 'reason' in reader ? { ok: false, reason: reader.reason } : readWhole(text, reader.open);
}

/**
 * The streaming reader of a layout (docs/reconciliation-formats.md): the one reader of each layout, for a
 * file read whole and a file read as a stream alike. A bank CSV export needs its profile.
 */
export function statementReader(
  layout: StatementLayout,
  profile?: BankCsvProfile,
): { open: (sink: EntrySink) => StatementStreamReader } | { reason: string } {
  switch (layout) {
    case 'camt.053':
      return { open: camt053Reader };
    case 'mt940':
      return { open: mt940Reader };
    case 'canonical-csv':
      return { open: canonicalCsvStatementReader };
    case 'bank-csv':
      if (profile === undefined) {
        return {
          reason: 'not MT940, camt.053 or the canonical CSV: a bank CSV export is read with its profile (--profile)',
        };
      }
      return { open: (sink) => bankCsvReader(profile, sink) };
  }
}

/** The canonical CSV (docs/reconciliation.md) as a statement: no account, sequence or balances. */
function canonicalCsvStatementReader(sink: EntrySink): StatementStreamReader {
  const reader = canonicalCsvReader((line) =>
    sink(0, {
      lineNumber: line.lineNumber,
      valueDate: line.valueDate,
      type: line.type,
      amountPaise: line.amountPaise,
      utr: line.utr,
      reference: line.reference,
      narration: '',
      class: line.type === 'DEBIT' ? 'payout' : 'return',
    }),
  );
  return {
    write: (text) => reader.write(text),
    end: () => {
      const read = reader.end();
      if (!read.ok) return { ok: false, reason: `line ${read.lineNumber}: ${read.message}` };
      return {
        ok: true,
        statements: [
          {
            format: 'canonical-csv',
            id: null,
            account: null,
            sequence: null,
            statementDate: null,
            openingBalancePaise: null,
            closingBalancePaise: null,
            currency: 'INR',
          },
        ],
      };
    },
  };
}

/**
 * What the whole-file checks need of a statement, gathered entry by entry as it is read, so a file read as a
 * stream is checked as one read whole: its head, how many entries it has and on which dates, and its
 * running balance.
 */
export interface StatementSummary extends StatementHead {
  entries: number;
  /** The value dates of its entries. */
  entryDates: ReadonlySet<string>;
  tally: BalanceTally;
}

/**
 * The movement of a statement's entries so far, and where a running balance the bank printed first
 * disagrees with it: an entry's printed balance says what the opening balance was, and every entry's must
 * say the same, the statement's own.
 */
export class BalanceTally {
  movement: Paise = 0n;
  private first?: { lineNumber: number; printed: Paise; movement: Paise };
  private disagreeing?: { lineNumber: number; printed: Paise; movement: Paise };

  add(entry: BankEntry): void {
    this.movement += signedAmount(entry);
    if (entry.balanceAfterPaise === undefined) return;
    const printed = { lineNumber: entry.lineNumber, printed: entry.balanceAfterPaise, movement: this.movement };
    if (this.first === undefined) this.first = printed;
    else if (this.disagreeing === undefined && printed.printed - printed.movement !== this.impliedOpening()) {
      this.disagreeing = printed;
    }
  }

  /** The first entry whose printed balance is not `opening` plus the entries up to it. */
  firstDisagreement(opening: Paise): { lineNumber: number; printed: Paise; computed: Paise } | undefined {
    const at = this.first && this.impliedOpening() !== opening ? this.first : this.disagreeing;
    return at && { lineNumber: at.lineNumber, printed: at.printed, computed: opening + at.movement };
  }

  private impliedOpening(): Paise {
    return this.first!.printed - this.first!.movement;
  }
}

/** A statement read whole, summarised as a stream would have gathered it. */
export function summarize(statement: BankStatement): StatementSummary {
  const { entries, ...head } = statement;
  const tally = new BalanceTally();
  for (const entry of entries) tally.add(entry);
  return { ...head, entries: entries.length, entryDates: new Set(entries.map((e) => e.valueDate)), tally };
}

export type FileCheck = { ok: true; notes: string[] } | { ok: false; reason: string };

/**
 * The checks a file must meet as a whole, pure: each statement is in rupees, its opening balance plus its
 * entries is its closing balance (and every running balance the bank printed agrees), it is for the
 * settlement account, and the statement numbers follow the last stored one without a gap.
 */
export function checkStatementFile(
  statements: readonly BankStatement[],
  expected: Pick<StatementFileOptions, 'settlementAccount' | 'lastSequence'> = {},
): FileCheck {
  return checkStatementSummaries(statements.map(summarize), expected);
}

/** {@link checkStatementFile} of statements read as a stream: the same checks, on what was gathered. */
export function checkStatementSummaries(
  statements: readonly StatementSummary[],
  expected: Pick<StatementFileOptions, 'settlementAccount' | 'lastSequence'> = {},
): FileCheck {
  const notes: string[] = [];
  for (const statement of statements) {
    const name = nameOf(statement);
    if (statement.currency !== 'INR') return { ok: false, reason: `${name} is in ${statement.currency}, not INR` };
    const balances = checkBalances(statement, name);
    if (!balances.ok) return balances;
    notes.push(...balances.notes);
    const account = checkAccount(statement, name, expected.settlementAccount);
    if (!account.ok) return account;
    notes.push(...account.notes);
  }
  const sequence = checkSequence(statements, expected.lastSequence);
  if (!sequence.ok) return sequence;
  return { ok: true, notes: [...notes, ...sequence.notes] };
}

function checkBalances(statement: StatementSummary, name: string): FileCheck {
  const { openingBalancePaise: opening, closingBalancePaise: closing } = statement;
  if (opening === null || closing === null) {
    return { ok: true, notes: [`${name} carries no balances: opening + entries = closing is not checked`] };
  }
  const disagreement = statement.tally.firstDisagreement(opening);
  if (disagreement) {
    return {
      ok: false,
      reason: `${name}, line ${disagreement.lineNumber}: the bank prints a balance of ${formatRupees(disagreement.printed)} after it, but the entries before it make ${formatRupees(disagreement.computed)}`,
    };
  }
  const balance = opening + statement.tally.movement;
  if (balance !== closing) {
    const movement: Paise = balance - opening;
    return {
      ok: false,
      reason: `${name}: opening balance ${formatRupees(opening)} + entries ${formatRupees(movement)} = ${formatRupees(balance)}, but the closing balance is ${formatRupees(closing)}`,
    };
  }
  return { ok: true, notes: [] };
}

function checkAccount(statement: StatementHead, name: string, settlementAccount: string | undefined): FileCheck {
  if (statement.account === null) {
    return {
      ok: true,
      notes: [
        `${name} does not say which account it is for${settlementAccount ? `: not checked against ${settlementAccount}` : ''}`,
      ],
    };
  }
  if (settlementAccount === undefined) {
    return {
      ok: true,
      notes: [`${name} is for account ${statement.account}: no settlement account given to check it against`],
    };
  }
  if (!sameAccount(statement.account, settlementAccount)) {
    return {
      ok: false,
      reason: `${name} is for account ${statement.account}, not the settlement account ${settlementAccount}`,
    };
  }
  return { ok: true, notes: [] };
}

/**
 * Banks write the account as the number alone or prefixed with their code (MT940 `:25:` "HDFC0000123/
 * 50200012345678", an IFSC or BIC before a slash): either matches the settlement account's number.
 */
export function sameAccount(written: string, settlementAccount: string): boolean {
  const plain = (account: string) => account.replace(/\s+/g, '').toUpperCase();
  const account = plain(written);
  const expected = plain(settlementAccount);
  return account === expected || account.slice(account.lastIndexOf('/') + 1) === expected;
}

/**
 * Statement numbers run on without a gap: the first must follow the last stored one, and within a file
 * each the one before (a repeated number is the next page of the same statement). A gap means a statement
 * never arrived, and reconciling past it would call its payouts missing at the bank.
 */
function checkSequence(statements: readonly StatementHead[], lastSequence: number | undefined): FileCheck {
  const numbers = statements.map((s) => s.sequence).filter((n): n is number => n !== null);
  if (numbers.length === 0)
    return { ok: true, notes: ['the file has no statement numbers: continuity is not checked'] };
  const notes: string[] = [];
  let previous = lastSequence;
  if (previous === undefined)
    notes.push(`statement ${numbers[0]} is not checked against an earlier one: none is stored`);
  else if (numbers[0]! <= previous) {
    notes.push(`statement ${numbers[0]} is not after the last stored statement ${previous}: a statement read again`);
    previous = numbers[0]! - 1;
  }
  for (const number of numbers) {
    if (previous !== undefined && number > previous + 1)
      return { ok: false, reason: missing(previous + 1, number - 1) };
    if (previous !== undefined && number < previous) {
      return { ok: false, reason: `statement ${number} comes after statement ${previous}: the file is out of order` };
    }
    previous = number;
  }
  return { ok: true, notes };
}

function missing(from: number, to: number): string {
  return from === to ? `missing statement ${from}` : `missing statements ${from} to ${to}`;
}

function nameOf(statement: StatementHead): string {
  if (statement.id !== null) return `statement "${statement.id}"`;
  return statement.sequence === null ? 'the statement' : `statement ${statement.sequence}`;
}

/**
 * The canonical lines for the matcher (docs/reconciliation-formats.md): a debit becomes a DEBIT line and
 * money that came back a RETURN line, each with the bank's narration; money in that only its narration calls
 * a return is a RETURN line marked `withoutReturnCode`, which the matcher never applies. One that carries our reference is
 * named by it; one without is named by the bank's reference, else its UTR, else its place in the file, and
 * goes to the matcher's rules beyond the reference (a UTR, a bulk batch, a suggestion). The rest is set
 * aside with why, for the report: charges, money in that is not a return, and a movement the bank gave
 * nothing to know it by. `file` is the file's place in a run of several.
 */
export function toStatementLines(
  statements: readonly BankStatement[],
  file?: number,
): {
  lines: MatchableLine[];
  valueDates: string[];
  setAside: SetAside[];
} {
  const lines: MatchableLine[] = [];
  const setAside: SetAside[] = [];
  for (const statement of statements) {
    for (const entry of statement.entries) {
      const converted = convertEntry(entry, file);
      if ('line' in converted) lines.push(converted.line);
      else setAside.push(converted.setAside);
    }
  }
  return { lines, valueDates: valueDatesOf(statements.map(summarize)), setAside };
}

/** One entry as the matcher reads it: a line, or set aside with why (see {@link toStatementLines}). */
export function convertEntry(entry: BankEntry, file?: number): { line: MatchableLine } | { setAside: SetAside } {
  const why = whyNotALine(entry);
  if (why === undefined) return { line: lineOf(entry, file) };
  return { setAside: { entry, ...(file !== undefined && { file }), why } };
}

/** The dates statements cover, for the matcher: their closing dates and their entries' value dates. */
export function valueDatesOf(statements: readonly StatementSummary[]): string[] {
  const dates = new Set<string>();
  for (const statement of statements) {
    if (statement.statementDate !== null) dates.add(statement.statementDate);
    for (const date of statement.entryDates) dates.add(date);
  }
  return [...dates].sort();
}

// Built field by field, not by spreading: it runs once a line of every statement read.
function lineOf(entry: BankEntry, file: number | undefined): MatchableLine {
  const line = { lineNumber: entry.lineNumber } as MatchableLine;
  if (file !== undefined) line.file = file;
  if (entry.reference !== undefined) line.reference = entry.reference;
  else {
    line.reference = entry.bankReference ?? entry.utr ?? linePlace({ lineNumber: entry.lineNumber, file });
    line.withoutOurReference = true;
  }
  line.utr = entry.utr ?? entry.bankReference ?? '';
  line.amountPaise = entry.amountPaise;
  const claimed = entry.class === 'uncoded_return';
  line.type = entry.type === 'RETURN' || claimed ? 'RETURN' : 'DEBIT';
  // Money in that only its narration calls a return: the matcher makes it a break, never a reversal.
  if (claimed) line.withoutReturnCode = true;
  line.valueDate = entry.valueDate;
  if (entry.narration !== '') line.narration = entry.narration;
  return line;
}

function whyNotALine(entry: BankEntry): string | undefined {
  if (entry.class === 'bank_charge') return 'a bank charge';
  if (entry.class === 'uncoded_return') {
    // A claimed return goes to a person whenever anything names it; only an entry with nothing is set aside.
    const known = entry.reference ?? entry.utr ?? entry.bankReference ?? (entry.narration.trim() || undefined);
    return known === undefined ? 'money in called a return without a return code or anything to know it by' : undefined;
  }
  if (entry.type === 'CREDIT') return 'money in that is not a return';
  const movement = entry.type === 'DEBIT' ? 'a debit' : 'money that came back';
  if (entry.reference !== undefined) {
    return entry.utr === undefined && entry.bankReference === undefined
      ? `${movement} without a UTR or bank reference`
      : undefined;
  }
  const known = entry.utr ?? entry.bankReference ?? (entry.narration.trim() || undefined);
  return known === undefined ? `${movement} without our reference, a UTR, a bank reference or a narration` : undefined;
}

/**
 * Why a file is no bank's word, or undefined when every statement in it is (docs/reconciliation.md,
 * "Planning and applying"): applied in production, a statement must say which account it is for, carry its
 * opening and closing balances and its statement number, so the whole-file checks can hold it to the
 * settlement account and to the statements before it. The canonical CSV has none of them: anyone can type
 * one, so it serves development and tests only.
 */
export function notVouchedFor(statements: readonly StatementHead[]): string | undefined {
  for (const statement of statements) {
    const missing = [
      statement.account === null && 'account',
      (statement.openingBalancePaise === null || statement.closingBalancePaise === null) && 'balances',
      statement.sequence === null && 'statement number',
    ].filter((what): what is string => what !== false);
    if (missing.length > 0) {
      return `${nameOf(statement)} (${statement.format}) has no ${missing.join(', no ')}: in production only a bank's statement with its account, balances and number is applied (the canonical CSV is for development and tests)`;
    }
  }
  return undefined;
}
