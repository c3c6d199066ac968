import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet, type PrismaClient } from '@payout/db';
import { EXIT_FAILED, EXIT_OK } from '@payout/cli';
import { useApi } from '../support/api.js';
import { fourEyes, runCliAs } from '../support/approvals.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { personWithKey, type PersonWithKey } from '../support/people.js';

// A money command is only ever asked for by a person who proved who they are with their own credential
// (docs/operations.md, "Security model"): without one, with a role that may not ask, with a key that was
// revoked or has expired, the command is refused and nothing changes; and no one approves their own request.

const api = useApi();
let db: PrismaClient;
let merchant: TestMerchant;

beforeAll(async () => {
  db = testPrisma();
  merchant = await makeMerchant(db, { balance: '100.00' });
});
afterAll(() => db.$disconnect());

const credit = (reference: string) => [
  'wallet',
  'credit',
  '--mid',
  merchant.mid,
  '--amount',
  '5000.00',
  '--reference',
  reference,
];

/** Everything a refused money command could have changed. */
async function world(): Promise<unknown> {
  return {
    available: (await findWallet(db, merchant.merchant.id))?.availablePaise,
    requests: await db.approvalRequest.count(),
    ledger: await db.ledgerEntry.count({ where: { merchantId: merchant.merchant.id } }),
  };
}

async function refusedWithoutChange(key: string | undefined, why: RegExp): Promise<void> {
  const before = await world();
  const run = await runCliAs(api.current.adminUrl, key, [...credit(`REF-${Math.random()}`), '--json']);
  expect(run.status).toBe(EXIT_FAILED);
  expect(run.stderr).toMatch(why);
  expect(run.stdout).toBe('');
  expect(await world()).toEqual(before);
}

async function withCredential(person: PersonWithKey, change: Record<string, Date>): Promise<void> {
  await db.personalCredential.updateMany({ where: { user: { username: person.username } }, data: change });
}

describe('a CLI money command and who runs it', () => {
  it('when no one is signed in, then it is refused before anything is sent and nothing changes', async () => {
    await refusedWithoutChange(undefined, /acts as a person: sign in first: `pnpm cli login --name <you>`/);
  });

  it('when it is run with a support user’s key, then it is refused, nothing changes, and the refusal names them', async () => {
    const support = await personWithKey('support');
    await refusedWithoutChange(support.key, /may not do this \(request\)/);
    const refusals = await db.operatorAction.findMany({
      where: { action: 'access.refused', actor: `cli:${support.username}` },
    });
    expect(refusals).toHaveLength(1);
  });

  it('when it is run with a revoked key, then it is refused and nothing changes', async () => {
    const operator = await personWithKey('operator');
    await withCredential(operator, { revokedAt: new Date() });
    await refusedWithoutChange(operator.key, /unknown, revoked or expired/);
  });

  it('when it is run with an expired key, then it is refused and nothing changes', async () => {
    const operator = await personWithKey('operator');
    const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
    await withCredential(operator, { createdAt: new Date(dayAgo - 60_000), expiresAt: new Date(dayAgo) });
    await refusedWithoutChange(operator.key, /unknown, revoked or expired/);
  });

  it('when it is run with a key no one was given, then it is refused and nothing changes', async () => {
    const operator = await personWithKey('operator');
    await refusedWithoutChange(`${operator.key.slice(0, -4)}AAAA`, /unknown, revoked or expired/);
  });
});

describe('approving a request made from the CLI', () => {
  it('when its maker approves it with their own key, then it is refused and it stays a request', async () => {
    const approver = await personWithKey('approver');
    const asked = await runCliAs(api.current.adminUrl, approver.key, [...credit('SELF-1'), '--json']);
    expect(asked.status).toBe(EXIT_OK);
    const { approvalId } = JSON.parse(asked.stdout) as { approvalId: string };
    const before = await world();

    const self = await runCliAs(api.current.adminUrl, approver.key, ['approval', 'approve', '--id', approvalId]);
    expect(self.status).toBe(EXIT_FAILED);
    expect(self.stderr).toMatch(/not allowed/i);
    expect(await world()).toEqual(before);
    expect((await db.approvalRequest.findUniqueOrThrow({ where: { id: BigInt(approvalId) } })).state).toBe('REQUESTED');
  });

  it('when an operator (who may not approve) approves with their key, then it is refused and audited', async () => {
    const { makerKey, maker } = await fourEyes();
    const asked = await runCliAs(api.current.adminUrl, makerKey, [...credit('SELF-2'), '--json']);
    const { approvalId } = JSON.parse(asked.stdout) as { approvalId: string };
    const before = await world();
    const refused = await runCliAs(api.current.adminUrl, makerKey, ['approval', 'approve', '--id', approvalId]);
    expect(refused.status).toBe(EXIT_FAILED);
    expect(refused.stderr).toMatch(/may not do this \(approve\)/);
    expect(await world()).toEqual(before);
    expect(
      await db.operatorAction.count({ where: { action: 'access.refused', actor: `cli:${maker}` } }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('when the maker cancels it with their key, then it is cancelled and the approver can no longer approve it', async () => {
    const { makerKey, approverKey } = await fourEyes();
    const asked = await runCliAs(api.current.adminUrl, makerKey, [...credit('CANCEL-1'), '--json']);
    const { approvalId } = JSON.parse(asked.stdout) as { approvalId: string };
    const cancelled = await runCliAs(api.current.adminUrl, makerKey, [
      'approval',
      'cancel',
      '--id',
      approvalId,
      '--json',
    ]);
    expect(cancelled.status).toBe(EXIT_OK);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ id: approvalId, state: 'CANCELLED' });
    const before = await world();
    const late = await runCliAs(api.current.adminUrl, approverKey, ['approval', 'approve', '--id', approvalId]);
    expect(late.status).toBe(EXIT_FAILED);
    expect(await world()).toEqual(before);
  });

  it('when someone else cancels a request, then it is refused; the approver rejects it with a note and it never runs', async () => {
    const { makerKey, approverKey, approver } = await fourEyes();
    const asked = await runCliAs(api.current.adminUrl, makerKey, [...credit('REJECT-1'), '--json']);
    const { approvalId } = JSON.parse(asked.stdout) as { approvalId: string };
    const before = await world();
    const notTheirs = await runCliAs(api.current.adminUrl, approverKey, ['approval', 'cancel', '--id', approvalId]);
    expect(notTheirs.status).toBe(EXIT_FAILED);
    const rejected = await runCliAs(api.current.adminUrl, approverKey, [
      'approval',
      'reject',
      '--id',
      approvalId,
      '--note',
      'no such transfer',
      '--json',
    ]);
    expect(rejected.status).toBe(EXIT_OK);
    expect(JSON.parse(rejected.stdout)).toMatchObject({
      state: 'REJECTED',
      decidedBy: approver,
      note: 'no such transfer',
    });
    expect(await world()).toEqual(before);
  });
});
