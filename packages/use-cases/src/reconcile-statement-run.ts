import { createHash } from 'node:crypto';
import { DEFAULT_BANK_NAME } from '@payout/config';
import {
  holdStatementRunForApproval,
  lastStatementSequence,
  recordStatementIdentity,
  statementRunsWaiting,
  type ApprovalRequestView,
  type PrismaClient,
} from '@payout/db';
import { formatRupees, may, type Paise } from '@payout/domain';
import {
  notVouchedFor,
  oneAccountOf,
  parseBankProfile,
  readStatementRun,
  sameAccount,
  type BankCsvProfile,
  type SetAside,
  type StatementSource,
  type StatementSummary,
  type StatementText,
} from '@payout/recon';
import type { ApprovalDeps } from './approvals/money-action.js';
import { requestApproval } from './approvals/approval-flow.js';
import { approvalJson } from './approvals/approval-json.js';
import { actorOf, type Person } from './approvals/person.js';
import { planStatementApplication } from './apply-statement.js';
import { matchInDatabase, type MatchedStatement, type StatementProgress } from './statement-matching.js';
import {
  indiaDate,
  storeStatementRun,
  type StatementRunPreview,
  type StatementRunReport,
} from './statement-reconciliation.js';

/**
 * Statement reconciliation as a person applies it (docs/reconciliation.md, "Planning and applying", "When a
 * run takes effect"): the files accepted whole, matched against the books, and the run stored. When it asks a
 * second person for anything — a settlement, a reversal, closing an earlier break of missing money — all it
 * found waits for one `statement.apply` request another approver approves: its breaks, statement number and
 * discrepancies count, and the earlier breaks close, only then. Otherwise it takes effect as it is stored.
 * The admin listener's `POST /admin/statements` is its door; `recon statement --apply` posts there.
 */

/** How statements are held to the bank's word where this runs. */
export interface StatementSettings {
  /** STATEMENT_SETTLEMENT_ACCOUNT: the account every statement must be for (the one bank's, without BANKS). */
  settlementAccount?: string;
  /**
   * The sponsor banks (`config.banks`): a statement is matched against its bank's payouts only, the bank
   * whose settlement account it is for (docs/reconciliation.md, "Several banks"). Absent: one bank, `primary`,
   * whose settlement account is `settlementAccount`.
   */
  banks?: readonly StatementBank[];
  /** NODE_ENV is production: only a bank's statement (account, balances, number) is applied, against a set account. */
  production: boolean;
}

/** A bank as statements know it: its alias and the settlement account its statements are for. */
export interface StatementBank {
  name: string;
  settlementAccount?: string | undefined;
}

export interface ReconcileStatementRunInput {
  /** The run's files, in its order (a range of days already resolved to its files). */
  files: StatementText[];
  /** The statement's bank, when the caller names it; otherwise told from the statement's account. */
  bank?: string;
  /** A bank CSV export's profile (as its JSON file holds it, checked here), when the files are one. */
  profile?: BankCsvProfile | Record<string, unknown>;
  by: Person;
}

export type ReconcileStatementRunOutcome =
  | {
      kind: 'reconciled';
      report: StatementRunReport;
      file: StatementFileJson;
      /**
       * The request for a second person, which the run's effects wait for; none when the run asks nothing
       * of one (it settles, reverses and closes nothing) and so took effect as it was stored.
       */
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
  let profile: BankCsvProfile | undefined;
  if (input.profile !== undefined) {
    const parsed = parseBankProfile(JSON.stringify(input.profile));
    if (!parsed.ok) return { kind: 'refused-file', why: `${parsed.reason}; nothing applied` };
    profile = parsed.profile;
  }
  const read = await readStatementSources(deps.db, deps.statements, {
    sources: input.files.map(textSource),
    ...(profile && { profile }),
    ...(input.bank !== undefined && { bank: input.bank }),
  });
  if (read.kind !== 'read') return read;

  const fileName = statementRunName(input.files);
  const report = await storeStatementRun(
    deps.db,
    read.matched,
    {
      fileDigest: read.fileDigest,
      fileName,
      actor: actorOf(input.by),
      valueDates: read.valueDates,
      recordDiscrepancies: true,
    },
    'four-eyes',
  );
  if (read.identity) await recordStatementIdentity(deps.db, report.runId, read.identity);
  const plan = await planStatementApplication(
    { db: deps.db },
    { report, fileName, discrepancies: read.matched.discrepancies },
  );
  let approval: ApprovalRequestView | undefined;
  if (plan.kind === 'planned') {
    const requested = await requestApproval(deps, {
      planned: plan.planned,
      maker: input.by,
      reason: `statement ${fileName}, run ${report.runId}`,
    });
    // A run whose request was never made waits for nothing: what it found never counts.
    if (requested.kind === 'not-allowed') return requested;
    approval = requested.request;
    await holdStatementRunForApproval(deps.db, report.runId, approval.id);
  }
  return { kind: 'reconciled', report, file: read.file, fileName, ...(approval && { approval }) };
}

