import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { bulkAcceptedBody } from '@payout/contract';
import { findCredentials } from '@payout/db';
import { isAppError, stringifyJson } from '@payout/domain';
import { createLogger } from '@payout/telemetry';
import {
  BULK_CSV_COLUMNS,
  BulkCsvRefused,
  bulkCsvBatchId,
  operatorBulkDeps,
  readBulkCsv,
  submitBulkPayout,
} from '@payout/use-cases';
import { merchantCommand } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { noMerchant } from '../merchant-by-mid.js';
import { show, type Row } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

/** `payout bulk`: an operator submits a merchant's CSV file as one bulk batch, through the bulk endpoint's path. */
export function registerPayoutBulkCommand(program: Command, context: () => CommandContext): void {
  const payout = program.commands.find((c) => c.name() === 'payout');
  if (!payout) throw new Error('register the payout commands before payout bulk');
  merchantCommand(
    payout,
    'bulk',
    'submit a CSV file of payouts for a merchant as one bulk batch (a malformed file is refused whole)',
  )
    .requiredOption('--file <path>', 'CSV file with a header row: ' + BULK_CSV_COLUMNS.join(','))
    .option('--batch-id <digits>', "the batch's BatchID (default: derived from the file's content)", batchIdArgument)
    .action(async (opts: { mid: string; file: string; batchId?: string }) => {
      const { db, queue, out } = context();
      const bytes = await readFile(opts.file).catch((error: unknown) => {
        throw new CommandFailure(`cannot read ${opts.file}: ${(error as Error).message}`);
      });
      // Every row is judged before anything is recorded: one bad line refuses the file, nothing reserved.
      const rows = readRows(bytes);
      const credentials = await findCredentials(db(), opts.mid);
      if (!credentials) throw noMerchant(opts.mid);
      if (credentials.merchant.status !== 'ACTIVE') throw new CommandFailure(`merchant ${opts.mid} is suspended`);

      const batchId = opts.batchId ?? bulkCsvBatchId(bytes);
      // The API's own accepter: items are coalesced into a few accept_payouts statements, as for a merchant.
      const deps = operatorBulkDeps(db(), queue(), 'cli');
      const { producer } = deps;
      let batch;
      try {
        const log = createLogger('cli', 'silent');
        batch = await submitBulkPayout(deps, { merchant: credentials.merchant, batchId, payouts: rows, log });
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
          title: `batch ${batchId} for ${opts.mid}: ${body.message}${queued ? '' : ' (Redis unreachable: the sweeper will queue the accepted payouts)'}`,
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

/** The file's rows (packages/use-cases/src/intake/bulk-csv.ts, shared with the console's upload), or why it is refused. */
function readRows(bytes: Buffer): Record<string, string>[] {
  try {
    return readBulkCsv(bytes);
  } catch (error) {
    if (error instanceof BulkCsvRefused) throw new CommandFailure(error.message);
    throw error;
  }
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
