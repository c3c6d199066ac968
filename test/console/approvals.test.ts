import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiConfigSchema, loadConfig } from '@payout/config';
import {
  findWallet,
  issuePersonalCredential,
  listOperatorActions,
  transitionPayout,
  type PrismaClient,
} from '@payout/db';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '@payout/cli';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { freshSecondFactorCode } from '../support/people.js';
import { useStack } from '../support/stack.js';
import { cli, cliAs, payoutAtTheRail, setCliAdmin } from '../webhooks/webhook-fixtures.js';

// Four eyes on money (docs/operations.md, "Approvals"): a money action one person asks for changes nothing
// until a different approver approves it, in the console, the CLI or the admin JSON API; it runs once, and
// only while the world is as the request said.

const stack = useStack();
let db: PrismaClient;
let asha: ConsolePerson; // an approver who also asks
let kiran: ConsolePerson; // a second approver
let meera: ConsolePerson; // a third approver
let ravi: ConsolePerson; // an operator: asks, never approves

const admin = (path: string) => `${stack.current.api.adminUrl}${path}`;

beforeAll(async () => {
  db = testPrisma();
  const url = stack.current.api.adminUrl;
  // One after another: sign-in limits how many password hashes compute at once.
  asha = await signedInPerson(url, 'approver');
  kiran = await signedInPerson(url, 'approver');
  meera = await signedInPerson(url, 'approver');
  ravi = await signedInPerson(url, 'operator');
  // The CLI acts as whoever's key it is given; by default no one is signed in.
  setCliAdmin(url);
});
afterAll(() => db.$disconnect());

/** A personal API key of `person`'s, as they would make one for themselves on /console/keys. */
async function keyOf(person: ConsolePerson): Promise<string> {
  return (await issuePersonalCredential(db, { username: person.username, kind: 'API_KEY', label: 'tests' })).token;
}

/** Asks for a credit as `maker` and returns the request's page path and id. */
async function askForCredit(maker: ConsolePerson, mid: string, amount: string, reference: string) {
  const asked = await maker.post(`/console/merchants/${mid}/credit`, { amount, reference, why: 'NEFT received' });
  expect(asked.status).toBe(303);
  const path = asked.location!;
  return { path, id: path.split('/').pop()! };
}

const available = async (merchantId: number) => (await findWallet(db, merchantId))?.availablePaise ?? 0n;

