import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { userInfo } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import {
  lastStatementSequence,
  reconcileStatement,
  recordStatementIdentity,
  type ApprovalRequestView,
  type StatementRunReport,
} from '@payout/db';
import { formatRupees } from '@payout/domain';
import { approvalJson, planStatementApplication, requestApproval, type Person } from '@payout/use-cases';
import {
  acceptStatementFile,
  detectLayout,
  parseBankProfile,
  type BankCsvProfile,
  type SetAside,
  type StatementLayout,
} from '@payout/recon';
import type { CommandContext } from '../context.js';
import { personNamed } from '../console-person.js';
import { show } from '../output.js';
import { CommandFailure, UsageError } from '../usage-error.js';

export function registerReconCommands(program: Command, context: () => CommandContext): void {
  const recon = program
    .command('recon')
    .description("match the bank's records against our books (docs/reconciliation.md)");

  recon
    .command('statement')
    .description(
      'match a bank statement (MT940, camt.053, a bank CSV export with its --profile, or the canonical CSV ' +
        'reference,utr,amount,type,value_date; docs/reconciliation-formats.md) against every payout of its dates; ' +
        'exit 0 when nothing is left unresolved, 1 when breaks remain, 2 for a malformed, unbalanced or oversized file',
    )
    .requiredOption('--file <path>', 'the statement file')
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
    .action(async (opts: StatementCommandOptions) => {
      const context_ = context();
      const { db, out, statementMaxBytes, settlementAccount } = context_;
      const bytes = await readStatementFile(opts.file, statementMaxBytes);
      const statement = await acceptedStatement(bytes.toString('utf8'), opts, settlementAccount, (account) =>
        lastStatementSequence(db(), account),
      );
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
      const identity = identityOf(statement);
      if (identity) await recordStatementIdentity(db(), report.runId, identity);
      const approval = maker ? await requestApplication(context_, report, basename(opts.file), maker) : undefined;

      const file = fileJson(statement);
      const result = {
        ...report,
        ...file,
        ...(approval && { approvalId: approval.id, approval: approvalJson(approval) }),
      };
      show(out, result, [
        {
          title: `Statement ${basename(opts.file)} (${report.valueDates.join(', ') || 'no lines'}), run ${report.runId}`,
          rows: Object.entries(report.counts).map(([kind, count]) => ({ class: kind, count })),
        },
        { title: '\nThe file', rows: file.statements },
        ...(file.setAside.length
          ? [{ title: `\nSet aside, not payouts of ours: ${file.setAside.length}`, rows: file.setAside }]
          : []),
        ...(file.notes.length ? [{ title: '\nNot checked', rows: file.notes.map((note) => ({ note })) }] : []),
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

interface StatementCommandOptions {
  file: string;
  format?: keyof typeof LAYOUTS;
  profile?: string;
  apply?: boolean;
  operator?: string;
}

/** The `--format` names and the layout each is (docs/reconciliation-formats.md). */
const LAYOUTS = {
  mt940: 'mt940',
  camt053: 'camt.053',
  csv: 'canonical-csv',
  'bank-csv': 'bank-csv',
} as const satisfies Record<string, StatementLayout>;

type AcceptedStatement = Extract<ReturnType<typeof acceptStatementFile>, { ok: true }>;

/**
 * The file read in its layout and checked whole (docs/reconciliation-formats.md): a file in another layout
 * than `--format` says, or one that fails a check (balances, account, statement numbers), is refused whole
 * (exit 2) with the reason, before anything is stored.
 */
async function acceptedStatement(
  text: string,
  opts: Pick<StatementCommandOptions, 'file' | 'format' | 'profile'>,
  settlementAccount: string | undefined,
  lastStored: (account: string) => Promise<number | null>,
): Promise<AcceptedStatement> {
  const layout = detectLayout(text);
  if (opts.format !== undefined && LAYOUTS[opts.format] !== layout) {
    throw new UsageError(`${opts.file} reads as ${layout}, not ${opts.format}; nothing applied`);
  }
  const profile = opts.profile === undefined ? undefined : await bankProfile(opts.profile);
  const options = { ...(profile && { profile }), ...(settlementAccount !== undefined && { settlementAccount }) };
  const read = acceptStatementFile(text, options);
  if (!read.ok) throw new UsageError(`${opts.file}: ${read.reason}; nothing applied`);
  // The file says which account it is for: its statement numbers must follow the last one stored for it.
  const account = identityOf(read)?.account;
  const lastSequence = account === undefined ? null : await lastStored(account);
  if (lastSequence === null) return read;
  const accepted = acceptStatementFile(text, { ...options, lastSequence });
  if (!accepted.ok) throw new UsageError(`${opts.file}: ${accepted.reason}; nothing applied`);
  return accepted;
}

/** The one account a file's statements are for, and its last statement number; none for a file of several. */
function identityOf(statement: AcceptedStatement): { account: string; sequence: number | null } | undefined {
  const accounts = new Set(statement.statements.map((s) => s.account).filter((a): a is string => a !== null));
  if (accounts.size !== 1) return undefined;
  const numbers = statement.statements.map((s) => s.sequence).filter((n): n is number => n !== null);
  return { account: [...accounts][0]!, sequence: numbers.length ? Math.max(...numbers) : null };
}

// The profiles that ship with packages/recon, found from this file in src/ and in dist/ alike.
const SHIPPED_PROFILES = new URL('../../../recon/profiles/', import.meta.url);

/** `--profile`: a shipped profile by its name, or a profile file by its path. */
async function bankProfile(nameOrPath: string): Promise<BankCsvProfile> {
  const shipped = /^[a-z0-9][a-z0-9-]*$/i.test(nameOrPath);
  const path = shipped ? fileURLToPath(new URL(`${nameOrPath}.json`, SHIPPED_PROFILES)) : nameOrPath;
  let json: string;
  try {
    json = await readFile(path, 'utf8');
  } catch (error) {
    const what = shipped ? `no shipped profile "${nameOrPath}"` : `cannot read --profile ${nameOrPath}`;
    throw new UsageError(`${what}: ${(error as Error).message}`);
  }
  const parsed = parseBankProfile(json);
  if (!parsed.ok) throw new UsageError(`--profile ${nameOrPath}: ${parsed.reason}`);
  return parsed.profile;
}

/** What the report adds about the file itself: its statements, the entries set aside and what was not checked. */
function fileJson(statement: AcceptedStatement): {
  statements: Record<string, string | number | null>[];
  setAside: Record<string, string | number | null>[];
  notes: string[];
} {
  return {
    statements: statement.statements.map((s) => ({
      format: s.format,
      id: s.id,
      account: s.account,
      sequence: s.sequence,
      date: s.statementDate,
      opening_balance: s.openingBalancePaise === null ? null : formatRupees(s.openingBalancePaise),
      closing_balance: s.closingBalancePaise === null ? null : formatRupees(s.closingBalancePaise),
      entries: s.entries.length,
    })),
    setAside: statement.setAside.map(setAsideJson),
    notes: statement.notes,
  };
}

function setAsideJson({ entry, why }: SetAside): Record<string, string | number | null> {
  return {
    line: entry.lineNumber,
    class: entry.class,
    type: entry.type,
    amount: formatRupees(entry.amountPaise),
    value_date: entry.valueDate,
    bank_reference: entry.bankReference ?? null,
    narration: entry.narration,
    why,
  };
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
