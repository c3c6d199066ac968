import { createConsoleUser, createPrismaClient } from '@payout/db';
import { hashPassword } from '@payout/domain';

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

/**
 * `pnpm cli recon statement --apply --json` as the maker, then — when it asked for settlements or
 * reversals — `approval approve` as the approver: the exit status of the run, and its report as the
 * statement run stands after the approval (what was applied, what is left).
 */
export async function statementApplied(
  run: (...argv: string[]) => Promise<CliResult>,
  ...argv: string[]
): Promise<CliResult & { approval?: Record<string, unknown> }> {
  const { maker, approver } = await fourEyes();
  const asked = await run(...argv, '--apply', '--operator', maker, '--json');
  if (!asked.stdout) return asked;
  const report = JSON.parse(asked.stdout) as Record<string, unknown> & { runId: string; approvalId?: string };
  if (report.approvalId === undefined) return asked;
  const approved = await run('approval', 'approve', '--id', report.approvalId, '--operator', approver, '--json');
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
