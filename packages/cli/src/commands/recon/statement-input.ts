import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  filesOfDays,
  statementDaysOf,
  statementLayoutOf,
  type BankCsvProfile,
  type StatementLayout,
  type StatementSource,
  type StatementText,
} from '@payout/recon';
import { statementRunName } from '@payout/use-cases';
import { UsageError } from '../../usage-error.js';
import { bankProfile } from './bank-profile.js';

/**
 * What `recon statement` reads (docs/reconciliation.md): one file, several `--file`s, or the files of a
 * range of days in a folder (`--dir --from --to`), each checked whole, all read as one run. Anything wrong
 * with any of them refuses the run (exit 2) before anything is stored.
 */

export interface StatementInputOptions {
  file?: string[];
  dir?: string;
  from?: string;
  to?: string;
  format?: keyof typeof LAYOUTS;
  profile?: string;
}

/** The `--format` names and the layout each is (docs/reconciliation-formats.md). */
export const LAYOUTS = {
  mt940: 'mt940',
  camt053: 'camt.053',
  csv: 'canonical-csv',
  'bank-csv': 'bank-csv',
} as const satisfies Record<string, StatementLayout>;

/** The run's files: each read as a stream from its path, in the run's order, and its name for `statement_runs`. */
export interface StatementInput {
  sources: StatementSource[];
  profile: BankCsvProfile | undefined;
  /** The file's name; of several, their names in order, joined with ", ". */
  name: string;
}

/**
 * The files of the run, each checked for its size (STATEMENT_MAX_BYTES) and its layout (`--format`) from
 * its head; a `--dir` range is resolved to its files by reading each as a stream for its days. Nothing of a
 * file is held: the run reads each again as a stream.
 */
export async function readStatementInput(opts: StatementInputOptions, maxBytes: number): Promise<StatementInput> {
  const paths = await pathsOf(opts);
  for (const path of paths) await checkSize(path, maxBytes);
  const profile = opts.profile === undefined ? undefined : await bankProfile(opts.profile);
  let sources = paths.map((path) => fileSource(path, maxBytes));
  if (opts.dir !== undefined) {
    const dated: { file: StatementSource; days: string[] }[] = [];
    for (const source of sources) {
      const days = await statementDaysOf(source, profile);
      if (!days.ok) throw new UsageError(`${opts.dir}: ${source.name}: ${days.reason}; nothing applied`);
      dated.push({ file: source, days: days.days });
    }
    const chosen = filesOfDays(dated, { from: opts.from!, to: opts.to! });
    if (!chosen.ok) throw new UsageError(`${opts.dir}: ${chosen.reason}; nothing applied`);
    sources = chosen.files;
  }
  for (const source of sources) {
    const layout = await statementLayoutOf(source);
    if (opts.format !== undefined && LAYOUTS[opts.format] !== layout) {
      throw new UsageError(`${source.name} reads as ${layout}, not ${opts.format}; nothing applied`);
    }
  }
  // Named as the admin listener names an applied run of the same files.
  return { sources, profile, name: statementRunName(sources) };
}

/** The files' whole text, for `--apply`, which sends it to the admin listener (at most STATEMENT_MAX_BYTES each). */
export async function statementTexts(input: StatementInput): Promise<StatementText[]> {
  const texts: StatementText[] = [];
  for (const source of input.sources) {
    let text = '';
    for await (const chunk of source.chunks()) text += chunk;
    texts.push({ name: source.name, text });
  }
  return texts;
}

/** `--file` (repeatable), or every regular file of `--dir` not hidden, for `--from` to `--to`. */
async function pathsOf(opts: StatementInputOptions): Promise<string[]> {
  const files = opts.file ?? [];
  if (opts.dir === undefined) {
    if (files.length === 0) throw new UsageError('name the statement: --file PATH, or --dir DIR --from DAY --to DAY');
    return files;
  }
  if (files.length > 0) throw new UsageError('--file and --dir cannot be used together');
  const day = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
  if (!opts.from || !opts.to || !day.test(opts.from) || !day.test(opts.to) || opts.from > opts.to) {
    throw new UsageError('--dir needs --from and --to, YYYY-MM-DD, --from not after --to');
  }
  let names: string[];
  try {
    names = (await readdir(opts.dir, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    throw new UsageError(`cannot read --dir ${opts.dir}: ${(error as Error).message}`);
  }
  return names.map((name) => join(opts.dir!, name));
}

/**
 * A statement file is refused whole (exit 2) when it is larger than STATEMENT_MAX_BYTES: its size is checked
 * before anything is read, and again as it is read (it may grow meanwhile), so an oversized file is never
 * stored or applied.
 */
async function checkSize(path: string, maxBytes: number): Promise<void> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    throw new UsageError(`cannot read --file ${path}: ${(error as Error).message}`);
  }
  if (size > maxBytes) throw tooLarge(path, size, maxBytes);
}

function tooLarge(path: string, size: number, maxBytes: number): UsageError {
  return new UsageError(
    `${path} is ${size} bytes, more than the ${maxBytes} a statement may have (STATEMENT_MAX_BYTES); nothing applied`,
  );
}

/** A file read as a stream of UTF-8 text, in 64 KiB pieces; one that grows past the limit while read is refused. */
function fileSource(path: string, maxBytes: number): StatementSource {
  return {
    name: path,
    chunks: async function* () {
      const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
      const decoder = new TextDecoder('utf-8');
      let bytes = 0;
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          if (bytes > maxBytes) throw tooLarge(path, bytes, maxBytes);
          yield decoder.decode(chunk, { stream: true });
        }
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`cannot read --file ${path}: ${(error as Error).message}`);
      } finally {
        stream.destroy();
      }
      const rest = decoder.decode();
      if (rest !== '') yield rest;
    },
  };
}
