import { createHash } from 'node:crypto';
import {
  lastStatementSequence,
  recordStatementIdentity,
  type ApprovalRequestView,
  type PrismaClientOrTransaction,
} from '@payout/db';
import { formatRupees, may, type Paise } from '@payout/domain';
import {
  acceptStatementFiles,
  notVouchedFor,
  parseBankProfile,
  type BankCsvProfile,
  type SetAside,
  type StatementFiles,
  type StatementText,
} from '@payout/recon';
import type { ApprovalDeps } from './approvals/money-action.js';
import { requestApproval } from './approvals/approval-flow.js';
import { approvalJson } from './approvals/approval-json.js';
import { actorOf, type Person } from './approvals/person.js';
import { planStatementApplication } from './apply-statement.js';
import { reconcileStatement, type StatementRunPreview, type StatementRunReport } from './statement-reconciliation.js';

/**
 * Statement reconciliation as a person applies it (docs/reconciliation.md, "Planning and applying"): the
 * files accepted whole, matched against the books, the run stored with its breaks and discrepancies, and its
 * settlements and reversals planned as one `statement.apply` request another approver approves. The admin
 * listener's `POST /admin/statements` is its door; `recon statement --apply` posts there.
 */

export type AcceptedStatement = Extract<StatementFiles, { ok: true }>;

/** How statements are held to the bank's word where this runs. */
export interface StatementSettings {
  /** STATEMENT_SETTLEMENT_ACCOUNT: the account every statement must be for. */
  settlementAccount?: string;
  /** NODE_ENV is production: only a bank's statement (account, balances, number) is applied, against a set account. */
  production: boolean;
}

export interface ReconcileStatementRunInput {
  /** The run's files, in its order (a range of days already resolved to its files). */
  files: StatementText[];
  /** A bank CSV export's profile (as its JSON file holds it, checked here), when the files are one. */
  profile?: BankCsvProfile | Record<string, unknown>;
  by: Person;
}

export type ReconcileStatementRunOutcome =
  | {
      kind: 'reconciled';
      report: StatementRunReport;
      file: StatementFileJson;
      /** The request for a second person; none when the statement settles and reverses nothing. */
      approval?: ApprovalRequestView;
      fileName: string;
    }
  /** The files cannot be applied as they are (malformed, unbalanced, another account, a gap, no bank's word): nothing stored. */
  | { kind: 'refused-file'; why: string }
  /** This installation cannot apply statements as configured: nothing stored. */
  | { kind: 'not-configured'; why: string }
  | { kind: 'not-allowed'; why: string };

export async function reconcileStatementRun(
  deps: Pick<ApprovalDeps, 'db' | 'approvals'> & { statements: StatementSettings },
  input: ReconcileStatementRunInput,
): Promise<ReconcileStatementRunOutcome> {
  if (!may(input.by.role, 'request')) {
    return { kind: 'not-allowed', why: `${input.by.username} is ${input.by.role.toLowerCase()}: support reads only` };
  }
  const { settlementAccount, production } = deps.statements;
  // Without the account, a statement of any account would be matched against our books (docs/operations.md).
  if (production && settlementAccount === undefined) {
    return {
      kind: 'not-configured',
      why: 'STATEMENT_SETTLEMENT_ACCOUNT is not set: in production a statement is applied only when it is held to the settlement account; set it in the deployment settings',
    };
  }
  let profile: BankCsvProfile | undefined;
  if (input.profile !== undefined) {
    const parsed = parseBankProfile(JSON.stringify(input.profile));
    if (!parsed.ok) return { kind: 'refused-file', why: `${parsed.reason}; nothing applied` };
    profile = parsed.profile;
  }
  const accepted = await acceptStatement(deps.db, { files: input.files, profile }, settlementAccount);
  if (!accepted.ok) return { kind: 'refused-file', why: accepted.reason };
  const statement = accepted.statement;
  const unvouched = production ? notVouchedFor(statement.statements) : undefined;
  if (unvouched !== undefined) return { kind: 'refused-file', why: refusal(input.files, unvouched) };

  const fileName = statementRunName(input.files);
  const report = await reconcileStatement(deps.db, {
    lines: statement.lines,
    valueDates: statement.valueDates,
    fileDigest: statementDigest(input.files),
    fileName,
    actor: actorOf(input.by),
    recordDiscrepancies: true,
  });
  const identity = identityOf(statement);
  if (identity) await recordStatementIdentity(deps.db, report.runId, identity);
  const plan = await planStatementApplication({ db: deps.db }, { report, fileName });
  let approval: ApprovalRequestView | undefined;
  if (plan.kind === 'planned') {
    const requested = await requestApproval(deps, {
      planned: plan.planned,
      maker: input.by,
      reason: `statement ${fileName}, run ${report.runId}`,
    });
    if (requested.kind === 'not-allowed') return requested;
    approval = requested.request;
  }
  return { kind: 'reconciled', report, file: statementFileJson(statement), fileName, ...(approval && { approval }) };
}

