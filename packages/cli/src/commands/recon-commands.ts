import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { reconcileStatement, type ApprovalRequestView, type StatementRunReport } from '@payout/db';
import { planStatementApplication, requestApproval, type Person } from '@payout/operator-actions';
import { parseStatement } from '@payout/recon';
import type { CommandContext } from '../context.js';
import { personNamed } from '../console-person.js';
import { approvalJson } from './approval-commands.js';
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
        'exit 0 when nothing is left unresolved, 1 when breaks remain, 2 for a malformed or oversized file',
    )
    .requiredOption('--file <path>', 'the statement CSV')
    .option(
      '--apply',
      'record the discrepancies it finds, and ask for what is unambiguous (a pending payout the bank paid, a return of a ' +
        'paid payout) to be applied: a request another approver approves with `pnpm cli approval approve`',
    )
    .option('--operator <name>', 'who runs it; with --apply, the console user asking (required)')
    .action(async (opts: { file: string; apply?: boolean; operator?: string }) => {
      const context_ = context();
      const { db, out, statementMaxBytes } = context_;
      const bytes = await readStatementFile(opts.file, statementMaxBytes);
      const statement = parseStatement(bytes.toString('utf8'));
      if (!statement.ok) {
        throw new UsageError(`${opts.file} line ${statement.lineNumber}: ${statement.message}; nothing applied`);
      }
      if (opts.apply && !opts.operator) {
        throw new UsageError('--apply needs --operator: the console user asking (another approver approves it)');
      }
      const maker = opts.apply ? await personNamed(db(), opts.operator!) : undefined;

      const report = await reconcileStatement(db(), {
        lines: statement.lines,
        valueDates: statement.valueDates,
        fileDigest: createHash('sha256').update(bytes).digest('hex'),
        fileName: basename(opts.file),
        actor: `operator:${opts.operator ?? userInfo().username}`,
        recordDiscrepancies: opts.apply ?? false,
      });
      const approval = maker ? await requestApplication(context_, report, basename(opts.file), maker) : undefined;

      show(out, { ...report, ...(approval && { approvalId: approval.id, approval: approvalJson(approval) }) }, [
        {
          title: `Statement ${basename(opts.file)} (${report.valueDates.join(', ') || 'no lines'}), run ${report.runId}`,
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
        ...(approval
          ? [
              {
                title: `\nRequest ${approval.id}: ${approval.summary}; nothing is applied until another approver approves it`,
                rows: [{ approve: `pnpm cli approval approve --id ${approval.id} --operator <approver>` }],
              },
            ]
          : []),
      ]);
      // The lines the request will settle or reverse wait for their approver; anything else is for a person.
      const requested = new Set(approval ? report.plannedActions.map((a) => a.lineNumber) : []);
      const left = report.breaks.filter((b) => !(b.bank && requested.has(b.bank.line)));
      if (left.length > 0) {
        throw new CommandFailure(`${left.length} break(s) left for a person`, { silent: out.json });
      }
    });
}

/**
 * `--apply`: the run's planned settlements and reversals become one request for a second person
 * (docs/reconciliation.md, "Planning and applying"); none when the statement settles and reverses nothing.
 */
async function requestApplication(
  context: CommandContext,
  report: StatementRunReport,
  fileName: string,
  maker: Person,
): Promise<ApprovalRequestView | undefined> {
  const plan = await planStatementApplication({ db: context.db() }, { report, fileName });
  if (plan.kind === 'nothing-to-apply') return undefined;
  const outcome = await requestApproval(
    { db: context.db(), approvals: context.approvals },
    { planned: plan.planned, maker, reason: `statement ${fileName}, run ${report.runId}` },
  );
  if (outcome.kind === 'not-allowed') throw new CommandFailure(`${outcome.why}; nothing requested`);
  return outcome.request;
}

/**
 * The statement file's bytes, refused whole (exit 2) when it is larger than STATEMENT_MAX_BYTES: its size is
 * checked before anything is read, so an oversized file is never held in memory, stored or applied.
 */
async function readStatementFile(path: string, maxBytes: number): Promise<Buffer> {
  const tooLarge = (size: number) =>
    new UsageError(
      `${path} is ${size} bytes, more than the ${maxBytes} a statement may have (STATEMENT_MAX_BYTES); nothing applied`,
    );
  try {
    const { size } = await stat(path);
    if (size > maxBytes) throw tooLarge(size);
    const bytes = await readFile(path);
    if (bytes.length > maxBytes) throw tooLarge(bytes.length); // it grew while being read
    return bytes;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read --file ${path}: ${(error as Error).message}`);
  }
}
