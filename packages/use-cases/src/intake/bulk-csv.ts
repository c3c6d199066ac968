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
  const { lines, refused } = judgeBulkCsvLines(bytes);
  if (refused.length) {
    const problems = refused.map((r) => `line ${r.line}: ${r.why}`);
    const more = problems.length > LISTED_PROBLEMS ? `\n… and ${problems.length - LISTED_PROBLEMS} more` : '';
    throw new BulkCsvRefused(
      `file refused, nothing was reserved:\n${problems.slice(0, LISTED_PROBLEMS).join('\n')}${more}`,
    );
  }
  return lines;
}

/** A line of a file that is not a payout, and why (the item rules' own messages). */
export interface BulkCsvRefusedLine {
  line: number;
  why: string;
}

/**
 * The file read line by line: the lines that are payouts and the lines that are not, each with the reason.
 * Only the file as a whole (its header, no lines, more than MAX_BULK_ITEMS) is refused with a
 * {@link BulkCsvRefused}. The operator's reader refuses a file with any bad line; a merchant's dashboard
 * preview shows the bad lines and sends the others (docs/dashboard.md, "Bulk upload").
 */
export function judgeBulkCsvLines(bytes: Buffer | string): { lines: BulkCsvLine[]; refused: BulkCsvRefusedLine[] } {
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
  const lines: BulkCsvLine[] = [];
  const refused: BulkCsvRefusedLine[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of records) {
    try {
      const payout = parseBulkItem(record);
      const earlier = seen.get(payout.transactionId);
      if (earlier !== undefined)
        refused.push({ line: info.lines, why: `TransactionID ${payout.transactionId} is already on line ${earlier}` });
      else {
        seen.set(payout.transactionId, info.lines);
        lines.push({ line: info.lines, item: record });
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const fields = (error.details.errors as { field: string; message: string }[] | undefined) ?? [];
      refused.push({ line: info.lines, why: fields.length ? fields.map((f) => f.message).join('; ') : error.message });
    }
  }
  return { lines, refused };
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
  return batchIdOfDigest(createHash('sha256').update(bytes).digest('hex'));
}

/** A BatchID (at most 30 digits, as the bulk endpoint takes) made from a hex SHA-256 digest: its first 96 bits. */
export function batchIdOfDigest(hexDigest: string): string {
  return BigInt(`0x${hexDigest.slice(0, 24)}`)
    .toString()
    .slice(0, 30);
}
