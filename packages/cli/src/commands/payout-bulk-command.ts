import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { BULK_CSV_COLUMNS } from '@payout/use-cases';
import { merchantCommand, nonEmptyArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show, type Row } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

/** Lines of the batch printed in the table; `--json` has every one. */
const SHOWN_LINES = 50;

interface BulkApproval {
  id: string;
  state: string;
  preview: {
    summary: string;
    payouts: number;
    total: string;
    newBeneficiaries: number;
    availableBefore: string;
    availableAfter: string;
    lines: Row[];
  };
}

/**
 * `payout bulk`: a person asks for a merchant's CSV file as one bulk batch. It is sent, with the person's own
 * credential, to the admin listener (POST /admin/merchants/:mid/bulk), which reads the file whole (a
 * malformed one is refused with its line numbers) and stores a request another approver approves; nothing is
 * reserved or queued until then (docs/operations.md, "Bulk payouts from a file").
 */
export function registerPayoutBulkCommand(program: Command, context: () => CommandContext): void {
  const payout = program.commands.find((c) => c.name() === 'payout');
  if (!payout) throw new Error('register the payout commands before payout bulk');
  merchantCommand(
    payout,
    'bulk',
    "ask for a CSV file of payouts as one bulk batch of a merchant's wallet; another approver approves it",
  )
    .requiredOption('--file <path>', 'CSV file with a header row: ' + BULK_CSV_COLUMNS.join(','))
    .option('--batch-id <digits>', "the batch's BatchID (default: derived from the file's content)", batchIdArgument)
    .requiredOption('--why <reason>', 'why, for the approver and the audit log', nonEmptyArgument('why', 400))
    .action(async (opts: { mid: string; file: string; batchId?: string; why: string }) => {
      const { admin, out } = context();
      const csv = await readFile(opts.file, 'utf8').catch((error: unknown) => {
        throw new CommandFailure(`cannot read ${opts.file}: ${(error as Error).message}`);
      });
      const { approval } = await admin().post<{ approval: BulkApproval }>(
        `/admin/merchants/${encodeURIComponent(opts.mid)}/bulk`,
        { csv, why: opts.why, ...(opts.batchId && { batchId: opts.batchId }) },
      );
      const { preview } = approval;
      const more = preview.lines.length - SHOWN_LINES;
      show(out, { approvalId: approval.id, ...approval }, [
        {
          title: `Request ${approval.id} made: nothing is reserved until another approver approves it`,
          rows: [
            {
              payouts: preview.payouts,
              total: preview.total,
              newBeneficiaries: preview.newBeneficiaries,
              availableBefore: preview.availableBefore,
              availableAfter: preview.availableAfter,
            },
          ],
        },
        {
          title: `\nLines, beneficiaries new to ${opts.mid} first${more > 0 ? ` (the first ${SHOWN_LINES}, and ${more} more)` : ''}`,
          rows: preview.lines.slice(0, SHOWN_LINES),
        },
        { rows: [{ approve: `pnpm cli approval approve --id ${approval.id}` }] },
      ]);
    });
}

function batchIdArgument(text: string): string {
  if (!/^[0-9]{1,30}$/.test(text)) throw new UsageError(`--batch-id must be 1 to 30 digits: got "${text}"`);
  return text;
}