export interface ReadStatementInput {
  /** The run's files, in its order, each read as a stream. */
  sources: StatementSource[];
  profile?: BankCsvProfile;
  /** The statement's bank, when the caller names it (`--bank`); otherwise told from the statement's account. */
  bank?: string;
  /** Today in India, YYYY-MM-DD (default: now). */
  today?: string;
  onProgress?: (progress: StatementProgress) => void;
}

export type ReadStatementOutcome =
  | {
      kind: 'read';
      matched: MatchedStatement;
      file: StatementFileJson;
      valueDates: string[];
      /** SHA-256 of the file; of several, of their digests in order. */
      fileDigest: string;
      /** The one account the run's statements are for, and its last statement number. */
      identity?: { account: string; sequence: number | null };
      /** The bank whose payouts the statement was matched against. */
      bank: string;
    }
  | { kind: 'refused-file'; why: string }
  | { kind: 'not-configured'; why: string };

/**
 * A statement run read and matched, storing nothing (docs/reconciliation.md): the files read as streams and
 * checked whole (layout, balances, the settlement account of its bank, statement numbers running on from the
 * last stored one and from file to file), their lines matched in the database against the payouts of their
 * bank and dates. A file that fails a check refuses the run; so does, in production, a file no bank vouches
 * for, or a bank without a settlement account.
 */
export async function readStatementSources(
  db: PrismaClient,
  settings: StatementSettings,
  input: ReadStatementInput,
): Promise<ReadStatementOutcome> {
  const banks: readonly StatementBank[] = settings.banks ?? [
    {
      name: DEFAULT_BANK_NAME,
      ...(settings.settlementAccount !== undefined && { settlementAccount: settings.settlementAccount }),
    },
  ];
  const chosen = chooseBank(banks, input.bank, settings.production);
  if (chosen.kind !== 'chosen') return chosen;
  const names = input.sources.map((s) => s.name);
  const digests: string[] = [];
  const sources = input.sources.map((source, index) => digesting(source, (digest) => (digests[index] = digest)));
  let bank = chosen.bank;
  // The account whose statement numbers were checked, once the file told it.
  let checkedAccount: string | undefined;
  const setAside: SetAside[] = [];
  const matched = await matchInDatabase(
    db,
    {
      // With one bank every payout is its own, as before there were several (payouts never sent included).
      bank: () => (banks.length === 1 ? null : bank!.name),
      today: input.today ?? indiaDate(new Date()),
      ...(input.onProgress && { onProgress: input.onProgress }),
    },
    async (sink) => {
      const read = await readStatementRun(
        sources,
        {
          ...(input.profile && { profile: input.profile }),
          settlementAccount: (statements) => {
            if (bank) {
              return { ok: true, ...(bank.settlementAccount !== undefined && { account: bank.settlementAccount }) };
            }
            const found = bankOfStatement(banks, statements);
            if (!found.ok) return found;
            bank = found.bank;
            return { ok: true, account: found.bank.settlementAccount };
          },
          lastSequence: (account) => {
            checkedAccount = account;
            return lastStatementSequence(db, account);
          },
        },
        { line: (line) => sink.line(line), setAside: (item) => setAside.push(item), drain: () => sink.drain() },
      );
      if (!read.ok) return { ok: false, reason: refusal(names, read.reason) };
      const unvouched = settings.production ? notVouchedFor(read.statements) : undefined;
      if (unvouched !== undefined) return { ok: false, reason: refusal(names, unvouched) };
      return read;
    },
  );
  if (!matched.ok)
    return { kind: 'refused-file', why: await withWaitingStatements(db, checkedAccount, matched.reason) };
  const account = oneAccountOf(matched.statements);
  const numbers = matched.statements.map((s) => s.sequence).filter((n): n is number => n !== null);
  return {
    kind: 'read',
    matched: matched.matched,
    file: statementFileJson({ files: matched.files, setAside, notes: matched.notes }),
    valueDates: matched.valueDates,
    fileDigest: digestOfRun(digests),
    ...(account !== undefined && { identity: { account, sequence: numbers.length ? Math.max(...numbers) : null } }),
    bank: bank!.name,
  };
}

/**
 * The bank a statement is matched against when it can be told before reading (docs/reconciliation.md,
 * "Several banks"): the one named, or the only one; with several and none named, the statement's account
 * tells it ({@link bankOfStatement}). In production the bank must have its settlement account set.
 */
