import type { Command } from 'commander';
import { checkInvariants } from '@payout/db';
import { positiveIntegerArgument } from '../arguments.js';
import type { CommandContext } from '../context.js';
import { show } from '../output.js';
import { CommandFailure } from '../usage-error.js';

export function registerReconcileCommand(program: Command, context: () => CommandContext): void {
  program
    .command('reconcile')
    .description('check every money invariant; exits non-zero with a report on any breach')
    .option(
      '--attention-after-hours <hours>',
      'how long an open discrepancy or a manual review may wait for a person before it is a breach',
      positiveIntegerArgument('attention-after-hours'),
      24,
    )
    .action(async (opts: { attentionAfterHours: number }) => {
      const { db, out, stuckAfterMs } = context();
      const report = await checkInvariants(db(), {
        stuckAfterMs,
        attentionAfterMs: opts.attentionAfterHours * 3_600_000,
      });
      show(out, report as unknown as Record<string, unknown>, [
        {
          title: report.ok ? 'Reconciliation: every invariant holds' : 'Reconciliation: BREACHES FOUND',
          rows: report.checks.map((c) => ({ check: c.name, breaches: c.breaches, invariant: c.description })),
        },
        {
          title: '\nWhere the bank and our books disagree (`pnpm cli discrepancy list`)',
          rows: [{ openDiscrepancies: report.openDiscrepancies }],
        },
        ...report.checks
          .filter((c) => c.breaches > 0)
          .map((c) => ({
            title: `\n${c.name}: ${c.breaches} breach(es), e.g.`,
            rows: c.examples.map((e) =>
              Object.fromEntries(
                Object.entries(e).map(([k, v]) => [
                  k,
                  v === null ? null : typeof v === 'object' ? JSON.stringify(v) : String(v as string | number),
                ]),
              ),
            ),
          })),
      ]);
      if (!report.ok)
        throw new CommandFailure(`${report.checks.filter((c) => c.breaches > 0).length} invariant(s) breached`, {
          silent: out.json,
        });
    });
}
