import type { BankCsvProfile } from './formats/bank-csv.js';
import { readStatementFile, summarize, type StatementSummary } from './statement-file.js';
import type { StatementText } from './statement-files.js';

/**
 * The files of a range of days (docs/reconciliation.md, "Several days in one run"): of the files of a
 * folder, those whose statement date falls in the range, in date order. A day of the range without a file
 * refuses the run whole, as a gap in the statement numbers does: its payouts would all look missing at the
 * bank. A file that cannot be read refuses it too, since it may be the statement of a day in the range.
 */
export function statementFilesOfDays(
  files: readonly StatementText[],
  range: { from: string; to: string },
  profile?: BankCsvProfile,
): { ok: true; files: StatementText[] } | { ok: false; reason: string } {
  const dated: { file: StatementText; days: string[] }[] = [];
  for (const file of files) {
    const read = readStatementFile(file.text, profile);
    if (!read.ok) return { ok: false, reason: `${file.name}: ${read.reason}` };
    dated.push({ file, days: statementDays(read.statements.map(summarize)) });
  }
  return filesOfDays(dated, range);
}

/**
 * Of files and the days each covers (its statements' closing days, see {@link statementDays}), those whose
 * statement date — their last day — falls in the range, in date order; refused when a day of the range is
 * in none of them.
 */
export function filesOfDays<F extends { name: string }>(
  files: readonly { file: F; days: readonly string[] }[],
  range: { from: string; to: string },
): { ok: true; files: F[] } | { ok: false; reason: string } {
  const dated = files.flatMap(({ file, days }) => {
    const day = days[days.length - 1];
    return day !== undefined && day >= range.from && day <= range.to ? [{ file, day, days }] : [];
  });
  const covered = new Set(dated.flatMap((d) => d.days));
  const missing = daysBetween(range.from, range.to).filter((day) => !covered.has(day));
  if (missing.length > 0) {
    const which = missing.length === 1 ? `no statement for ${missing[0]}` : `no statements for ${missing.join(', ')}`;
    return { ok: false, reason: `${which}, between ${range.from} and ${range.to}` };
  }
  dated.sort((a, b) => (a.day === b.day ? a.file.name.localeCompare(b.file.name) : a.day < b.day ? -1 : 1));
  return { ok: true, files: dated.map((d) => d.file) };
}

/** The days a file's statements close on; for a layout without a statement date, its entries' dates. */
export function statementDays(statements: readonly StatementSummary[]): string[] {
  const closing = statements.map((s) => s.statementDate).filter((d): d is string => d !== null);
  const days = closing.length > 0 ? closing : statements.flatMap((s) => [...s.entryDates]);
  return [...new Set(days)].sort();
}

/** Every YYYY-MM-DD from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}
