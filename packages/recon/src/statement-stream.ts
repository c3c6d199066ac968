import type { BankCsvProfile } from './formats/bank-csv.js';
import type { StatementStreamReader } from './formats/bank-statement.js';
import { detectLayout, type StatementLayout } from './formats/detect.js';
import {
  BalanceTally,
  convertEntry,
  statementReader,
  valueDatesOf,
  type SetAside,
  type StatementFileOptions,
  type StatementSummary,
} from './statement-file.js';
import { statementDays } from './statement-days.js';
import { checkStatementRun } from './statement-files.js';
import type { MatchableLine } from './statement-matcher.js';

/**
 * A run's statement files read as streams (docs/reconciliation.md, "Memory"): each file piece by piece, its
 * layout told from its head, every entry turned into a line for the matcher (or set aside) the moment it is
 * read and handed to the caller, and the whole-file checks made on what was gathered — balances, accounts,
 * statement numbers — exactly as for files read whole (`acceptStatementFiles`). Nothing of a file is kept
 * but the statement being read, so a run of any length is read in the same memory.
 */

/** A statement file to read: its name (a path) and its text, in pieces. */
export interface StatementSource {
  name: string;
  chunks: () => AsyncIterable<string>;
}

/** Where the lines of a run go as they are read. */
export interface StatementLineSink {
  line(line: MatchableLine): void;
  setAside(item: SetAside): void;
  /** After each piece of a file: resolves once the lines handed out so far are taken (the writer's pace). */
  drain(): Promise<void>;
}

/** What was read of a run: each file's statements as gathered, the dates they cover, what was not checked. */
export interface StreamedStatementRun {
  files: { name: string; layout: StatementLayout; statements: StatementSummary[] }[];
  statements: StatementSummary[];
  valueDates: string[];
  notes: string[];
  /** Movements handed to the sink as lines, and entries set aside. */
  lineCount: number;
}

/** How much of a file's beginning tells its layout (docs/reconciliation-formats.md, "Telling the layout"). */
export const LAYOUT_HEAD_CHARS = 64 * 1024;

/** The layout of a file from its first {@link LAYOUT_HEAD_CHARS} characters. */
export async function statementLayoutOf(source: StatementSource): Promise<StatementLayout> {
  let head = '';
  for await (const chunk of source.chunks()) {
    head += chunk;
    if (head.length >= LAYOUT_HEAD_CHARS) break;
  }
  return detectLayout(head);
}

/**
 * Reads the files of one run in order, lines to the sink. The checks hold each file to the settlement
 * account as it ends (a failing file refuses the run before the next is read), then the run to one account,
 * then its statement numbers to the last one stored for that account (`lastSequence`, asked once the
 * account is known). Answers why the run is refused, or what was read; a refused run's lines are worth
 * nothing to the caller.
 */
export async function readStatementRun(
  sources: readonly StatementSource[],
  options: Pick<StatementFileOptions, 'profile'> & {
    /**
     * The settlement account to hold the run to, asked once the first file is read (its statements say
     * which account they are for): a statement's bank may be told only from it. Refusing refuses the run.
     */
    settlementAccount: (
      firstFile: readonly StatementSummary[],
    ) => { ok: true; account?: string } | { ok: false; reason: string };
    lastSequence: (account: string) => Promise<number | null>;
  },
  sink: StatementLineSink,
): Promise<({ ok: true } & StreamedStatementRun) | { ok: false; reason: string }> {
  const several = sources.length > 1;
  const files: StreamedStatementRun['files'] = [];
  let checks: { settlementAccount?: string } | undefined;
  let lineCount = 0;
  for (const [index, source] of sources.entries()) {
    const file = several ? index + 1 : undefined;
    const read = await readOneFile(source, options.profile, file, sink);
    if (!read.ok) return { ok: false, reason: several ? `${source.name}: ${read.reason}` : read.reason };
    lineCount += read.lineCount;
    files.push({ name: source.name, layout: read.layout, statements: read.statements });
    if (checks === undefined) {
      const settlement = options.settlementAccount(read.statements);
      if (!settlement.ok)
        return { ok: false, reason: several ? `${source.name}: ${settlement.reason}` : settlement.reason };
      checks = settlement.account === undefined ? {} : { settlementAccount: settlement.account };
    }
    const checked = checkStatementRun(files, checks, { several, complete: false });
    if (!checked.ok) return checked;
  }
  checks ??= {};
  const first = checkStatementRun(files, checks, { several, complete: true });
  if (!first.ok) return first;
  // The files say which account they are for: their statement numbers must follow the last one stored for it.
  const statements = files.flatMap((f) => f.statements);
  const account = oneAccountOf(statements);
  const lastSequence = account === undefined ? null : await options.lastSequence(account);
  const checked =
    lastSequence === null ? first : checkStatementRun(files, { ...checks, lastSequence }, { several, complete: true });
  if (!checked.ok) return checked;
  return { ok: true, files, statements, valueDates: valueDatesOf(statements), notes: checked.notes, lineCount };
}

