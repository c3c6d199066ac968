import type { BankStatement, StatementHead } from './formats/bank-statement.js';
import {
  acceptStatementFile,
  checkStatementSummaries,
  readStatementFile,
  sameAccount,
  summarize,
  toStatementLines,
  type StatementFile,
  type StatementFileOptions,
  type StatementSummary,
} from './statement-file.js';

/**
 * Several statement files read as one run (docs/reconciliation.md, "Several days in one run"): a payout
 * settled near midnight on one day and booked by the bank the next is matched only when both days' lines
 * meet the payouts of both dates. Each file is still accepted whole, and the statement numbers run on from
 * one file to the next as they would within one file.
 */

export interface StatementText {
  /** How the run names the file in a reason or a note (its path or name). */
  name: string;
  text: string;
}

export type StatementFiles =
  | (Extract<StatementFile, { ok: true }> & { files: { name: string; statements: BankStatement[] }[] })
  | { ok: false; reason: string };

/**
 * Reads, checks and converts the files of one run, in the order given. A run of one file is exactly
 * {@link acceptStatementFile}: its lines carry no file. In a run of several, each line and each entry set
 * aside carries its file's place (1-based), so lines of different files are never taken for one another;
 * a file that fails a check, or a file for another account than the others, refuses the run whole.
 */
export function acceptStatementFiles(
  files: readonly StatementText[],
  options: StatementFileOptions = {},
): StatementFiles {
  if (files.length === 1) {
    const one = acceptStatementFile(files[0]!.text, options);
    if (!one.ok) return one;
    return { ...one, files: [{ name: files[0]!.name, statements: one.statements }] };
  }
  const read: { name: string; statements: BankStatement[] }[] = [];
  for (const file of files) {
    const statements = readStatementFile(file.text, options.profile);
    if (!statements.ok) return { ok: false, reason: `${file.name}: ${statements.reason}` };
    read.push({ name: file.name, statements: statements.statements });
    // A file that fails its checks refuses the run before the next file is read.
    const summaries = read.map((f) => ({ name: f.name, statements: f.statements.map(summarize) }));
    const checked = checkStatementRun(summaries, options, { several: true, complete: false });
    if (!checked.ok) return checked;
  }
  const summaries = read.map((f) => ({ name: f.name, statements: f.statements.map(summarize) }));
  const checked = checkStatementRun(summaries, options, { several: true, complete: true });
  if (!checked.ok) return checked;
  return {
    ok: true,
    files: read,
    statements: read.flatMap((f) => f.statements),
    ...linesOf(read),
    notes: checked.notes,
  };
}

/**
 * The checks of a run's files as a whole (docs/reconciliation.md, "Several days in one run"), on what was
 * gathered of each as it was read: each file is checked as one file is, its statement numbers running on
 * from the last stored one (or the previous file's); a run of several names the file in a reason or a note,
 * and once `complete`, its files must all be for one account.
 */
export function checkStatementRun(
  files: readonly { name: string; statements: readonly StatementSummary[] }[],
  options: Pick<StatementFileOptions, 'settlementAccount' | 'lastSequence'>,
  run: { several: boolean; complete: boolean },
): { ok: true; notes: string[] } | { ok: false; reason: string } {
  if (!run.several) {
    const checked = checkStatementSummaries(files[0]!.statements, options);
    return checked.ok ? { ok: true, notes: checked.notes } : checked;
  }
  const notes: string[] = [];
  let lastSequence = options.lastSequence;
  for (const file of files) {
    const checked = checkStatementSummaries(file.statements, {
      ...(options.settlementAccount !== undefined && { settlementAccount: options.settlementAccount }),
      ...(lastSequence !== undefined && { lastSequence }),
    });
    if (!checked.ok) return { ok: false, reason: `${file.name}: ${checked.reason}` };
    notes.push(...checked.notes.map((note) => `${file.name}: ${note}`));
    lastSequence = lastNumber(file.statements) ?? lastSequence;
  }
  if (run.complete) {
    const accounts = oneAccount(files);
    if (!accounts.ok) return accounts;
  }
  return { ok: true, notes };
}

function linesOf(files: readonly { statements: BankStatement[] }[]) {
  const converted = files.map((file, index) => toStatementLines(file.statements, index + 1));
  return {
    lines: converted.flatMap((c) => c.lines),
    valueDates: [...new Set(converted.flatMap((c) => c.valueDates))].sort(),
    setAside: converted.flatMap((c) => c.setAside),
  };
}

function lastNumber(statements: readonly StatementHead[]): number | undefined {
  const numbers = statements.map((s) => s.sequence).filter((n): n is number => n !== null);
  return numbers.length === 0 ? undefined : numbers[numbers.length - 1];
}

/** The files of one run are of one account: statement numbers only run on within an account. */
function oneAccount(files: readonly { name: string; statements: readonly StatementHead[] }[]) {
  let first: { name: string; account: string } | undefined;
  for (const file of files) {
    for (const { account } of file.statements) {
      if (account === null) continue;
      if (first === undefined) first = { name: file.name, account };
      else if (!sameAccount(account, first.account) && !sameAccount(first.account, account)) {
        return {
          ok: false as const,
          reason: `${file.name} is for account ${account}, but ${first.name} is for account ${first.account}: one run reads one account`,
        };
      }
    }
  }
  return { ok: true as const };
}
