import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminClient, EXIT_FAILED, EXIT_OK, readSavedCredential, runCli } from '@payout/cli';
import { createPrismaClient, findConsoleUser, findWallet, type PrismaClient } from '@payout/db';
import { totpCode } from '@payout/domain';
import { useApi } from '../support/api.js';
import { signInToConsole } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';

// A new production installation, grown from an empty database by the documented commands only
// (docs/operations.md, "A new installation"): `pnpm cli setup` makes the first approver, who enrolls
// themselves; while fewer than two approvers have enrolled the first adds people alone — each newcomer
// enrolling on their own machine — and no money moves; once a second approver has enrolled, a credit asked
// by one person is approved by another. The takeovers a lone approver could try — adding someone, resetting
// someone — leave them holding nothing of the other person's, and the wallet unmoved.

const PRODUCTION = {
  NODE_ENV: 'production',
  ADMIN_TOKEN: 'a-real-admin-token-of-forty-characters-x',
  PAYIN_CALLBACK_SECRET: 'a-real-pay-in-callback-secret-of-length',
  SECOND_FACTOR_KEY: '4f'.repeat(32),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false',
};
const api = useApi(PRODUCTION);
let db: PrismaClient;
let folder: string;

beforeAll(async () => {
  db = testPrisma();
  folder = await mkdtemp(path.join(tmpdir(), 'payout-new-installation-'));
});
afterAll(async () => {
  await db.$disconnect();
  await rm(folder, { recursive: true, force: true });
});

/** A person at their own machine: their own CLI sign-in and enrollment files, the CLI as `pnpm cli` runs. */
function machine(owner: string) {
  const credentialFile = path.join(folder, owner, 'credential.json');
  return async (argv: string[], stdin = '') => {
    const saved = await readSavedCredential(credentialFile);
    const out: string[] = [];
    const err: string[] = [];
    const status = await runCli([...argv, '--json'], {
      openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
      openQueue: () => {
        throw new Error('no command here uses the queue');
      },
      openAdmin: () => createAdminClient({ url: api.current.adminUrl, ...(saved && { credential: saved.token }) }),
      signIn: {
        adminUrl: api.current.adminUrl,
        credentialFile,
        readPassword: () => Promise.reject(new Error('no terminal: the test passes --code and --password-stdin')),
        readStdin: () => Promise.resolve(stdin),
        terminal: false,
      },
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
    });
    const stdout = out.join('\n');
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(stdout) as Record<string, unknown>;
    } catch {
      // A failed run prints its reason on stderr.
    }
    return { status, json, stdout, stderr: err.join('\n') };
  };
}

type Machine = ReturnType<typeof machine>;

/** The people the first test enrolls, for the takeovers the second tries among them. */
const installation = {} as { kiran: Enrolled; priya: Enrolled };

/** What a person's enrollment left them with. */
interface Enrolled {
  name: string;
  password: string;
  recoveryCodes: string[];
  seed: string;
}

/** `pnpm cli enroll` on the person's machine, twice: the key for their app, then their password and its code. */
async function finishEnrolling(at: Machine, name: string): Promise<Enrolled> {
  const offered = await at(['enroll', '--name', name]);
  expect(offered.status).toBe(EXIT_OK);
  expect(offered.json).toMatchObject({ state: 'approved' });
  const seed = String(offered.json.seed);
  const password = `${name}'s own long passphrase`;
  const done = await at(['enroll', '--name', name, '--code', totpCode(seed, new Date()), '--password-stdin'], password);
  expect(done.status).toBe(EXIT_OK);
  expect(done.json).toMatchObject({ username: name, state: 'enrolled' });
  return { name, password, seed, recoveryCodes: done.json.recoveryCodes as string[] };
}

/** `pnpm cli login` on the person's machine, with one of their recovery codes (a fresh code of their own). */
async function logIn(at: Machine, person: Enrolled): Promise<void> {
  const code = person.recoveryCodes.shift()!;
  const login = await at(['login', '--name', person.name, '--password-stdin', '--code', code], person.password);
  expect(login.status, login.stderr).toBe(EXIT_OK);
}

/** A person opens their own enrollment on their machine and reads out its fingerprint. */
async function openEnrollment(at: Machine, name: string): Promise<string> {
  const opened = await at(['enroll', '--name', name]);
  expect(opened.status).toBe(EXIT_OK);
  expect(opened.json).toMatchObject({ state: 'waiting' });
  return String(opened.json.fingerprint);
}

const everything = async () =>
  JSON.stringify([await db.approvalRequest.findMany(), await db.operatorAction.findMany()], (_k, v: unknown) =>
    typeof v === 'bigint' ? String(v) : v,
  );

