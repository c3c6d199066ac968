import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { CsvError, parse } from 'csv-parse/sync';
import type { Redis } from 'ioredis';
import { bulkAcceptedBody, CoalescingAccepter, parseBulkItem, submitBulkPayout } from '@payout/api';
import { findCredentials } from '@payout/db';
import { AppError, isAppError, MAX_BULK_ITEMS, stringifyJson } from '@payout/domain';
import { createPayoutProducer } from '@payout/queue';
import { createLogger, createMetrics } from '@payout/telemetry';
import { midArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show, type Row } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

/** The file's columns: the bulk endpoint's item members (docs/operations.md, "Bulk payouts from a file"). */
const COLUMNS = [
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

/** `payout bulk`: an operator submits a merchant's CSV file as one bulk batch, through the bulk endpoint's path. */
export function registerPayoutBulkCommand(program: Command, context: () => CommandContext): void {
  const payout = program.commands.find((c) => c.name() === 'payout');
  if (!payout) throw new Error('register the payout commands before payout bulk');
  payout
    .command('bulk')
    .description('submit a CSV file of payouts for a merchant as one bulk batch (a malformed file is refused whole)')
    .requiredOption('--mid <mid>', 'merchant MID', midArgument)
    .requiredOption('--file <path>', 'CSV file with a header row: ' + COLUMNS.join(','))
    .option('--batch-id <digits>', "the batch's BatchID (default: derived from the file's content)", batchIdArgument)
    .action(async (opts: { mid: string; file: string; batchId?: string }) => {
      const { db, queue, out } = context();
      const bytes = await readFile(opts.file).catch((error: unknown) => {
        throw new CommandFailure(`cannot read ${opts.file}: ${(error as Error).message}`);
      });
      // Every row is judged before anything is recorded: one bad line refuses the file, nothing reserved.
      const rows = readRows(bytes);
      const credentials = await findCredentials(db(), opts.mid);
      if (!credentials) throw new CommandFailure(`no merchant with MID ${opts.mid}`);
      if (credentials.merchant.status !== 'ACTIVE') throw new CommandFailure(`merchant ${opts.mid} is suspended`);

      const batchId = opts.batchId ?? batchIdOf(bytes);
      const connection = queue().opts.connection as Redis;
      const producer = createPayoutProducer({ connection, prefix: queue().opts.prefix ?? 'bull', timeoutMs: 5_000 });
      const deps = {
        db: db(),
        // The API's own accepter: items are coalesced into a few accept_payouts statements, as for a merchant.
        accepter: new CoalescingAccepter(db(), { maxBatch: 200, maxInFlight: 1, maxWaitMs: 30_000 }),
        producer,
        metrics: createMetrics('cli'),
      };
      let batch;
      try {
        batch = await submitBulkPayout(deps, createLogger('cli', 'silent'), credentials.merchant, batchId, rows);
      } catch (error) {
        if (isAppError(error)) throw new CommandFailure(`batch ${batchId} refused: ${error.message}`);
        throw error;
      }
      // Wait for the jobs (the endpoint does not): a command that ends closes its Redis connection.
      const waiting = batch.items.flatMap((i) => ('payout' in i && i.payout.state === 'ACCEPTED' ? [i.payout.id] : []));
      const queued = await producer.enqueueExecute(waiting);
      const body = bulkAcceptedBody(batch);
      // The body's numbers are exact literals (a UPI result's TransactionID may have 23 digits): written losslessly.
      if (out.json) {
        out.write(stringifyJson({ ...body, jobsQueued: queued }));
        return;
      }
      show(out, body, [
        {
          title: `batch ${batchId} for ${opts.mid}: ${String(body.message)}${queued ? '' : ' (Redis unreachable: the sweeper will queue the accepted payouts)'}`,
          rows: (body.results as Record<string, unknown>[]).map((r): Row => ({
            line: Number(r.index) + 2,
            TransactionID: stringOf(r.TransactionID),
            status: stringOf(r.status),
            Amount: stringOf(r.Amount),
            Ack_no: stringOf(r.Ack_no),
            message: stringOf(r.message),
          })),
        },
      ]);
    });
}

/** The file's rows as bulk items (column name → cell), or a refusal naming every bad line. */
function readRows(bytes: Buffer): Record<string, string>[] {
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
    if (error instanceof CsvError || error instanceof UsageError)
      throw new CommandFailure(`file refused: ${error.message}`);
    throw error;
  }
  if (records.length === 0) throw new CommandFailure('file refused: no payouts after the header line');
  if (records.length > MAX_BULK_ITEMS) {
    throw new CommandFailure(`file refused: ${records.length} payouts, at most ${MAX_BULK_ITEMS} in one batch`);
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
    throw new CommandFailure(
      `file refused, nothing was reserved:\n${problems.slice(0, LISTED_PROBLEMS).join('\n')}${more}`,
    );
  }
  return records.map((r) => r.record);
}

function checkedHeader(header: string[]): string[] {
  const unknown = header.filter((h) => !COLUMNS.includes(h));
  if (unknown.length)
    throw new UsageError(`line 1: unknown column ${unknown.join(', ')}; the columns are ${COLUMNS.join(',')}`);
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) throw new UsageError(`line 1: missing column ${missing.join(', ')}`);
  return header;
}

/** A BatchID from the file's content, so submitting the same file again replays the batch instead of paying twice. */
function batchIdOf(bytes: Buffer): string {
  const digest = createHash('sha256').update(bytes).digest('hex');
  return BigInt(`0x${digest.slice(0, 24)}`)
    .toString()
    .slice(0, 30);
}

function batchIdArgument(text: string): string {
  if (!/^[0-9]{1,30}$/.test(text)) throw new UsageError(`--batch-id must be 1 to 30 digits: got "${text}"`);
  return text;
}

/** A result member as table text: strings as they are, exact number literals by their text. */
function stringOf(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : stringifyJson(value);
}
