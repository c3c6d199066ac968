import { Option, type Command } from 'commander';
import { previewOf, readStatementSources, statementRunJson, type StatementProgress } from '@payout/use-cases';
import { AdminRefusal } from '../../admin-client.js';
import type { CommandContext } from '../../context.js';
import { show } from '../../output.js';
import { CommandFailure, UsageError } from '../../usage-error.js';
import {
  LAYOUTS,
  readStatementInput,
  statementTexts,
  type StatementInput,
  type StatementInputOptions,
} from './statement-input.js';
import { reportSections, type StatementRunJson } from './statement-report.js';
import { breaksLeft } from './statement-request.js';

interface StatementCommandOptions extends StatementInputOptions {
  apply?: boolean;
  bank?: string;
  progress?: boolean;
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
      '--bank <alias>',
      'the sponsor bank whose statement it is (config BANKS); by default the bank whose settlement account the statement is for, or the only bank',
    )
    .option(
      '--progress',
      'tell how far a long run has got (lines read, matched) on stderr, as it does at a terminal without --json',
    )
    .option(
      '--apply',
      'store the run; when it settles a pending payout the bank paid, reverses a paid payout the bank returned, or ' +
        'closes an earlier break of money missing at the bank that it shows booked the next day, all it found — its ' +
        'breaks, statement number and discrepancies too — counts only once another approver approves the request ' +
        '(`pnpm cli approval approve`); otherwise it counts at once. Sent to the admin listener with your own ' +
        'credential (`pnpm cli login`). Without it nothing is stored',
    )
    .action((opts: StatementCommandOptions) => reconcileStatementFiles(context(), opts));
}

/** `--file` repeated: every path, in the order given. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

async function reconcileStatementFiles(context: CommandContext, opts: StatementCommandOptions): Promise<void> {
  const { out, statementMaxBytes } = context;
  const input = await readStatementInput(opts, statementMaxBytes);
  const run = opts.apply ? await applyThroughAdmin(context, input, opts.bank) : await readOnly(context, input, opts);
  show(out, run as unknown as Record<string, unknown>, reportSections(input.name, run));
  // The lines the request will settle or reverse wait for their approver; anything else is for a person.
  const left = breaksLeft(run);
  if (left.length > 0) {
    throw new CommandFailure(`${left.length} break(s) left for a person`, { silent: out.json });
  }
}

/**
 * Without `--apply`, a report and nothing more (docs/reconciliation.md, "Statement reconciliation"): the
 * files read as streams, checked and matched against their bank's books in the database, and nothing
 * stored — no run, no breaks, no discrepancies, no earlier break decided.
 */
async function readOnly(
  context: CommandContext,
  input: StatementInput,
  opts: StatementCommandOptions,
): Promise<StatementRunJson> {
  const { db, settlementAccount, statementBanks } = context;
  const tell = progressTeller(context, opts);
  const read = await readStatementSources(
    db(),
    {
      production: false,
      ...(settlementAccount !== undefined && { settlementAccount }),
      ...(statementBanks && { banks: statementBanks }),
    },
    {
      sources: input.sources,
      ...(input.profile && { profile: input.profile }),
      ...(opts.bank !== undefined && { bank: opts.bank }),
      ...(tell && { onProgress: tell }),
    },
  );
  if (read.kind !== 'read') throw new UsageError(read.why);
  const preview = await previewOf(db(), read.matched, { fileDigest: read.fileDigest, valueDates: read.valueDates });
  return statementRunJson(preview, read.file) as unknown as StatementRunJson;
}

/** How often a long run tells a person how far it has got. */
const PROGRESS_EVERY_MS = 2_000;

/**
 * Progress for a person (docs/reconciliation.md, "Memory"): on stderr, at most every two seconds — when
 * stderr is a terminal and the report is not `--json`, or whenever `--progress` asks for it (a Job's log).
 */
function progressTeller(context: CommandContext, opts: StatementCommandOptions) {
  const { progress, out } = context;
  if (!progress || !(opts.progress || (progress.terminal && !out.json))) return undefined;
  let last = 0;
  return (at: StatementProgress) => {
    const now = Date.now();
    if (at.stage !== 'done' && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    const what =
      at.stage === 'reading'
        ? `${at.linesRead} lines read`
        : `${at.linesRead} lines read, ${at.linesMatched} matched${at.stage === 'done' ? ': done' : ''}`;
    progress.write(`recon statement: ${what}`);
  };
}

/**
 * `--apply` acts as a person: the files go to the admin listener (`POST /admin/statements`) with the
 * person's own credential, which stores the run and, when it settles, reverses or closes anything, asks a
 * second person to approve it before any of it counts. A file the server refuses is bad input (exit 2), as
 * it is read here.
 */
async function applyThroughAdmin(
  context: CommandContext,
  input: StatementInput,
  bank: string | undefined,
): Promise<StatementRunJson> {
  try {
    const answer = await context.admin().post('/admin/statements', {
      files: await statementTexts(input),
      ...(input.profile && { profile: input.profile }),
      ...(bank !== undefined && { bank }),
    });
    const { error: _error, status_code: _status, status: _ok, ...run } = answer;
    return run as unknown as StatementRunJson;
  } catch (error) {
    // A file refused (422) or a run too large for the listener (413) is bad input, as when read here.
    if (error instanceof AdminRefusal && [413, 422].includes(error.status)) throw new UsageError(error.message);
    throw error;
  }
}
