import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPrismaClient } from '@payout/db';
import { createAdminClient, runCli, type RunOptions } from '@payout/cli';
import { freshSecondFactorCode, ownerOfCredential, personWithKey } from './people.js';

/**
 * Two console users of this test process — one who asks for money actions, one who approves them — each
 * with a personal API key of their own, made once, so a test can carry a money command through its second
 * person (docs/operations.md, "Approvals" and "Security model").
 */
export interface FourEyes {
  /** The maker's username (an operator). */
  maker: string;
  makerKey: string;
  /** The approver's username. */
  approver: string;
  approverKey: string;
}

let made: Promise<FourEyes> | undefined;

export function fourEyes(): Promise<FourEyes> {
  made ??= (async () => {
    const maker = await personWithKey('operator');
    const approver = await personWithKey('approver');
    return { maker: maker.username, makerKey: maker.key, approver: approver.username, approverKey: approver.key };
  })();
  return made;
}

/** A way to run `pnpm cli … --json` as the person whose credential is given: its JSON answer. */
export type CliAs = (credential: string, ...argv: string[]) => Promise<Record<string, unknown>>;

/** What one run of the CLI printed, and its exit status. */
export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in this process against this run's database, as the person whose credential is sent to
 * the admin listener at `adminUrl` (`credential` undefined: nobody is signed in). `options` adds settings
 * (the queue, statement limits) for the commands that need them. The person sits at a terminal: asked for a
 * code of their second factor (approving), they type a fresh one; asked for anything else, the run fails.
 */
export async function runCliAs(
  adminUrl: string,
  credential: string | undefined,
  argv: string[],
  options: Partial<RunOptions> = {},
): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, {
    openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
    openQueue: () => {
      throw new Error('these commands do not use the queue');
    },
    openAdmin: () => createAdminClient({ url: adminUrl, ...(credential !== undefined && { credential }) }),
    signIn: personAtTerminal(adminUrl, credential),
    ...options,
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

/**
 * The person a CLI run acts for, at a terminal: asked for a code of their second factor (approving), they
 * type a fresh one of theirs; asked for anything else, the run fails.
 */
export function personAtTerminal(adminUrl: string, credential: string | undefined): RunOptions['signIn'] & object {
  return {
    adminUrl,
    credentialFile: path.join(tmpdir(), `payout-cli-test-${process.pid}`, 'credential.json'),
    readPassword: async (prompt) => {
      const owner = credential === undefined ? undefined : await ownerOfCredential(credential);
      if (!owner || !/code/i.test(prompt)) throw new Error(`the person at this test's terminal was asked: ${prompt}`);
      return freshSecondFactorCode(owner);
    },
    readStdin: () => Promise.resolve(''),
    terminal: true,
  };
}

/** {@link CliAs} against the admin listener at `adminUrl`: a run that fails throws with what it said. */
export function cliJsonAs(adminUrl: string, options: Partial<RunOptions> = {}): CliAs {
  return async (credential, ...argv) => {
    const run = await runCliAs(adminUrl, credential, [...argv, '--json'], options);
    if (run.status !== 0) throw new Error(`pnpm cli ${argv.join(' ')} exited ${run.status}: ${run.stderr}`);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  };
}

/**
 * Runs a money command (`wallet credit`, `token rotate`, …) with the maker's key, then approves its request
 * with the approver's key, through `run` (a test's way of running `pnpm cli … --json` as a person, such as
 * {@link cliJsonAs}): the approval's JSON.
 */
export async function askedAndApproved(run: CliAs, ...argv: string[]): Promise<Record<string, unknown>> {
  const { makerKey, approverKey } = await fourEyes();
  const asked = await run(makerKey, ...argv);
  const { approvalId } = asked as { approvalId?: string };
  if (approvalId === undefined) throw new Error(`${argv.join(' ')} made no request: ${JSON.stringify(asked)}`);
  return run(approverKey, 'approval', 'approve', '--id', approvalId);
}

/** The operator who applies statements and the approver who approves them: {@link fourEyes}, each with their key. */
export interface StatementPeople {
  maker: { username: string; key: string };
  approver: { username: string; key: string };
}

/**
 * The people of {@link statementApplied}. A personal key works on every admin listener of this run's
 * database, so `adminUrl` picks no one; it is taken so a test names the listener it means.
 */
export async function statementPeople(_adminUrl?: string): Promise<StatementPeople> {
  const { maker, makerKey, approver, approverKey } = await fourEyes();
  return { maker: { username: maker, key: makerKey }, approver: { username: approver, key: approverKey } };
}

/** `pnpm cli …` in-process, as `person` (their key) acting through the admin listener at `adminUrl`. */
export function cliAs(adminUrl: string, person: { key: string }, ...argv: string[]): Promise<CliResult> {
  return runCliAs(adminUrl, person.key, argv);
}

/**
 * `pnpm cli recon statement --apply --json` with the maker's key, through the admin listener at `adminUrl`,
 * then — when it asked for settlements or reversals — `approval approve` with the approver's key: the exit
 * status of the run, and its report as the statement run stands after the approval (what was applied, what
 * is left).
 */
export async function statementApplied(
  adminUrl: string | ((...argv: string[]) => Promise<CliResult>),
  ...argv: string[]
): Promise<CliResult & { approval?: Record<string, unknown> }> {
  // A test's own way of running the CLI holds no one's credential: the run and its approval need the listener.
  if (typeof adminUrl !== 'string') throw new Error('statementApplied needs the admin listener’s URL');
  const { makerKey, approverKey } = await fourEyes();
  const asked = await runCliAs(adminUrl, makerKey, [...argv, '--apply', '--json']);
  if (!asked.stdout) return asked;
  const report = JSON.parse(asked.stdout) as Record<string, unknown> & { runId: string; approvalId?: string };
  if (report.approvalId === undefined) return asked;
  const approved = await runCliAs(adminUrl, approverKey, [
    'approval',
    'approve',
    '--id',
    report.approvalId,
    '--note',
    'statement checked',
    '--json',
  ]);
  if (approved.status !== 0) return { ...approved, status: approved.status };
  const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 });
  try {
    const stored = await db.statementRun.findUniqueOrThrow({
      where: { id: BigInt(report.runId) },
      select: { counts: true, breakList: true, applied: true },
    });
    const after = { ...report, counts: stored.counts, breaks: stored.breakList, applied: stored.applied };
    return {
      ...asked,
      stdout: JSON.stringify(after),
      approval: JSON.parse(approved.stdout) as Record<string, unknown>,
    };
  } finally {
    await db.$disconnect();
  }
}