/**
 * The files checked whole (docs/reconciliation-formats.md): a file that fails a check (balances, account,
 * statement numbers running on from the last stored one and from file to file) refuses the run. A read
 * without `--apply` checks the same way.
 */
export async function acceptStatement(
  db: PrismaClientOrTransaction,
  input: { files: StatementText[]; profile?: BankCsvProfile | undefined },
  settlementAccount: string | undefined,
): Promise<{ ok: true; statement: AcceptedStatement } | { ok: false; reason: string }> {
  const options = {
    ...(input.profile && { profile: input.profile }),
    ...(settlementAccount !== undefined && { settlementAccount }),
  };
  const read = acceptStatementFiles(input.files, options);
  if (!read.ok) return { ok: false, reason: refusal(input.files, read.reason) };
  // The files say which account they are for: their statement numbers must follow the last one stored for it.
  const account = identityOf(read)?.account;
  const lastSequence = account === undefined ? null : await lastStatementSequence(db, account);
  if (lastSequence === null) return { ok: true, statement: read };
  const accepted = acceptStatementFiles(input.files, { ...options, lastSequence });
  if (!accepted.ok) return { ok: false, reason: refusal(input.files, accepted.reason) };
  return { ok: true, statement: accepted };
}

function refusal(files: readonly StatementText[], reason: string): string {
  return `${files.length === 1 ? `${files[0]!.name}: ` : ''}${reason}; nothing applied`;
}

/** The one account a run's statements are for, and its last statement number; none for several accounts. */
export function identityOf(statement: AcceptedStatement): { account: string; sequence: number | null } | undefined {
  const accounts = new Set(statement.statements.map((s) => s.account).filter((a): a is string => a !== null));
  if (accounts.size !== 1) return undefined;
  const numbers = statement.statements.map((s) => s.sequence).filter((n): n is number => n !== null);
  return { account: [...accounts][0]!, sequence: numbers.length ? Math.max(...numbers) : null };
}

/** A run's name in `statement_runs`: its files' names in order, joined with ", ". */
export function statementRunName(files: readonly StatementText[]): string {
  return files.map((f) => f.name.slice(f.name.lastIndexOf('/') + 1)).join(', ');
}

/**
 * SHA-256 of the file; of several, of their digests in order, so the same days read again are listed as
 * earlier runs of the same files (docs/reconciliation.md, "Several days in one run").
 */
export function statementDigest(files: readonly StatementText[]): string {
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const digests = files.map((f) => sha256(Buffer.from(f.text, 'utf8')));
  return digests.length === 1 ? digests[0]! : sha256(Buffer.from(digests.join('\n')));
}

type Row = Record<string, string | number | boolean | null>;

/** What a report says about the files themselves: their statements, the entries set aside and what was not checked. */
export interface StatementFileJson {
  statements: Row[];
  setAside: Row[];
  notes: string[];
}

export function statementFileJson(statement: AcceptedStatement): StatementFileJson {
  const several = statement.files.length > 1;
  return {
    statements: statement.files.flatMap((file, index) =>
      file.statements.map((s) => ({
        ...(several && { file: index + 1, name: file.name }),
        format: s.format,
        id: s.id,
        account: s.account,
        sequence: s.sequence,
        date: s.statementDate,
        opening_balance: rupees(s.openingBalancePaise),
        closing_balance: rupees(s.closingBalancePaise),
        entries: s.entries.length,
      })),
    ),
    setAside: statement.setAside.map(setAsideJson),
    notes: statement.notes,
  };
}

function setAsideJson({ entry, file, why }: SetAside): Row {
  return {
    ...(file !== undefined && { file }),
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

const rupees = (paise: Paise | null) => (paise === null ? null : formatRupees(paise));

/**
 * A run as `recon statement --json` prints it and `POST /admin/statements` answers it: the report, the files,
 * and the request `--apply` made, bigints as decimal text.
 */
export function statementRunJson(
  report: StatementRunReport | StatementRunPreview,
  file: StatementFileJson,
  approval?: ApprovalRequestView,
): Record<string, unknown> {
  const result = { ...report, ...file, ...(approval && { approvalId: approval.id, approval: approvalJson(approval) }) };
  return JSON.parse(
    JSON.stringify(result, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)),
  ) as Record<string, unknown>;
}
