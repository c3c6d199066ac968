import { formatRupees, type Paise } from '@payout/domain';
import { LineSplitter } from './formats/bank-statement.js';
import { splitFields } from './formats/csv-fields.js';

/**
 * The canonical bank statement (docs/reconciliation.md): a CSV file with the header
 * `reference,utr,amount,type,value_date`, one line per movement the bank made.
 */
export const STATEMENT_HEADER = ['reference', 'utr', 'amount', 'type', 'value_date'] as const;

/** DEBIT: the bank executed a payout. RETURN: money of a payout came back (a bounce, a reversal). */
export type StatementLineType = 'DEBIT' | 'RETURN';

export interface StatementLine {
  /** 1-based line number in the file (the header is line 1). */
  lineNumber: number;
  /**
   * Which file of a run of several the line is in, 1-based, in the run's order (docs/reconciliation.md,
   * "Several days in one run"); absent when the run reads one file, as every run did before.
   */
  file?: number;
  /**
   * Our reference, the payout's Ack_no. A bank line without one is named by what the bank gave it
   * (docs/reconciliation-formats.md): its own reference, else its UTR, else its place (`line 7`).
   */
  reference: string;
  /** True when the bank line carries no reference of ours: `reference` is only the bank's name for it. */
  withoutOurReference?: true;
  /**
   * True for money in that only its narration (or a reversal mark without a return code) calls a return: the
   * bank does not vouch for it, so it is a `return_without_bank_code` break, never a reversal.
   */
  withoutReturnCode?: true;
  /** The bank's reference of the movement. */
  utr: string;
  amountPaise: Paise;
  type: StatementLineType;
  /** YYYY-MM-DD, the bank's (IST) business date. */
  valueDate: string;
}

export type ParsedStatement =
  { ok: true; lines: StatementLine[]; valueDates: string[] } | { ok: false; lineNumber: number; message: string };

// Wide enough for any bank's reference (an unknown reference is a break to report, not bad input); the
// CSV's own punctuation is what makes a field malformed.
const REFERENCE = /^[A-Za-z0-9_-]{1,64}$/;
const UTR = /^[A-Za-z0-9]{1,64}$/;
// Rupees with exactly two decimals, as statements write them; no sign (the type says the direction).
const AMOUNT = /^(0|[1-9][0-9]{0,12})\.([0-9]{2})$/;
const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

/**
 * Parses a statement whole or not at all: the first malformed line refuses the file, with its line
 * number, so nothing of a damaged file is ever applied. Blank lines are allowed only at the end.
 */
export function parseStatement(text: string): ParsedStatement {
  const lines: StatementLine[] = [];
  const reader = canonicalCsvReader((line) => lines.push(line));
  reader.write(text);
  const read = reader.end();
  if (!read.ok) return read;
  const valueDates = [...new Set(lines.map((l) => l.valueDate))].sort();
  return { ok: true, lines, valueDates };
}

/**
 * The canonical CSV as a stream (docs/reconciliation.md, "Memory"): each line handed out as it is read, the
 * file's verdict at its end — the first malformed line, as {@link parseStatement} finds it.
 */
export function canonicalCsvReader(onLine: (line: StatementLine) => void): {
  write(text: string): void;
  end(): { ok: true } | { ok: false; lineNumber: number; message: string };
} {
  let rowNumber = 0;
  let header: 'unread' | 'blank' | 'read' = 'unread';
  // Blank rows are allowed only at the end: the first of a run of them, until a row that is not blank.
  let firstBlank: number | undefined;
  let failure: { ok: false; lineNumber: number; message: string } | undefined;
  const fail = (lineNumber: number, message: string) => (failure = { ok: false, lineNumber, message });
  const headerMessage = `the header must be exactly "${STATEMENT_HEADER.join(',')}"`;
  const splitter = new LineSplitter((row) => {
    rowNumber++;
    if (failure) return;
    const blank = row.trim() === '';
    if (rowNumber === 1) {
      if (blank) header = 'blank';
      else if (!isHeader(row)) fail(1, headerMessage);
      else header = 'read';
      return;
    }
    if (blank) {
      firstBlank ??= rowNumber;
      return;
    }
    if (header === 'blank') return fail(1, headerMessage);
    if (firstBlank !== undefined) return fail(firstBlank, 'blank line inside the statement');
    const parsed = parseLine(row, rowNumber);
    if (!parsed.ok) return fail(rowNumber, parsed.message);
    onLine(parsed.line);
  });
  return {
    write: (text) => splitter.write(text),
    end: () => {
      splitter.end();
      if (failure) return failure;
      if (header !== 'read')
        return { ok: false, lineNumber: 1, message: 'the file is empty: expected the header line' };
      return { ok: true };
    },
  };
}

function isHeader(row: string): boolean {
  const header = splitFields(row, ',');
  return header.ok && header.fields.map((f) => f.trim().toLowerCase()).join(',') === STATEMENT_HEADER.join(',');
}

function parseLine(
  row: string,
  lineNumber: number,
): { ok: true; line: StatementLine } | { ok: false; message: string } {
  if (row.trim() === '') return { ok: false, message: 'blank line inside the statement' };
  const split = splitFields(row, ',');
  if (!split.ok) return { ok: false, message: split.message };
  const fields = split.fields.map((f) => f.trim());
  if (fields.length !== STATEMENT_HEADER.length) {
    return { ok: false, message: `expected ${STATEMENT_HEADER.length} fields, found ${fields.length}` };
  }
  const [reference, utr, amount, type, valueDate] = fields as [string, string, string, string, string];
  if (!REFERENCE.test(reference)) return { ok: false, message: `reference "${reference}" is not a reference` };
  if (!UTR.test(utr)) return { ok: false, message: `utr "${utr}" must be 1–64 letters and digits` };
  const money = AMOUNT.exec(amount);
  if (!money) return { ok: false, message: `amount "${amount}" must be rupees with two decimals, e.g. 101.00` };
  const amountPaise = BigInt(money[1]!) * 100n + BigInt(money[2]!);
  if (amountPaise === 0n) return { ok: false, message: 'amount must be more than 0.00' };
  if (type !== 'DEBIT' && type !== 'RETURN') return { ok: false, message: `type "${type}" must be DEBIT or RETURN` };
  if (!isCalendarDate(valueDate)) return { ok: false, message: `value_date "${valueDate}" must be a date YYYY-MM-DD` };
  return { ok: true, line: { lineNumber, reference, utr, amountPaise, type, valueDate } };
}

function isCalendarDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Writes statement lines as the canonical CSV (what rail-sim exports), header first, LF line ends. */
export function formatStatement(lines: readonly Omit<StatementLine, 'lineNumber'>[]): string {
  const body = lines.map((l) => [l.reference, l.utr, formatRupees(l.amountPaise), l.type, l.valueDate].join(','));
  return [STATEMENT_HEADER.join(','), ...body].join('\n') + '\n';
}
