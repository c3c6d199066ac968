import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet, type PrismaClient } from '@payout/db';
import { sealSeed } from '@payout/domain';
import { adminOf, call, useApi, type ApiResponse } from '../support/api.js';
import { signInToConsole } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { runCliAs } from '../support/approvals.js';
import {
  bearer,
  currentCode,
  freshSecondFactorCode,
  personWithKey,
  TEST_SECOND_FACTOR,
  type PersonWithKey,
} from '../support/people.js';

// Approving takes the approver's second factor (docs/operations.md, "Second factor"): a stolen password,
// session or API key alone approves nothing. A TOTP code works once; recovery codes work once each; wrong
// codes are limited; seeds are sealed at rest and survive a key rotation. Sign-in asks for it too; an old
// password hash is stored again at today's cost on the next sign-in.

const api = useApi();
let db: PrismaClient;
let maker: PersonWithKey;
let approver: PersonWithKey & { seed: string; password: string };
let merchant: TestMerchant;

beforeAll(async () => {
  db = testPrisma();
  maker = await personWithKey('operator');
  approver = await personWithKey('approver');
  merchant = await makeMerchant(db, { balance: '100.00' });
});
afterAll(() => db.$disconnect());

const admin = (path: string, headers: Record<string, string>, body?: unknown): Promise<ApiResponse> =>
  call(adminOf(api.current), path, { headers, ...(body !== undefined && { method: 'POST', body }) });
let references = 0;
/** omar's credit of ₹1.00, waiting for a second person: its request id. */
async function creditRequest(): Promise<string> {
  const asked = await admin(`/admin/merchants/${merchant.mid}/credits`, bearer(maker), {
    amount: '1.00',
    reference: `NEFT-2FA-${process.pid}-${++references}`,
    why: 'test credit',
  });
  expect(asked.status).toBe(202);
  return (asked.json.approval as { id: string }).id;
}
const approve = (id: string, body: Record<string, unknown>) =>
  admin(`/admin/approvals/${id}/approve`, bearer(approver), body);
const balance = async () => (await findWallet(db, merchant.merchant.id))?.availablePaise;

describe('the second factor where money is approved', () => {
  it('when an approver’s API key is used without a code, with a wrong code or with a used one, then nothing is approved; a current code approves once', async () => {
    const before = await balance();
    const id = await creditRequest();
    expect((await approve(id, {})).status).toBe(403);
    expect((await approve(id, { code: '000000' })).status).toBe(403);
    expect(await balance()).toBe(before);
    expect(await db.approvalRequest.findUniqueOrThrow({ where: { id: BigInt(id) } })).toMatchObject({
      state: 'REQUESTED',
    });

    const code = currentCode(approver);
    const approved = await approve(id, { code });
    expect(approved.status).toBe(200);
    expect(await balance()).toBe(before! + 100n);

    // The same code, replayed at once on another request: refused, whoever sends it.
    const next = await creditRequest();
    const replayed = await approve(next, { code });
    expect(replayed.status).toBe(403);
    expect(String(replayed.json.message)).toContain('used already');
    expect(await balance()).toBe(before! + 100n);
    expect(
      await db.operatorAction.count({ where: { action: 'second-factor.refused', actor: `cli:${approver.username}` } }),
    ).toBeGreaterThanOrEqual(2);
  });

  it('when a recovery code is used, then it works once; two approvals racing with one code approve one request', async () => {
    const [first, second] = [await creditRequest(), await creditRequest()];
    const code = await freshSecondFactorCode(approver.username);
    const raced = await Promise.all([approve(first, { code }), approve(second, { code })]);
    expect(raced.map((r) => r.status).sort()).toEqual([200, 403]);
    const states = await db.approvalRequest.findMany({
      where: { id: { in: [BigInt(first), BigInt(second)] } },
      select: { state: true },
    });
    expect(states.map((s) => s.state).sort()).toEqual(['EXECUTED', 'REQUESTED']);
  });

  it('when wrong codes come one after another, then past five every code waits, even the right one', async () => {
    const guesser = await personWithKey('approver');
    const id = await creditRequest();
    const guesses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        admin(`/admin/approvals/${id}/approve`, bearer(guesser), { code: String(100000 + i) }),
      ),
    );
    expect(guesses.filter((g) => g.status === 403)).toHaveLength(5);
    expect(guesses.filter((g) => g.status === 429)).toHaveLength(3);
    const right = await admin(`/admin/approvals/${id}/approve`, bearer(guesser), { code: currentCode(guesser) });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await db.approvalRequest.findUniqueOrThrow({ where: { id: BigInt(id) } })).toMatchObject({
      state: 'REQUESTED',
    });
  });

  it('when an approver approves on the CLI, then the code is asked for and sent, and without one nothing runs', async () => {
    const id = await creditRequest();
    const refused = await runCliAs(api.current.adminUrl, approver.key, [
      'approval',
      'approve',
      '--id',
      id,
      '--code',
      '1',
    ]);
    expect(refused.status).not.toBe(0);
    const approved = await runCliAs(api.current.adminUrl, approver.key, ['approval', 'approve', '--id', id, '--json']);
    expect(approved.status, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ state: 'EXECUTED' });
  });
});

describe('second factors at rest and at sign-in', () => {
  it('when seeds are sealed under a key being rotated out, then they still work, and reseal moves every one under the new key', async () => {
    const person = await personWithKey('operator');
    const oldKey = Buffer.from('a1'.repeat(32), 'hex');
    await db.consoleUser.update({
      where: { username: person.username },
      data: { totpSealed: sealSeed(person.seed, { current: oldKey, previous: [] }) },
    });
    const stored = await db.consoleUser.findUniqueOrThrow({ where: { username: person.username } });
    expect(stored.totpSealed).not.toContain(person.seed);

    // The key the apps under test run with, and the old one beside it, as during a rotation.
    const rotating = { ...TEST_SECOND_FACTOR, keys: { current: TEST_SECOND_FACTOR.keys.current, previous: [oldKey] } };
    const resealed = await runCliAs(api.current.adminUrl, undefined, ['console', 'second-factor', 'reseal', '--json'], {
      secondFactor: rotating,
    });
    expect(resealed.status, resealed.stderr).toBe(0);
    expect(JSON.parse(resealed.stdout)).toMatchObject({ unopened: 0 });
    const after = await db.consoleUser.findUniqueOrThrow({ where: { username: person.username } });
    expect(after.totpSealed).not.toBe(stored.totpSealed);
    // The apps, which know only the new key, now open it: the person signs in with a code from their app.
    const signedIn = await signInToConsole(
      api.current.adminUrl,
      person.username,
      person.password,
      {},
      currentCode(person),
    );
    expect(signedIn.status).toBe(303);
  });

  it('when a person whose password was hashed at the older cost signs in, then it is stored again at today’s', async () => {
    const person = await personWithKey('support');
    const salt = randomBytes(16);
    const key = scryptSync(person.password, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 2 ** 26 });
    const old = ['scrypt', 2 ** 15, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    await db.consoleUser.update({ where: { username: person.username }, data: { passwordHash: old } });
    const signedIn = await signInToConsole(api.current.adminUrl, person.username, person.password);
    expect(signedIn.status).toBe(303);
    const stored = await db.consoleUser.findUniqueOrThrow({ where: { username: person.username } });
    expect(stored.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(
      await db.operatorAction.count({ where: { action: 'user.password-rehash', actor: `console:${person.username}` } }),
    ).toBe(1);
  });
});
