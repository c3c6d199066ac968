import { createHash } from 'node:crypto';
import { CsvError, parse } from 'csv-parse/sync';
import { parseBulkItem } from '@payout/contract';
import { AppError, MAX_BULK_ITEMS } from '@payout/domain';

/**
 * A bulk batch as a CSV file (docs/operations.md, "Bulk payouts from a file"), read the same way by
 * `pnpm cli payout bulk` and the console's upload: a header row of the bulk endpoint's item members, then
 * one payout per line. Every line is judged before anything is recorded, so a malformed file is refused
 * whole, with its line numbers, and nothing is reserved.
 */
export const BULK_CSV_COLUMNS = [
  'Mode',
  'TransactionID',
  'Amount',
  'Account',
  'Ifsc',
  'Upi',
  'Name',
  'BankName',
  'Mobile',
  'Email',
  'Description',
];
const REQUIRED_COLUMNS = ['Mode', 'TransactionID', 'Amount', 'Name'];
/** Most refusals listed when a file is refused; the rest are counted. */
const LISTED_PROBLEMS = 20;

/** A file refused whole: `message` says why, with a line number for each problem. */
export class BulkCsvRefused extends Error {
  override readonly name = 'BulkCsvRefused';
}

/** One payout of a file: its line number (1 is the header) and its cells by column name. */
export interface BulkCsvLine {
  line: number;
  item: Record<string, string>;
}

/** The file's rows as bulk items (column name → cell), or a {@link BulkCsvRefused} naming every bad line. */
export function readBulkCsv(bytes: Buffer | string): Record<string, string>[] {
  return readBulkCsvLines(bytes).map((l) => l.item);
}

/** {@link readBulkCsv} with each item's line number, for messages that name the line. */
export function readBulkCsvLines(bytes: Buffer | string): BulkCsvLine[] {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse<{ record: Record<string, string>; info: { lines: number } }>(bytes, {
      columns: (header: string[]) => checkedHeader(header),
      bom: true,
      trim: true,
      skip_empty_lines: true,
      info: true,
    });
  } catch (error) {
    if (error instanceof CsvError || error instanceof BulkCsvRefused)
      throw new BulkCsvRefused(`file refused: ${error.message}`);
    throw error;
  }
  if (records.length === 0) throw new BulkCsvRefused('file refused: no payouts after the header line');
  if (records.length > MAX_BULK_ITEMS) {
    throw new BulkCsvRefused(`file refused: ${records.length} payouts, at most ${MAX_BULK_ITEMS} in one batch`);
  }
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of records) {
    try {
      const payout = parseBulkItem(record);
      const earlier = seen.get(payout.transactionId);
      if (earlier !== undefined)
        problems.push(`line ${info.lines}: TransactionID ${payout.transactionId} is already on line ${earlier}`);
      else seen.set(payout.transactionId, info.lines);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const fields = (error.details.errors as { field: string; message: string }[] | undefined) ?? [];
      problems.push(`line ${info.lines}: ${fields.length ? fields.map((f) => f.message).join('; ') : error.message}`);
    }
  }
  if (problems.length) {
    const more = problems.length > LISTED_PROBLEMS ? `\n… and ${problems.length - LISTED_PROBLEMS} more` : '';
    throw new BulkCsvRefused(
      `file refused, nothing was reserved:\n${problems.slice(0, LISTED_PROBLEMS).join('\n')}${more}`,
    );
  }
  return records.map((r) => ({ line: r.info.lines, item: r.record }));
}

function checkedHeader(header: string[]): string[] {
  const unknown = header.filter((h) => !BULK_CSV_COLUMNS.includes(h));
  if (unknown.length)
    throw new BulkCsvRefused(
      `line 1: unknown column ${unknown.join(', ')}; the columns are ${BULK_CSV_COLUMNS.join(',')}`,
    );
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) throw new BulkCsvRefused(`line 1: missing column ${missing.join(', ')}`);
  return header;
}

/** A BatchID from the file's content, so submitting the same file again replays the batch instead of paying twice. */
export function bulkCsvBatchId(bytes: Buffer | string): string {
  const digest = createHash('sha256').update(bytes).digest('hex');
  return BigInt(`0x${digest.slice(0, 24)}`)
    .toString()
    .slice(0, 30);
}
