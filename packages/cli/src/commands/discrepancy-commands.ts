import type { Command } from 'commander';
import { listDiscrepancies, RESOLUTIONS, type DiscrepancyView } from '@payout/db';
import { calledWrongly } from '../admin-client.js';
import { showRequested, type ApprovalAnswer } from './approval-commands.js';
import { formatRupees } from '@payout/domain';
import { nonEmptyArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show, type Row } from '../output.js';
import { UsageError } from '../usage-error.js';

const ALL_RESOLUTIONS = [...new Set(Object.values(RESOLUTIONS).flat())];

export function registerDiscrepancyCommands(program: Command, context: () => CommandContext): void {
  const discrepancy = program
    .command('discrepancy')
    .description(
      'where the bank and our books disagree about a settled payout or pay-in: list (a deployment command), resolve (as you, signed in)',
    );

  discrepancy
    .command('list')
    .description('open discrepancies, oldest first (--all: resolved ones too)')
    .option('--all', 'include resolved discrepancies')
    .action(async (opts: { all?: boolean }) => {
      const { db, out } = context();
      const found = await listDiscrepancies(db(), { includeResolved: opts.all ?? false });
      show(out, { discrepancies: found }, [
        { title: opts.all ? 'Discrepancies' : 'Open discrepancies', rows: found.map(discrepancyRow) },
      ]);
    });

  discrepancy
    .command('resolve')
    .description(
      'resolve one discrepancy, with its ledger action: debit-merchant or recovered (SUCCESS_AFTER_FAILED), ' +
        'reverse or confirmed-paid (FAILED_AFTER_SUCCESS), credit-payin (PAYIN_CONFLICT), no-change (any kind); ' +
        'a resolution that posts to the ledger becomes a request another approver approves',
    )
    .requiredOption('--id <id>', 'the discrepancy id (from `discrepancy list`)', idArgument)
    .requiredOption('--resolution <resolution>', ALL_RESOLUTIONS.join(' | '), resolutionArgument)
    .requiredOption('--note <text>', 'why (what the bank confirmed, the ticket)', nonEmptyArgument('note', 500))
    .action(async (opts: { id: bigint; resolution: string; note: string }) => {
      const { admin, out } = context();
      const answer = await admin()
        .post<{ approval?: ApprovalAnswer; discrepancy?: ResolvedAnswer }>(`/admin/discrepancies/${opts.id}/resolve`, {
          resolution: opts.resolution,
          note: opts.note,
        })
        .catch(calledWrongly);
      if (answer.approval) {
        showRequested(out, { approval: answer.approval });
        return;
      }
      const resolved = answer.discrepancy!;
      show(out, resolved, [{ title: 'Resolved', rows: [resolvedRow(resolved)] }]);
    });
}

/** A resolved discrepancy as the admin listener answers it. */
type ResolvedAnswer = Record<string, unknown> & {
  id: string;
  kind: string;
  status: string;
  source: string;
  ackNo: string;
  transactionId: string;
  amount: string;
  stateHere: string;
  timesSeen: number;
  createdAt: string;
  report: unknown;
  resolution: string | null;
  resolvedBy: string | null;
};

function resolvedRow(d: ResolvedAnswer): Row {
  return {
    id: d.id,
    kind: d.kind,
    status: d.status,
    source: d.source,
    ackNo: d.ackNo,
    TransactionID: d.transactionId,
    amount: d.amount,
    here: d.stateHere,
    seen: d.timesSeen,
    since: d.createdAt,
    said: d.report === null ? null : JSON.stringify(d.report),
    resolution: d.resolution,
    by: d.resolvedBy,
  };
}

/** One discrepancy as a table row (also used by `payout show`). */
export function discrepancyRow(d: DiscrepancyView): Row {
  return {
    id: String(d.id),
    kind: d.kind,
    status: d.status,
    source: d.source,
    ackNo: d.ackNo,
    TransactionID: d.transactionId,
    amount: formatRupees(d.amountPaise),
    here: d.stateHere,
    seen: d.timesSeen,
    since: d.createdAt.toISOString(),
    said: d.report === null ? null : JSON.stringify(d.report),
    resolution: d.resolution,
    by: d.resolvedBy,
  };
}

function idArgument(text: string): bigint {
  if (!/^[1-9][0-9]{0,18}$/.test(text)) throw new UsageError(`--id must be a discrepancy id: got "${text}"`);
  return BigInt(text);
}

function resolutionArgument(text: string): string {
  if (!ALL_RESOLUTIONS.includes(text)) {
    throw new UsageError(`--resolution must be one of ${ALL_RESOLUTIONS.join(', ')}: got "${text}"`);
  }
  return text;
}
