import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient, EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from '@payout/cli';
import { createPrismaClient, findConsoleUser, type PrismaClient } from '@payout/db';
import { hashPassword } from '@payout/domain';
import { adminOf, call, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { bearer, currentCode, personWithKey, type PersonWithKey } from '../support/people.js';

// The CLI acts as the person whose own credential it holds (docs/operations.md, "Security model"): `login`
// (password and a code of the second factor) keeps a short-lived sign-in in a file only its owner reads;
// people changes are requests sent to the admin listener. A new installation's first approver:
// test/security/new-installation.test.ts.

const api = useApi();
let db: PrismaClient;
let folder: string;
let credentialFile: string;

beforeAll(async () => {
  db = testPrisma();
  folder = await mkdtemp(path.join(tmpdir(), 'payout-cli-login-'));
  credentialFile = path.join(folder, 'config', 'credential.json');
});
afterAll(async () => {
  await db.$disconnect();
  await rm(folder, { recursive: true, force: true });
});

/**
 * Runs the CLI as `pnpm cli` does: with `credential` (a key) when given, else the sign-in kept in the file;
 * `stdin` is what a pipe would give `--password-stdin`.
 */
async function cli(argv: string[], options: { credential?: string; stdin?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const credential = options.credential ?? (await savedToken());
  const status = await runCli(argv, {
    openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
    openQueue: () => {
      throw new Error('no command here uses the queue');
    },
    openAdmin: () => createAdminClient({ url: api.current.adminUrl, ...(credential && { credential }) }),
    signIn: {
      adminUrl: api.current.adminUrl,
      credentialFile,
      readPassword: () => Promise.reject(new Error('no terminal in tests')),
      readStdin: () => Promise.resolve(options.stdin ?? ''),
      terminal: false,
    },
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}
/** The token `login` kept, if the file is there. */
async function savedToken(): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(credentialFile, 'utf8')) as { token: string }).token;
  } catch {
    return undefined;
  }
}
const json = (result: { stdout: string }) => JSON.parse(result.stdout) as Record<string, unknown>;

describe('people through the CLI', () => {
  let approver: PersonWithKey;
  let operator: PersonWithKey;
  beforeAll(async () => {
    approver = await personWithKey('approver');
    operator = await personWithKey('operator');
  });

  it('when a person logs in, then the sign-in is kept in a file only they can read, whoami names them, and logout ends it', async () => {
    const person = await personWithKey('support');
    const password = 'a-password-of-their-own';
    await db.consoleUser.update({
      where: { username: person.username },
      data: { passwordHash: await hashPassword(password) },
    });

    const wrong = await cli(['login', '--name', person.username, '--password-stdin'], { stdin: 'not-it\n' });
    expect(wrong.status).toBe(EXIT_FAILED);
    expect(wrong.stderr).toContain('Wrong username or password');
    await expect(stat(credentialFile)).rejects.toThrow();
    const withoutCode = await cli(['login', '--name', person.username, '--password-stdin'], { stdin: `${password}\n` });
    expect(withoutCode.status).toBe(EXIT_FAILED);
    expect(withoutCode.stderr).toContain('authenticator');
    await expect(stat(credentialFile)).rejects.toThrow();

    const login = await cli(
      ['login', '--name', person.username, '--password-stdin', '--code', currentCode(person), '--json'],
      { stdin: `${password}\n` },
    );
    expect(login.status).toBe(EXIT_OK);
    expect(json(login)).toMatchObject({ username: person.username, role: 'support' });
    expect((await stat(credentialFile)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(credentialFile))).mode & 0o077).toBe(0);

    const me = await cli(['whoami', '--json']);
    expect(me.status).toBe(EXIT_OK);
    expect(json(me)).toMatchObject({ username: person.username, role: 'support', credential: 'SIGN_IN' });
    const token = (await savedToken())!;

    const out = await cli(['logout', '--json']);
    expect(out.status).toBe(EXIT_OK);
    expect(json(out)).toMatchObject({ signedOut: true, revoked: true });
    await expect(stat(credentialFile)).rejects.toThrow();
    expect(
      (await call(adminOf(api.current), '/admin/whoami', { headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(401);
    expect((await cli(['whoami'])).status).toBe(EXIT_FAILED);
  });

  it('when role, reset and disable are asked through the CLI, then each goes as its sender, and disabling is an approver’s alone', async () => {
    const person = await personWithKey('support');
    const role = await cli(
      ['console', 'user', 'role', '--name', person.username, '--role', 'operator', '--why', 'desk', '--json'],
      {
        credential: operator.key,
      },
    );
    expect(role.status).toBe(EXIT_OK);
    expect(json(role)).toMatchObject({ action: 'user.role', maker: operator.username });
    const withoutFingerprint = await cli(
      ['console', 'user', 'reset-password', '--name', person.username, '--why', 'lost', '--json'],
      { credential: operator.key },
    );
    expect(withoutFingerprint.status).toBe(EXIT_USAGE);
    // The person opens a new enrollment of their own and reads its fingerprint to the operator.
    const opened = await call(adminOf(api.current), '/admin/enrollments', { body: { username: person.username } });
    const reset = await cli(
      [
        'console',
        'user',
        'reset-password',
        '--name',
        person.username,
        '--fingerprint',
        String(opened.json.fingerprint),
        '--why',
        'lost',
        '--json',
      ],
      { credential: operator.key },
    );
    expect(reset.status).toBe(EXIT_OK);
    expect(json(reset)).toMatchObject({ action: 'user.password-reset', state: 'REQUESTED' });
    expect(await findConsoleUser(db, person.username)).toMatchObject({ role: 'SUPPORT', enrolled: true });

    const byOperator = await cli(['console', 'user', 'disable', '--name', person.username, '--why', 'left'], {
      credential: operator.key,
    });
    expect(byOperator.status).toBe(EXIT_FAILED);
    expect(byOperator.stderr).toContain('may not do this');
    expect((await findConsoleUser(db, person.username))?.disabledAt).toBeNull();

    const disabled = await cli(['console', 'user', 'disable', '--name', person.username, '--why', 'left', '--json'], {
      credential: approver.key,
    });
    expect(disabled.status).toBe(EXIT_OK);
    expect(json(disabled)).toMatchObject({ username: person.username, disabled: true });
    expect((await call(adminOf(api.current), '/admin/whoami', { headers: bearer(person) })).status).toBe(401);
    expect(
      await db.operatorAction.count({ where: { action: 'user.disable', actor: `cli:${approver.username}` } }),
    ).toBe(1);
  });
});
