import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  detectLayout,
  statementFilesOfDays,
  type BankCsvProfile,
  type StatementLayout,
  type StatementText,
} from '@payout/recon';
import { statementDigest, statementRunName } from '@payout/use-cases';
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

/** The run's files as read: their texts in the run's order, its name and its digest for `statement_runs`. */
export interface StatementInput {
  files: StatementText[];
  profile: BankCsvProfile | undefined;
  /** The file's name; of several, their names in order, joined with ", ". */
  name: string;
  /** SHA-256 of the file; of several, of their digests in order (so the same days read again are known). */
  digest: string;
}

export async function readStatementInput(opts: StatementInputOptions, maxBytes: number): Promise<StatementInput> {
  const read: { path: string; bytes: Buffer }[] = [];
  // One at a time: a folder may hold many statements, each up to STATEMENT_MAX_BYTES.
  for (const path of await pathsOf(opts)) read.push({ path, bytes: await statementBytes(path, maxBytes) });
  const profile = opts.profile === undefined ? undefined : await bankProfile(opts.profile);
  let files = read.map(({ path, bytes }) => ({ name: path, text: bytes.toString('utf8') }));
  if (opts.dir !== undefined) {
    const days = statementFilesOfDays(files, { from: opts.from!, to: opts.to! }, profile);
    if (!days.ok) throw new UsageError(`${opts.dir}: ${days.reason}; nothing applied`);
    files = days.files;
  }
  for (const file of files) {
    const layout = detectLayout(file.text);
    if (opts.format !== undefined && LAYOUTS[opts.format] !== layout) {
      throw new UsageError(`${file.name} reads as ${layout}, not ${opts.format}; nothing applied`);
    }
  }
  // Named and digested as the admin listener names and digests an applied run of the same files.
  return { files, profile, name: statementRunName(files), digest: statementDigest(files) };
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
 * A statement file's bytes, refused whole (exit 2) when it is larger than STATEMENT_MAX_BYTES: its size is
 * checked before anything is read, so an oversized file is never held in memory, stored or applied.
 */
async function statementBytes(path: string, maxBytes: number): Promise<Buffer> {
  const tooLarge = (size: number) =>
    new UsageError(
      `${path} is ${size} bytes, more than the ${maxBytes} a statement may have (STATEMENT_MAX_BYTES); nothing applied`,
    );
  try {
    const { size } = await stat(path);
    if (size > maxBytes) throw tooLarge(size);
    const bytes = await readFile(path);
    if (bytes.length > maxBytes) throw tooLarge(bytes.length); // it grew while being read
    return bytes;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read --file ${path}: ${(error as Error).message}`);
  }
}