describe('a new installation', () => {
  it('when it is set up by the documented commands, then the first approver enrolls and adds people alone, no money moves until a second approver has enrolled, and then a credit asked by one is approved by another', async () => {
    const [kiranAt, omarAt, priyaAt] = [machine('kiran'), machine('omar'), machine('priya')];
    expect(await db.consoleUser.count()).toBe(0);

    const setUp = await kiranAt(['setup', '--name', 'kiran']);
    expect(setUp.status).toBe(EXIT_OK);
    expect(setUp.json).toMatchObject({ username: 'kiran', role: 'approver' });
    expect((await kiranAt(['setup', '--name', 'mallory'])).status).toBe(EXIT_FAILED);
    const kiran = await finishEnrolling(kiranAt, 'kiran');
    installation.kiran = kiran;
    await logIn(kiranAt, kiran);

    // Every console page says the installation is in setup.
    const console = await signInToConsole(
      api.current.adminUrl,
      'kiran',
      kiran.password,
      {},
      kiran.recoveryCodes.shift(),
    );
    expect(console.status).toBe(303);
    const cookie = console.headers
      .getSetCookie()
      .find((c) => c.startsWith('console_session='))!
      .split(';')[0]!;
    const page = await (await fetch(`${api.current.adminUrl}/console`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain('This installation is in setup');

    // omar, an operator: he opens his enrollment and reads kiran the fingerprint; kiran adds him alone, on her code.
    const omarFingerprint = await openEnrollment(omarAt, 'omar');
    const add = ['console', 'user', 'add', '--name', 'omar', '--role', 'operator', '--fingerprint', omarFingerprint];
    const withoutCode = await kiranAt([...add, '--why', 'payouts desk']);
    expect(withoutCode.status).toBe(EXIT_FAILED);
    expect(await findConsoleUser(db, 'omar')).toBeNull();
    const added = await kiranAt([...add, '--why', 'payouts desk', '--code', kiran.recoveryCodes.shift()!]);
    expect(added.status).toBe(EXIT_OK);
    expect(added.json).toMatchObject({ action: 'user.add', state: 'EXECUTED', maker: 'kiran', decidedBy: 'kiran' });
    expect(await db.operatorAction.count({ where: { action: 'setup.people-change', actor: 'cli:kiran' } })).toBe(1);
    const omar = await finishEnrolling(omarAt, 'omar');
    await logIn(omarAt, omar);

    // Money waits for a second approver, whoever approves.
    const merchant = await makeMerchant(db, { balance: '100.00' });
    const credit = await omarAt([
      'wallet',
      'credit',
      '--mid',
      merchant.mid,
      '--amount',
      '888.00',
      '--reference',
      'NEFT-FIRST-DAY',
      '--note',
      'first credit',
    ]);
    expect(credit.status).toBe(EXIT_OK);
    const creditId = String(credit.json.approvalId);
    const tooEarly = await kiranAt(['approval', 'approve', '--id', creditId, '--code', kiran.recoveryCodes.shift()!]);
    expect(tooEarly.status).toBe(EXIT_FAILED);
    expect(tooEarly.stderr).toContain('in setup');
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({ availablePaise: 10000n });

    // priya, a second approver, added the same way; her enrollment ends the setup.
    const priyaFingerprint = await openEnrollment(priyaAt, 'priya');
    const addPriya = await kiranAt([
      'console',
      'user',
      'add',
      '--name',
      'priya',
      '--role',
      'approver',
      '--fingerprint',
      priyaFingerprint,
      '--why',
      'second approver',
      '--code',
      kiran.recoveryCodes.shift()!,
    ]);
    expect(addPriya.json).toMatchObject({ state: 'EXECUTED' });
    const priya = await finishEnrolling(priyaAt, 'priya');
    installation.priya = priya;
    expect(await db.consoleSetup.findFirstOrThrow()).toMatchObject({ completedAt: expect.any(Date) as Date });
    await logIn(priyaAt, priya);

    // The credit omar asked for, approved by priya on her code: the wallet moves once.
    const approved = await priyaAt(['approval', 'approve', '--id', creditId, '--code', priya.recoveryCodes.shift()!]);
    expect(approved.status, approved.stderr).toBe(EXIT_OK);
    expect(approved.json).toMatchObject({ state: 'EXECUTED', maker: 'omar', decidedBy: 'priya' });
    expect(await findWallet(db, merchant.merchant.id)).toMatchObject({ availablePaise: 98800n });

    // Out of setup, kiran's changes to people are requests, and she cannot leave one approver alone.
    const disable = await kiranAt(['console', 'user', 'disable', '--name', 'priya', '--why', 'going it alone']);
    expect(disable.status).toBe(EXIT_FAILED);
    expect(disable.stderr).toContain('four eyes need at least 2');
    const newcomer = await openEnrollment(machine('sunita'), 'sunita');
    const request = await kiranAt([
      'console',
      'user',
      'add',
      '--name',
      'sunita',
      '--role',
      'support',
      '--fingerprint',
      newcomer,
      '--why',
      'support desk',
    ]);
    expect(request.json).toMatchObject({ state: 'REQUESTED' });
    expect(await findConsoleUser(db, 'sunita')).toBeNull();

    // Nobody was ever shown another's secret: no request, outcome or audit entry holds one.
    const seen = await everything();
    for (const person of [kiran, omar, priya]) {
      for (const secret of [person.password, person.seed, ...person.recoveryCodes]) expect(seen).not.toContain(secret);
    }
  });

  it('when an approver approves adding someone, or resetting another approver, then they hold nothing that signs in as that person, and the wallet is unmoved', async () => {
    // The installation the test above set up: kiran, omar and priya, signed in on their own machines.
    const [kiranAt, omarAt, priyaAt, ghostAt] = [machine('kiran'), machine('omar'), machine('priya'), machine('ghost')];
    const merchant = await makeMerchant(db, { balance: '100.00' });
    const before = await findWallet(db, merchant.merchant.id);

    // Adding: ghost opens an enrollment on ghost's own machine; omar asks; kiran approves.
    const ghostFingerprint = await openEnrollment(ghostAt, 'ghost');
    const asked = await omarAt([
      'console',
      'user',
      'add',
      '--name',
      'ghost',
      '--role',
      'approver',
      '--fingerprint',
      ghostFingerprint,
      '--why',
      'new approver',
    ]);
    expect(asked.status, asked.stderr).toBe(EXIT_OK);
    const added = await kiranAt([
      'approval',
      'approve',
      '--id',
      String(asked.json.approvalId),
      '--code',
      installation.kiran.recoveryCodes.shift()!,
    ]);
    expect(added.json).toMatchObject({ state: 'EXECUTED' });
    // kiran, trying to be ghost: an enrollment of her own for that name is not the one approved.
    const hers = await kiranAt(['enroll', '--name', 'ghost']);
    expect(hers.json).toMatchObject({ state: 'waiting' });
    expect(hers.json.fingerprint).not.toBe(ghostFingerprint);
    expect((await kiranAt(['enroll', '--name', 'ghost'])).json).toMatchObject({ state: 'waiting' });
    expect(
      (await kiranAt(['login', '--name', 'ghost', '--password-stdin', '--code', '123456'], 'a guess at it')).status,
    ).toBe(EXIT_FAILED);

    // Resetting: priya lost her phone and opens a new enrollment on her machine; omar asks; kiran approves.
    const priyaFingerprint = await openEnrollment(priyaAt, 'priya');
    const reset = await omarAt([
      'console',
      'user',
      'reset-password',
      '--name',
      'priya',
      '--fingerprint',
      priyaFingerprint,
      '--why',
      'lost her phone',
    ]);
    const resetDone = await kiranAt([
      'approval',
      'approve',
      '--id',
      String(reset.json.approvalId),
      '--code',
      installation.kiran.recoveryCodes.shift()!,
    ]);
    expect(resetDone.json).toMatchObject({ state: 'EXECUTED' });
    expect((await priyaAt(['whoami'])).status).toBe(EXIT_FAILED);
    expect((await kiranAt(['enroll', '--name', 'priya'])).json).toMatchObject({ state: 'waiting' });
    expect(
      (
        await kiranAt(
          ['login', '--name', 'priya', '--password-stdin', '--code', installation.priya.recoveryCodes[0]!],
          installation.priya.password,
        )
      ).status,
    ).toBe(EXIT_FAILED);

    // Alone, kiran asks a credit and cannot approve it: nobody else can, and the wallet stays as it was.
    const credit = await kiranAt([
      'wallet',
      'credit',
      '--mid',
      merchant.mid,
      '--amount',
      '888.00',
      '--reference',
      'NEFT-GHOST',
    ]);
    const self = await kiranAt([
      'approval',
      'approve',
      '--id',
      String(credit.json.approvalId),
      '--code',
      installation.kiran.recoveryCodes.shift()!,
    ]);
    expect(self.status).toBe(EXIT_FAILED);
    expect(self.stderr).toContain('a second person must approve it');
    expect(await findWallet(db, merchant.merchant.id)).toEqual(before);

    // The real ghost and priya finish on their own machines.
    await finishEnrolling(ghostAt, 'ghost');
    await finishEnrolling(priyaAt, 'priya');
    expect(await findConsoleUser(db, 'ghost')).toMatchObject({ enrolled: true, role: 'APPROVER' });
  });
});
