import { AdminRefusal, createAdminClient, runCli } from '@payout/cli';
import { createConsoleUser, createPrismaClient } from '@payout/db';
import { hashPassword } from '@payout/domain';
import { personWithKey, type PersonWithKey } from './people.js';

/**
 * Two console users of this test process — one who asks for money actions, one who approves them — made
 * once, so a test can carry a money command through its second person (docs/operations.md, "Approvals").
 */
export interface FourEyes {
  maker: string;
  approver: string;
}

let made: Promise<FourEyes> | undefined;

export function fourEyes(): Promise<FourEyes> {
  made ??= (async () => {
    const names = { maker: `maker-${process.pid}`, approver: `approver-${process.pid}` };
    const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 });
    try {
      const passwordHash = await hashPassword('unused-password');
      await createConsoleUser(db, { username: names.maker, role: 'OPERATOR', passwordHash });
      await createConsoleUser(db, { username: names.approver, role: 'APPROVER', passwordHash });
    } finally {
      await db.$disconnect();
    }
    return names;
  })();
  return made;
}

/**
 * Runs a money command (`wallet credit`, `token rotate`, …) as the maker, then approves its request as
 * the approver, through `run` (a test's way of running `pnpm cli … --json`): the approval's JSON.
 */
export async function askedAndApproved(
  run: (...argv: string[]) => Promise<Record<string, unknown>>,
  ...argv: string[]
): Promise<Record<string, unknown>> {
  const { maker, approver } = await fourEyes();
  const asked = await run(...argv, '--operator', maker);
  const { approvalId } = asked as { approvalId?: string };
  if (approvalId === undefined) throw new Error(`${argv.join(' ')} made no request: ${JSON.stringify(asked)}`);
  return run('approval', 'approve', '--id', approvalId, '--operator', approver);
}

interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** The operator who applies statements and the approver who approves them, each with a personal API key. */
export interface StatementPeople {
  maker: PersonWithKey;
  approver: PersonWithKey;
}

let statementPeopleMade: Promise<StatementPeople> | undefined;

export function statementPeople(): Promise<StatementPeople> {
  statementPeopleMade ??= (async () => ({
    maker: await personWithKey('operator'),
    approver: await personWithKey('approver'),
  }))();
  return statementPeopleMade;
}

/** `pnpm cli …` in-process, as `person` (their own key) acting through the admin listener at `adminUrl`. */
export async function cliAs(adminUrl: string, person: PersonWithKey, ...argv: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, {
    openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
    openQueue: () => {
      throw new Error('recon statement needs no queue');
    },
    openAdmin: () => createAdminClient({ url: adminUrl, credential: person.key }),
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

/**
 * `pnpm cli recon statement --apply --json` as an operator with their own key, through the admin listener at
 * `adminUrl`, then — when it asked for settlements or reversals — the request approved there by an
 * approver with theirs: the exit
 * status of the run, and its report as the statement run stands after the approval (what was applied, what
 * is left).
 */
export async function statementApplied(
  adminUrl: string,
  ...argv: string[]
): Promise<CliResult & { approval?: Record<string, unknown> }> {
  const { maker, approver } = await statementPeople();
  const asked = await cliAs(adminUrl, maker, ...argv, '--apply', '--json');
  if (!asked.stdout) return asked;
  const report = JSON.parse(asked.stdout) as Record<string, unknown> & { runId: string; approvalId?: string };
  if (report.approvalId === undefined) return asked;
  let approval: Record<string, unknown>;
  try {
    approval = await createAdminClient({ url: adminUrl, credential: approver.key }).post(
      `/admin/approvals/${report.approvalId}/approve`,
      { note: 'statement checked' },
    );
  } catch (error) {
    if (error instanceof AdminRefusal) return { status: 1, stdout: '', stderr: error.message };
    throw error;
  }
  const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 });
  try {
    const stored = await db.statementRun.findUniqueOrThrow({
      where: { id: BigInt(report.runId) },
      select: { counts: true, breakList: true, applied: true },
    });
    const after = { ...report, counts: stored.counts, breaks: stored.breakList, applied: stored.applied };
    return { ...asked, stdout: JSON.stringify(after), approval: approval.approval as Record<string, unknown> };
  } finally {
    await db.$disconnect();
  }
}
