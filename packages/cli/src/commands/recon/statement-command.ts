import { userInfo } from 'node:os';
import { Option, type Command } from 'commander';
import { lastStatementSequence, reconcileStatement, recordStatementIdentity } from '@payout/db';
import { approvalJson } from '@payout/use-cases';
import type { CommandContext } from '../../context.js';
import { personNamed } from '../../console-person.js';
import { show } from '../../output.js';
import { CommandFailure, UsageError } from '../../usage-error.js';
import { acceptedStatement, identityOf } from './statement-acceptance.js';
import { LAYOUTS, readStatementInput, type StatementInputOptions } from './statement-input.js';
import { fileJson, reportSections } from './statement-report.js';
import { breaksLeft, requestApplication } from './statement-request.js';

interface StatementCommandOptions extends StatementInputOptions {
  apply?: boolean;
  operator?: string;
}

/** `pnpm cli recon statement` (docs/reconciliation.md, "Statement reconciliation"). */
export function registerStatementCommand(recon: Command, context: () => CommandContext): void {
  recon
    .command('statement')
    .description(
      'match a bank statement (MT940, camt.053, a bank CSV export with its --profile, or the canonical CSV ' +
        'reference,utr,amount,type,value_date; docs/reconciliation-formats.md) against every payout of its dates; ' +
        'several --file, or --dir with --from and --to, are read as one run of several days; ' +
        'exit 0 when nothing is left unresolved, 1 when breaks remain, 2 for a malformed, unbalanced or oversized file',
    )
    .option('--file <path>', 'the statement file; repeat it to read several days as one run', collect)
    .option('--dir <dir>', 'a folder of statement files: those dated --from to --to are read as one run')
    .option('--from <YYYY-MM-DD>', 'with --dir: the first statement day (a day without a file refuses the run)')
    .option('--to <YYYY-MM-DD>', 'with --dir: the last statement day')
    .addOption(
      new Option('--format <format>', 'the layout the file must have (default: told from its content)').choices(
        Object.keys(LAYOUTS),
      ),
    )
    .option(
      '--profile <name|path.json>',
      "a bank CSV export's profile: a shipped one by name (packages/recon/profiles/NAME.json) or a file",
    )
    .option(
      '--apply',
      'record the discrepancies it finds, and ask for what is unambiguous (a pending payout the bank paid, a return of a ' +
        'paid payout) to be applied: a request another approver approves with `pnpm cli approval approve`',
    )
    .option('--operator <name>', 'who runs it; with --apply, the console user asking (required)')
    .action((opts: StatementCommandOptions) => reconcileStatementFiles(context(), opts));
}

/** `--file` repeated: every path, in the order given. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

async function reconcileStatementFiles(context: CommandContext, opts: StatementCommandOptions): Promise<void> {
  const { db, out, statementMaxBytes, settlementAccount } = context;
  const input = await readStatementInput(opts, statementMaxBytes);
  const statement = await acceptedStatement(input, settlementAccount, (account) =>
    lastStatementSequence(db(), account),
  );
  if (opts.apply && !opts.operator) {
    throw new UsageError('--apply needs --operator: the console user asking (another approver approves it)');
  }
  const maker = opts.apply ? await personNamed(db(), opts.operator!) : undefined;

  const report = await reconcileStatement(db(), {
    lines: statement.lines,
    valueDates: statement.valueDates,
    fileDigest: input.digest,
    fileName: input.name,
    actor: `operator:${opts.operator ?? userInfo().username}`,
    recordDiscrepancies: opts.apply ?? false,
  });
  const identity = identityOf(statement);
  if (identity) await recordStatementIdentity(db(), report.runId, identity);
  const approval = maker ? await requestApplication(context, report, input.name, maker) : undefined;

  const file = fileJson(statement);
  const result = {
    ...report,
    ...file,
    ...(approval && { approvalId: approval.id, approval: approvalJson(approval) }),
  };
  show(out, result, reportSections(input.name, report, file, approval));
  // The lines the request will settle or reverse wait for their approver; anything else is for a person.
  const left = breaksLeft(report, approval);
  if (left.length > 0) {
    throw new CommandFailure(`${left.length} break(s) left for a person`, { silent: out.json });
  }
}