describe('approvals', () => {
  it('when a credit is asked for, then only a different approver applies it — never its maker, in the console, the CLI or the JSON API', async () => {
    const merchant = await makeMerchant(db, { balance: '100.00' });
    const { path, id } = await askForCredit(asha, merchant.mid, '4000.00', 'NEFT-A1');
    expect(await available(merchant.merchant.id)).toBe(10000n);

    const ownPage = await asha.page(path);
    expect(ownPage.html).toContain('another approver decides it');
    expect(ownPage.html).not.toContain(`${path}/approve`);
    expect((await asha.post(`${path}/approve`, { note: 'me' })).status).toBe(403);
    const viaCli = await cliAs(await keyOf(asha), 'approval', 'approve', '--id', id);
    expect(viaCli.status).toBe(EXIT_FAILED);
    expect(viaCli.stderr).toContain(`${asha.username} made this request`);
    const viaJson = await fetch(admin(`/admin/approvals/${id}/approve`), {
      method: 'POST',
      headers: { Cookie: asha.cookie, 'X-CSRF-Token': asha.csrf, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(viaJson.status).toBe(403);
    const withAdminToken = await fetch(admin(`/admin/approvals/${id}/approve`), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${stack.current.api.adminDeps.adminToken}`,
        'Content-Type': 'application/json',
      },
      body: '{}',
    });
    // The admin token names nobody: it is no person's credential.
    expect(withAdminToken.status).toBe(401);
    expect((await ravi.post(`${path}/approve`, { note: 'operators do not approve' })).status).toBe(403);
    expect(await available(merchant.merchant.id)).toBe(10000n);

    const listed = await fetch(admin('/admin/approvals'), {
      headers: { Authorization: `Bearer ${stack.current.api.adminDeps.adminToken}` },
    });
    const { approvals } = (await listed.json()) as { approvals: { id: string; maker: string; state: string }[] };
    expect(approvals.find((a) => a.id === id)).toMatchObject({ maker: asha.username, state: 'REQUESTED' });

    const approved = await fetch(admin(`/admin/approvals/${id}/approve`), {
      method: 'POST',
      headers: { Cookie: kiran.cookie, 'X-CSRF-Token': kiran.csrf, 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: 'matched the bank statement', code: await freshSecondFactorCode(kiran.username) }),
    });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ approval: { state: 'EXECUTED', decidedBy: kiran.username } });
    expect(await available(merchant.merchant.id)).toBe(410000n);
    expect((await meera.post(`${path}/approve`, { note: 'again' })).status).toBe(403);
    expect(await available(merchant.merchant.id)).toBe(410000n);

    const audit = await listOperatorActions(db, { merchantId: merchant.merchant.id, limit: 20 });
    expect(
      audit
        .filter((a) => a.action.startsWith('approval.') || a.action === 'wallet.credit')
        .map((a) => [a.action, a.actor]),
    ).toEqual([
      ['approval.approve', `admin-api:${kiran.username}`],
      ['wallet.credit', `admin-api:${kiran.username}`],
      ['approval.request', `console:${asha.username}`],
    ]);
    const refusals = await db.operatorAction.findMany({
      where: { action: 'access.refused', actor: { in: [`console:${ravi.username}`, `admin-api:${ravi.username}`] } },
      select: { actor: true, detail: true },
    });
    expect(refusals).toEqual([
      { actor: `console:${ravi.username}`, detail: expect.objectContaining({ path: `${path}/approve` }) as object },
    ]);
  });

  it('when a request is rejected, cancelled or expires, then nothing changes and it cannot be decided again', async () => {
    const merchant = await makeMerchant(db, { balance: '100.00' });
    const rejected = await askForCredit(ravi, merchant.mid, '50.00', 'NEFT-R1');
    expect((await kiran.post(`${rejected.path}/reject`, { note: '' })).status).toBe(422);
    expect((await kiran.post(`${rejected.path}/reject`, { note: 'no such transfer at the bank' })).status).toBe(303);
    expect((await meera.post(`${rejected.path}/approve`, { note: 'late' })).status).toBe(403);

    const cancelled = await askForCredit(ravi, merchant.mid, '60.00', 'NEFT-C1');
    expect((await kiran.post(`${cancelled.path}/cancel`, { note: 'not mine' })).status).toBe(403);
    expect((await ravi.post(`${cancelled.path}/cancel`, { note: 'typed the wrong amount' })).status).toBe(303);
    expect((await kiran.post(`${cancelled.path}/approve`, { note: 'too late' })).status).toBe(403);

    const expired = await askForCredit(ravi, merchant.mid, '70.00', 'NEFT-E1');
    await db.$executeRaw`UPDATE approval_requests SET expires_at = requested_at + interval '1 millisecond' WHERE id = ${BigInt(expired.id)}`;
    expect((await ravi.page(expired.path)).html).toContain('EXPIRED');
    const late = await kiran.post(`${expired.path}/approve`, { note: 'back from leave' });
    expect(late.status).toBe(409);
    expect(late.html).toContain('expired');

    expect(await available(merchant.merchant.id)).toBe(10000n);
    const states = await db.approvalRequest.findMany({
      where: { merchantId: merchant.merchant.id },
      orderBy: { id: 'asc' },
      select: { state: true, decidedBy: true },
    });
    expect(states).toEqual([
      { state: 'REJECTED', decidedBy: kiran.username },
      { state: 'CANCELLED', decidedBy: ravi.username },
      { state: 'EXPIRED', decidedBy: kiran.username },
    ]);
  });

  it('when two approvers approve the same request at once, then it runs exactly once', async () => {
    const merchant = await makeMerchant(db, { balance: '0.00' });
    const { path } = await askForCredit(ravi, merchant.mid, '123.45', 'NEFT-RACE');
    const answers = await Promise.all([
      kiran.post(`${path}/approve`, { note: 'ok' }),
      meera.post(`${path}/approve`, { note: 'ok' }),
      asha.post(`${path}/approve`, { note: 'ok' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 403, 403]);
    expect(await available(merchant.merchant.id)).toBe(12345n);
    expect(await db.ledgerEntry.count({ where: { merchantId: merchant.merchant.id, kind: 'WALLET_CREDIT' } })).toBe(2);
  });

  it('when the payout of a resolution moved before the approval, then the approval is refused with the reason and nothing changes', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const payout = await payoutAtTheRail(db, merchant, { mode: 'IMPS', amountPaise: 10100n });
    for (const state of ['AWAITING_RAIL', 'MANUAL_REVIEW'] as const) {
      await transitionPayout(db, payout.id, state, { nextCheckAt: null }, { reason: 'test', actor: 'test' });
    }
    const asked = await ravi.post(`/console/payouts/${payout.ackNo}/resolve`, {
      outcome: 'failed',
      reason: 'DECLINED_BY_BENEFICIARY_BANK',
      why: 'bank says returned',
      override: 'yes',
    });
    expect(asked.status).toBe(303);
    const timeline = (await kiran.page(`/console/payouts/${payout.ackNo}`)).html;
    expect(timeline).toContain(`approval.request by console:${ravi.username}`);
    // An override is asked of the rail again when the approver opens it: its answer then and now, side by side.
    const page = (await kiran.page(asked.location!)).html;
    expect(page).toContain('The rail, asked again');
    expect(page).toMatch(/<dt>When it was asked<\/dt><dd>NOT_FOUND<\/dd><dt>Now<\/dt><dd>NOT_FOUND<\/dd>/);

    await transitionPayout(db, payout.id, 'AWAITING_RAIL', { nextCheckAt: null }, { reason: 'test', actor: 'test' });
    const refused = await kiran.post(`${asked.location!}/approve`, { note: 'looks right' });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain(`payout ${payout.ackNo} is AWAITING_RAIL now, not under manual review`);
    expect(await db.payout.findUniqueOrThrow({ where: { id: payout.id } })).toMatchObject({ state: 'AWAITING_RAIL' });
    expect(await findWallet(db, merchant.merchant.id)).toEqual({ availablePaise: 89900n, reservedPaise: 10100n });
    const request = await db.approvalRequest.findFirstOrThrow({ where: { payoutId: payout.id } });
    expect(request).toMatchObject({ state: 'FAILED', decidedBy: kiran.username });
    expect((await kiran.page(`/console/payouts/${payout.ackNo}`)).html).toContain(
      `approval.fail by console:${kiran.username}`,
    );
  });

  it('when the CLI asks for a credit, then it prints the request id and only another approver’s `approval approve` applies it', async () => {
    const merchant = await makeMerchant(db, { balance: '0.00' });
    const args = ['wallet', 'credit', '--mid', merchant.mid, '--amount', '75.00', '--reference', 'RTGS-9'];
    const [raviKey, meeraKey] = [await keyOf(ravi), await keyOf(meera)];
    const signedOut = await cli(...args);
    expect(signedOut.status).toBe(EXIT_FAILED);
    expect(signedOut.stderr).toMatch(/sign in first/);
    // A name typed on the command line proves nothing: there is no such option.
    expect((await cliAs(raviKey, ...args, '--operator', ravi.username)).status).toBe(EXIT_USAGE);
    const asked = await cliAs(raviKey, ...args, '--note', 'RTGS in', '--json');
    expect(asked.status).toBe(EXIT_OK);
    const { approvalId, preview } = JSON.parse(asked.stdout) as { approvalId: string; preview: object };
    expect(preview).toMatchObject({ amount: '75.00', availableBefore: '0.00', availableAfter: '75.00' });
    const open = JSON.parse((await cli('approval', 'list', '--json')).stdout) as { approvals: { id: string }[] };
    expect(open.approvals.map((a) => a.id)).toContain(approvalId);
    expect(await available(merchant.merchant.id)).toBe(0n);

    const byOperator = await cliAs(raviKey, 'approval', 'approve', '--id', approvalId);
    expect(byOperator.status).toBe(EXIT_FAILED);
    const approved = await cliAs(meeraKey, 'approval', 'approve', '--id', approvalId, '--json');
    expect(approved.status).toBe(EXIT_OK);
    expect(JSON.parse(approved.stdout)).toMatchObject({
      state: 'EXECUTED',
      maker: ravi.username,
      decidedBy: meera.username,
    });
    expect(await available(merchant.merchant.id)).toBe(7500n);
  });

  it('when self-approval is asked for outside development, then the service refuses to start', () => {
    const env = { ...process.env, APPROVALS_ALLOW_SELF_APPROVAL: 'true' };
    expect(() => loadConfig(apiConfigSchema, { ...env, NODE_ENV: 'production' })).toThrow(
      /APPROVALS_ALLOW_SELF_APPROVAL/,
    );
    expect(() => loadConfig(apiConfigSchema, { ...env, NODE_ENV: 'test' })).toThrow(/APPROVALS_ALLOW_SELF_APPROVAL/);
    expect(loadConfig(apiConfigSchema, { ...env, NODE_ENV: 'development' }).APPROVALS_ALLOW_SELF_APPROVAL).toBe(true);
    expect(loadConfig(apiConfigSchema, { ...process.env, NODE_ENV: 'development' }).APPROVALS_ALLOW_SELF_APPROVAL).toBe(
      false,
    );
  });
});