function chooseBank(
  banks: readonly StatementBank[],
  named: string | undefined,
  production: boolean,
): { kind: 'chosen'; bank: StatementBank | undefined } | { kind: 'refused-file' | 'not-configured'; why: string } {
  let bank: StatementBank | undefined;
  if (named !== undefined) {
    bank = banks.find((b) => b.name === named);
    if (!bank) {
      return {
        kind: 'refused-file',
        why: `no bank is called ${named} (the banks are ${banks.map((b) => b.name).join(', ')}); nothing applied`,
      };
    }
  } else if (banks.length === 1) bank = banks[0];
  const unset = bank ? bank.settlementAccount === undefined : banks.every((b) => b.settlementAccount === undefined);
  // Without the account, a statement of any account would be matched against our books (docs/operations.md).
  if (production && unset) {
    return {
      kind: 'not-configured',
      why:
        banks.length === 1
          ? 'STATEMENT_SETTLEMENT_ACCOUNT is not set: in production a statement is applied only when it is held to the settlement account; set it in the deployment settings'
          : `${bank ? `bank ${bank.name} has` : 'no bank has'} no settlementAccount in BANKS: in production a statement is applied only when it is held to its bank's settlement account; set it in the deployment settings`,
    };
  }
  return { kind: 'chosen', bank };
}

/**
 * A file refused for a gap in its account's statement numbers, when the missing numbers were read by runs
 * still waiting for a second person: their numbers count once approved (docs/reconciliation.md, "When a run
 * takes effect"), so the refusal says which to decide first.
 */
async function withWaitingStatements(db: PrismaClient, account: string | undefined, reason: string): Promise<string> {
  if (account === undefined || !/missing statements? /.test(reason)) return reason;
  const waiting = (await statementRunsWaiting(db, account)).filter((r) => r.sequence !== null);
  if (waiting.length === 0) return reason;
  const runs = waiting.map((r) => `statement ${r.sequence} (run ${r.runId}) waits for approval ${r.approvalRequestId}`);
  const why = `${runs.join(', ')}: a statement counts once its run is approved`;
  const end = '; nothing applied';
  return reason.endsWith(end) ? `${reason.slice(0, -end.length)}; ${why}${end}` : `${reason}; ${why}`;
}

/** With several banks and none named: the bank whose settlement account the statement is for. */
function bankOfStatement(
  banks: readonly StatementBank[],
  statements: readonly { account: string | null }[],
): { ok: true; bank: StatementBank & { settlementAccount: string } } | { ok: false; reason: string } {
  const account = oneAccountOf(statements);
  if (account === undefined) {
    return {
      ok: false,
      reason: `the statement does not say which account it is for, and there are several banks (${banks.map((b) => b.name).join(', ')}): name its bank with --bank`,
    };
  }
  const bank = banks.find((b) => b.settlementAccount !== undefined && sameAccount(account, b.settlementAccount));
  if (!bank) {
    const accounts = banks.flatMap((b) => (b.settlementAccount ? [`${b.name} ${b.settlementAccount}`] : []));
    return {
      ok: false,
      reason: `the statement is for account ${account}, not the settlement account of any bank (${accounts.join(', ') || 'none is set'})`,
    };
  }
  return { ok: true, bank: bank as StatementBank & { settlementAccount: string } };
}

/** A file's text already in memory, read as a stream of one piece. */
export function textSource(file: StatementText): StatementSource {
  return {
    name: file.name,
    // eslint-disable-next-line @typescript-eslint/require-await -- an async iterable of one piece already read
    chunks: async function* () {
      yield file.text;
    },
  };
}

/** The source, hashing its text as it is read: the digest is handed over once the whole file was read. */
function digesting(source: StatementSource, onDigest: (hex: string) => void): StatementSource {
  return {
    name: source.name,
    chunks: async function* () {
      const hash = createHash('sha256');
      for await (const chunk of source.chunks()) {
        hash.update(chunk, 'utf8');
        yield chunk;
      }
      onDigest(hash.digest('hex'));
    },
  };
}

function refusal(names: readonly string[], reason: string): string {
  return `${names.length === 1 ? `${names[0]}: ` : ''}${reason}; nothing applied`;
}

/** A run's name in `statement_runs`: its files' names in order, joined with ", ". */
export function statementRunName(files: readonly { name: string }[]): string {
  return files.map((f) => f.name.slice(f.name.lastIndexOf('/') + 1)).join(', ');
}

/**
 * SHA-256 of the file; of several, of their digests in order, so the same days read again are listed as
 * earlier runs of the same files (docs/reconciliation.md, "Several days in one run").
 */
export function statementDigest(files: readonly StatementText[]): string {
  return digestOfRun(files.map((f) => createHash('sha256').update(f.text, 'utf8').digest('hex')));
}

/** The run's digest from its files' digests, in order: the file's own for a run of one. */
function digestOfRun(digests: readonly string[]): string {
  return digests.length === 1 ? digests[0]! : createHash('sha256').update(digests.join('\n')).digest('hex');
}

type Row = Record<string, string | number | boolean | null>;

/** What a report says about the files themselves: their statements, the entries set aside and what was not checked. */
export interface StatementFileJson {
  statements: Row[];
  setAside: Row[];
  notes: string[];
}

export function statementFileJson(statement: {
  files: readonly { name: string; statements: readonly StatementSummary[] }[];
  setAside: readonly SetAside[];
  notes: string[];
}): StatementFileJson {
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
        entries: s.entries,
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
