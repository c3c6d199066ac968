import type { Command } from 'commander';
import { listDiscrepancies, RESOLUTIONS, type DiscrepancyView } from '@payout/db';
import { resolveDiscrepancyAction } from '@payout/use-cases';
import { personNamed } from '../console-person.js';
import { requestFromCli } from './approval-commands.js';
import { formatRupees } from '@payout/domain';
import { nonEmptyArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show, type Row } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

const ALL_RESOLUTIONS = [...new Set(Object.values(RESOLUTIONS).flat())];

export function registerDiscrepancyCommands(program: Command, context: () => CommandContext): void {
  const discrepancy = program
    .command('discrepancy')
    .description('where the bank and our books disagree about a settled payout or pay-in (docs/reconciliation.md)');

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
        'reverse or confirmed-paid (FAILED_AFTER_SUCCESS), credit-payin (PAYIN_CONFLICT), no-change (any kind)',
    )
    .requiredOption('--id <id>', 'the discrepancy id (from `discrepancy list`)', idArgument)
    .requiredOption('--resolution <resolution>', ALL_RESOLUTIONS.join(' | '), resolutionArgument)
    .requiredOption('--note <text>', 'why (what the bank confirmed, the ticket)', nonEmptyArgument('note', 500))
    .requiredOption(
      '--operator <name>',
      'the console user resolving it; a resolution that posts to the ledger becomes a request another approver approves',
      nonEmptyArgument('operator', 64),
    )
    .action(async (opts: { id: bigint; resolution: string; note: string; operator: string }) => {
      const ctx = context();
      const by = await personNamed(ctx.db(), opts.operator);
      const outcome = await resolveDiscrepancyAction(
        { db: ctx.db() },
        { id: opts.id, resolution: opts.resolution, note: opts.note, by },
      );
      switch (outcome.kind) {
        case 'not-found':
          throw new CommandFailure(`no discrepancy ${opts.id}`);
        case 'already-resolved':
          throw new CommandFailure(
            `discrepancy ${opts.id} was already resolved (${outcome.discrepancy.resolution} by ${outcome.discrepancy.resolvedBy}); nothing changed`,
          );
        case 'resolution-not-allowed':
          throw new UsageError(
            `--resolution ${opts.resolution} does not fit this discrepancy; use one of: ${outcome.allowed.join(', ')}`,
          );
        case 'refused':
          throw new CommandFailure(`discrepancy ${opts.id} not resolved: ${outcome.reason}; nothing changed`);
        case 'planned':
          await requestFromCli(ctx, outcome.planned, by, opts.note);
          return;
        case 'resolved': {
          const view = { ...outcome.discrepancy, ledgerPosted: outcome.posted };
          show(ctx.out, view, [{ title: 'Resolved', rows: [discrepancyRow(outcome.discrepancy)] }]);
        }
      }
    });
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