/**
 * The days a file covers (its statements' closing days, else its entries' dates), read as a stream and
 * kept no further: how a folder's files are chosen for a range of days (`filesOfDays`).
 */
export async function statementDaysOf(
  source: StatementSource,
  profile?: BankCsvProfile,
): Promise<{ ok: true; days: string[] } | { ok: false; reason: string }> {
  const ignore: StatementLineSink = {
    line: () => undefined,
    setAside: () => undefined,
    drain: () => Promise.resolve(),
  };
  const read = await readOneFile(source, profile, undefined, ignore);
  return read.ok ? { ok: true, days: statementDays(read.statements) } : read;
}

/** The one account a run's statements are for; none when they name none, or several. */
export function oneAccountOf(statements: readonly { account: string | null }[]): string | undefined {
  const accounts = new Set(statements.map((s) => s.account).filter((a): a is string => a !== null));
  return accounts.size === 1 ? [...accounts][0] : undefined;
}

async function readOneFile(
  source: StatementSource,
  profile: BankCsvProfile | undefined,
  file: number | undefined,
  sink: StatementLineSink,
): Promise<
  | { ok: true; layout: StatementLayout; statements: StatementSummary[]; lineCount: number }
  | { ok: false; reason: string }
> {
  const gathered: { entries: number; entryDates: Set<string>; tally: BalanceTally }[] = [];
  let lineCount = 0;
  let head = '';
  let layout: StatementLayout | undefined;
  let reader: StatementStreamReader | undefined;

  const start = (): { ok: false; reason: string } | undefined => {
    layout = detectLayout(head);
    const chosen = statementReader(layout, profile);
    if ('reason' in chosen) return { ok: false, reason: chosen.reason };
    reader = chosen.open((statement, entry) => {
      const summary = (gathered[statement] ??= { entries: 0, entryDates: new Set(), tally: new BalanceTally() });
      summary.entries++;
      summary.entryDates.add(entry.valueDate);
      summary.tally.add(entry);
      const converted = convertEntry(entry, file);
      if ('line' in converted) {
        lineCount++;
        sink.line(converted.line);
      } else sink.setAside(converted.setAside);
    });
    reader.write(head);
    head = '';
    return undefined;
  };

  for await (const chunk of source.chunks()) {
    if (reader === undefined) {
      head += chunk;
      if (head.length < LAYOUT_HEAD_CHARS) continue;
      const refused = start();
      if (refused) return refused;
    } else {
      reader.write(chunk);
    }
    await sink.drain();
  }
  if (reader === undefined) {
    const refused = start();
    if (refused) return refused;
  }
  const read = reader!.end();
  await sink.drain();
  if (!read.ok) return read;
  const statements = read.statements.map((statementHead, s): StatementSummary => ({
    ...statementHead,
    ...(gathered[s] ?? { entries: 0, entryDates: new Set<string>(), tally: new BalanceTally() }),
  }));
  return { ok: true, layout: layout!, statements, lineCount };
}
