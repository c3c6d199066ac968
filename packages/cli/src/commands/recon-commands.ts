import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { reconcileStatement } from '@payout/db';
import { parseStatement } from '@payout/recon';
import type { CommandContext } from '../context.js';
import { show } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

export function registerReconCommands(program: Command, context: () => CommandContext): void {
  const recon = program
    .command('recon')
    .description("match the bank's records against our books (docs/reconciliation.md)");

  recon
    .command('statement')
    .description(
      'match a bank statement (CSV: reference,utr,amount,type,value_date) against every payout of its dates; ' +
        'exit 0 when nothing is left unresolved, 1 when breaks remain, 2 for a malformed file',
    )
    .requiredOption('--file <path>', 'the statement CSV')
    .option('--apply', 'settle what is unambiguous: a pending payout the bank paid, a return of a paid payout')
    .option('--operator <name>', 'who runs it (default: the OS user)')
    .action(async (opts: { file: string; apply?: boolean; operator?: string }) => {
      const { db, out } = context();
      let bytes: Buffer;
      try {
        bytes = await readFile(opts.file);
      } catch (error) {
        throw new UsageError(`cannot read --file ${opts.file}: ${(error as Error).message}`);
      }
      const statement = parseStatement(bytes.toString('utf8'));
      if (!statement.ok) {
        throw new UsageError(`${opts.file} line ${statement.lineNumber}: ${statement.message}; nothing applied`);
      }

      const report = await reconcileStatement(db(), {
        lines: statement.lines,
        valueDates: statement.valueDates,
        fileDigest: createHash('sha256').update(bytes).digest('hex'),
        fileName: basename(opts.file),
        actor: `operator:${opts.operator ?? userInfo().username}`,
        apply: opts.apply ?? false,
      });

      show(out, report as unknown as Record<string, unknown>, [
        {
          title: `Statement ${basename(opts.file)} (${report.valueDates.join(', ') || 'no lines'}), run ${report.runId}${report.applied ? ', applied' : ''}`,
          rows: Object.entries(report.counts).map(([kind, count]) => ({ class: kind, count })),
        },
        ...(report.earlierRuns.length
          ? [
              {
                title: '\nThe same file was run before',
                rows: report.earlierRuns.map((r) => ({
                  run: String(r.id),
                  at: r.at.toISOString(),
                  applied: r.applied,
                  operator: r.operator,
                })),
              },
            ]
          : []),
        {
          title: report.breaks.length
            ? `\nBreaks: ${report.breaks.length}`
            : '\nNo breaks: the bank and our books agree',
          rows: report.breaks.map((b) => ({
            kind: b.kind,
            reference: b.reference,
            line: b.bank?.line ?? null,
            bank: b.bank ? `${b.bank.type} ${b.bank.amount} UTR ${b.bank.utr} on ${b.bank.value_date}` : 'nothing',
            here: b.books ? `${b.books.state} ${b.books.amount}${b.books.utr ? ` UTR ${b.books.utr}` : ''}` : 'nothing',
          })),
        },
      ]);
      if (report.breaks.length > 0) {
        throw new CommandFailure(`${report.breaks.length} break(s) left for a person`, { silent: out.json });
      }
    });
}
