import { AdminRefusal, runCli, type AdminClient } from '@payout/cli';
import { createConsoleUser, createPrismaClient } from '@payout/db';
import { hashPassword } from '@payout/domain';
import { signedInPerson, type ConsolePerson } from './console.js';

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
 * The admin listener as a signed-in console user reaches it from a script: their session cookie and its CSRF
 * token, which the admin JSON API takes as it takes a personal credential (docs/operations.md, "Security model").
 */
export function consoleAdminClient(url: string, person: ConsolePerson): AdminClient {
  async function send<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        Cookie: person.cookie,
        'X-CSRF-Token': person.csrf,
        Accept: 'application/json',
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    if (res.ok && parsed) return parsed as T;
    const message = typeof parsed?.message === 'string' ? parsed.message : `HTTP ${res.status}`;
    throw new AdminRefusal(message, res.status, parsed);
  }
  return { url, post: (path, body) => send('POST', path, body ?? {}), get: (path) => send('GET', path) };
}

/** The operator who applies statements and the approver who approves them, signed in to one admin listener. */
export interface StatementPeople {
  maker: ConsolePerson;
  approver: ConsolePerson;
}

const statementPeopleOf = new Map<string, Promise<StatementPeople>>();

export function statementPeople(adminUrl: string): Promise<StatementPeople> {
  let people = statementPeopleOf.get(adminUrl);
  if (!people) {
    people = (async () => ({
      maker: await signedInPerson(adminUrl, 'operator'),
      approver: await signedInPerson(adminUrl, 'approver'),
    }))();
    statementPeopleOf.set(adminUrl, people);
  }
  return people;
}

/** `pnpm cli …` in-process, as `person` acting through the admin listener at `adminUrl`. */
export async function cliAs(adminUrl: string, person: ConsolePerson, ...argv: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, {
    openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
    openQueue: () => {
      throw new Error('recon statement needs no queue');
    },
    openAdmin: () => consoleAdminClient(adminUrl, person),
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

/**
 * `pnpm cli recon statement --apply --json` as an operator, through the admin listener at `adminUrl`, then
 * — when it asked for settlements or reversals — the request approved by an approver there: the exit
 * status of the run, and its report as the statement run stands after the approval (what was applied, what
 * is left).
 */
export async function statementApplied(
  adminUrl: string,
  ...argv: string[]
): Promise<CliResult & { approval?: Record<string, unknown> }> {
  const { maker, approver } = await statementPeople(adminUrl);
  const asked = await cliAs(adminUrl, maker, ...argv, '--apply', '--json');
  if (!asked.stdout) return asked;
  const report = JSON.parse(asked.stdout) as Record<string, unknown> & { runId: string; approvalId?: string };
  if (report.approvalId === undefined) return asked;
  let approval: Record<string, unknown>;
  try {
    approval = await consoleAdminClient(adminUrl, approver).post(`/admin/approvals/${report.approvalId}/approve`, {
      note: 'statement checked',
    });
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
