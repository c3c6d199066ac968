import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authenticatePersonalCredential,
  disableConsoleUser,
  findWallet,
  issuePersonalCredential,
  listPersonalCredentials,
  PersonalCredentialRefusedError,
  revokePersonalCredential,
  type PrismaClient,
} from '@payout/db';
import { planWalletCredit, requestApproval } from '@payout/use-cases';
import { adminOf, call, useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { signedInPerson } from '../support/console.js';
import { bearer, freshSecondFactorCode, type PersonWithKey, personWithKey } from '../support/people.js';

// People are authenticated where they act (docs/operations.md, "Security model"): on the admin API a person
// is whoever their own personal credential proves — never a name typed on a command line. Without one, with
// a support user's, or with a revoked or expired one, an approval is refused and nothing changes.

const api = useApi();
let db: PrismaClient;
let operator: PersonWithKey;
let approver: PersonWithKey;
let support: PersonWithKey;

const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  db = testPrisma();
  operator = await personWithKey('operator');
  approver = await personWithKey('approver');
  support = await personWithKey('support');
});
afterAll(() => db.$disconnect());

/** A credit of `amount` paise asked for by the operator: the request's id. */
async function askForCredit(merchant: TestMerchant, amountPaise: bigint): Promise<string> {
  const plan = await planWalletCredit({ db }, { mid: merchant.mid, amountPaise, reference: `NEFT-${Date.now()}` });
  if (plan.kind !== 'planned') throw new Error(`credit not planned: ${plan.kind}`);
  const asked = await requestApproval(
    { db, approvals: api.current.adminDeps.approvals },
    { planned: plan.planned, maker: { username: operator.username, role: 'OPERATOR', via: 'cli' }, reason: 'NEFT in' },
  );
  if (asked.kind !== 'requested') throw new Error(`not requested: ${asked.kind}`);
  return String(asked.request.id);
}

const available = async (merchant: TestMerchant) => (await findWallet(db, merchant.merchant.id))?.availablePaise ?? 0n;
const stateOf = async (id: string) =>
  (await db.approvalRequest.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { state: true } })).state;
/** Approving with `headers` as the credential, and `code` as the approver's second factor (test/security/second-factor.test.ts). */
const approve = (id: string, headers: Record<string, string>, code?: string) =>
  call(adminOf(api.current), `/admin/approvals/${id}/approve`, {
    method: 'POST',
    headers,
    body: { note: 'seen', ...(code !== undefined && { code }) },
  });

describe('personal credentials on the admin API', () => {
  it('when an approver presents their own key, then the approval runs without a CSRF token and the audit names them as cli', async () => {
    const merchant = await makeMerchant(db, { balance: '10.00' });
    const id = await askForCredit(merchant, 50000n);
    const approved = await approve(id, bearer(approver), await freshSecondFactorCode(approver.username));
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({ approval: { state: 'EXECUTED', decidedBy: approver.username } });
    expect(await available(merchant)).toBe(51000n);
    const actors = await db.operatorAction.findMany({
      where: { merchantId: merchant.merchant.id, action: { in: ['approval.approve', 'wallet.credit'] } },
      select: { actor: true },
    });
    expect(actors.map((a) => a.actor)).toEqual([`cli:${approver.username}`, `cli:${approver.username}`]);
    const [listed] = await listPersonalCredentials(db, approver.username);
    expect(listed!.lastUsedAt).not.toBeNull();
  });

  it('when a request carries no credential, a support user’s key, a revoked, an expired or a made-up key, or a disabled user’s key, then it is refused and nothing changes', async () => {
    const merchant = await makeMerchant(db, { balance: '10.00' });
    const id = await askForCredit(merchant, 70000n);

    const none = await approve(id, {});
    expect(none.status).toBe(401);
    expect(none.json).toMatchObject({ error: true, status_code: 401 });
    expect(String(none.json.message)).toContain('Authorization: Bearer');

    const refusedBefore = await db.operatorAction.count({ where: { actor: `cli:${support.username}` } });
    const bySupport = await approve(id, bearer(support));
    expect(bySupport.status).toBe(403);
    expect(
      await db.operatorAction.findMany({
        where: { actor: `cli:${support.username}`, action: 'access.refused' },
        select: { reason: true, detail: true },
      }),
    ).toEqual([
      {
        reason: 'needs the approve permission',
        detail: expect.objectContaining({ path: `/admin/approvals/${id}/approve`, role: 'SUPPORT' }) as object,
      },
    ]);
    expect(refusedBefore).toBe(0);

    const revoked = await personWithKey('approver');
    const [revokedKey] = await listPersonalCredentials(db, revoked.username);
    expect(await revokePersonalCredential(db, { username: revoked.username, prefix: revokedKey!.prefix })).toBe(true);
    const withRevoked = await approve(id, bearer(revoked));
    expect(withRevoked.status).toBe(401);
    expect(String(withRevoked.json.message)).toContain('revoked');

    const expired = await personWithKey('approver');
    await db.$executeRaw`
      UPDATE personal_credentials SET created_at = now() - interval '31 days', expires_at = now() - interval '1 day'
       WHERE user_id = (SELECT id FROM console_users WHERE username = ${expired.username})`;
    expect((await approve(id, bearer(expired))).status).toBe(401);

    const disabled = await personWithKey('approver');
    await disableConsoleUser(db, disabled.username);
    expect((await approve(id, bearer(disabled))).status).toBe(401);

    const madeUp = `${approver.key.slice(0, 12)}${'A'.repeat(approver.key.length - 12)}`;
    expect((await approve(id, { Authorization: `Bearer ${madeUp}` })).status).toBe(401);
    expect((await approve(id, { Authorization: 'Bearer pgk_short' })).status).toBe(401);

    // The maker's own key: a person, with the permission to request but not to approve.
    expect((await approve(id, bearer(operator))).status).toBe(403);

    expect(await stateOf(id)).toBe('REQUESTED');
    expect(await available(merchant)).toBe(1000n);
    expect(
      await db.operatorAction.count({
        where: { merchantId: merchant.merchant.id, action: { in: ['approval.approve', 'wallet.credit'] } },
      }),
    ).toBe(0);
  });

  it('when a console session calls the JSON API, then its CSRF header is still required, and a bearer key does not open console pages', async () => {
    const kiran = await signedInPerson(api.current.adminUrl, 'approver');
    const merchant = await makeMerchant(db, { balance: '0.00' });
    const id = await askForCredit(merchant, 100n);
    expect((await approve(id, { Cookie: kiran.cookie })).status).toBe(403);
    expect(await stateOf(id)).toBe('REQUESTED');
    const approved = await approve(
      id,
      { Cookie: kiran.cookie, 'X-CSRF-Token': kiran.csrf },
      await freshSecondFactorCode(kiran.username),
    );
    expect(approved.status).toBe(200);
    expect(await available(merchant)).toBe(100n);

    const page = await fetch(`${api.current.adminUrl}/console`, { headers: bearer(approver), redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/console/login');
  });

  it('when a credential is issued, then only its digest is stored, its life is bounded, and only its owner revokes it', async () => {
    const person = await personWithKey('operator');
    const stored = await db.personalCredential.findFirstOrThrow({ where: { user: { username: person.username } } });
    expect(stored.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(person.key.slice(4));
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(30 * DAY);

    await expect(
      issuePersonalCredential(db, { username: person.username, kind: 'API_KEY', label: 'long', ttlMs: 91 * DAY }),
    ).rejects.toBeInstanceOf(PersonalCredentialRefusedError);
    await expect(
      issuePersonalCredential(db, { username: 'nobody-at-all', kind: 'API_KEY', label: 'x' }),
    ).rejects.toBeInstanceOf(PersonalCredentialRefusedError);
    const signIn = await issuePersonalCredential(db, { username: person.username, kind: 'SIGN_IN', label: 'cli' });
    expect(signIn.token).toMatch(/^pgs_/);
    expect(signIn.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(8 * 3600_000);
    expect((await authenticatePersonalCredential(db, signIn.token))?.user.username).toBe(person.username);

    expect(await revokePersonalCredential(db, { username: approver.username, prefix: stored.prefix })).toBe(false);
    expect((await authenticatePersonalCredential(db, person.key))?.user.username).toBe(person.username);
    expect(await revokePersonalCredential(db, { username: person.username, prefix: stored.prefix })).toBe(true);
    expect(await authenticatePersonalCredential(db, person.key)).toBeNull();
  });
});
