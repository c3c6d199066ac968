import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleUser, createPrismaClient, findWallet, ledgerBalances, type PrismaClient } from '@payout/db';
import { hashPassword, hashToken } from '@payout/domain';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './program.js';
import { runCliCapturing, type CliRun } from './test-cli-run.js';

let prisma: PrismaClient;
// The console users who ask for money actions and approve them (names unique to this file's run).
const maker = `cli-maker-${process.pid}`;
const approver = `cli-approver-${process.pid}`;
beforeAll(async () => {
  prisma = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 2, connectTimeoutMs: 5_000 });
  const passwordHash = await hashPassword('unused-password');
  await createConsoleUser(prisma, { username: maker, role: 'OPERATOR', passwordHash });
  await createConsoleUser(prisma, { username: approver, role: 'APPROVER', passwordHash });
});
afterAll(async () => {
  await prisma.$disconnect();
});

function cli(...argv: string[]): Promise<CliRun> {
  return runCliCapturing(argv, () => {
    throw new Error('these commands do not use the queue');
  });
}

/** A money command asked for by the maker, then approved by the approver: the request's and the approval's output. */
async function askedAndApproved(...argv: string[]): Promise<{ asked: CliRun; approved: CliRun }> {
  const asked = await cli(...argv, '--operator', maker, '--json');
  expect(asked.status).toBe(EXIT_OK);
  const { approvalId } = JSON.parse(asked.stdout) as { approvalId: string };
  const approved = await cli('approval', 'approve', '--id', approvalId, '--operator', approver, '--json');
  return { asked, approved };
}

async function createMerchant(name = 'Acme'): Promise<{ mid: string; token: string }> {
  const result = await cli('merchant', 'create', '--name', name, '--json');
  expect(result.status).toBe(EXIT_OK);
  return JSON.parse(result.stdout) as { mid: string; token: string };
}

describe('pnpm cli', () => {
  it('when a merchant is created with --json, then it prints the MID and a token that is stored only hashed', async () => {
    const created = await createMerchant();
    expect(created.mid).toMatch(/^M[0-9]{12}$/);
    expect(created.token).toMatch(/^pgt_/);
    const stored = await prisma.merchantToken.findMany({ where: { merchant: { mid: created.mid } } });
    expect(stored.map((t) => t.tokenHash)).toEqual([hashToken(created.token)]);
    expect(JSON.stringify(stored)).not.toContain(created.token);
  });

  it('when a credit is asked for twice with one reference, then the approved one credits once and the ledger shows it', async () => {
    const { mid } = await createMerchant();
    const credit = ['wallet', 'credit', '--mid', mid, '--amount', '1000.00', '--reference', 'NEFT-1'];
    const { asked, approved } = await askedAndApproved(...credit);
    expect(JSON.parse(asked.stdout)).toMatchObject({
      action: 'wallet.credit',
      state: 'REQUESTED',
      maker,
      preview: { amount: '1000.00', availableBefore: '0.00', availableAfter: '1000.00' },
    });
    expect(approved.status).toBe(EXIT_OK);
    expect(JSON.parse(approved.stdout)).toMatchObject({ state: 'EXECUTED', decidedBy: approver });
    const second = await cli(...credit, '--operator', maker, '--json');
    expect(second.status).toBe(EXIT_OK);
    expect(JSON.parse(second.stdout)).toMatchObject({ credited: false, available: '1000.00' });

    const merchant = await prisma.merchant.findUniqueOrThrow({ where: { mid } });
    expect((await findWallet(prisma, merchant.id))?.availablePaise).toBe(100000n);
    expect(await ledgerBalances(prisma, merchant.id)).toEqual({
      funding: -100000n,
      mainWallet: 100000n,
      reserved: 0n,
      paidOut: 0n,
    });
  });

  it('when concurrent requests share a reference and are all approved, then exactly one credits and the others fail', async () => {
    const { mid } = await createMerchant();
    const ids = [];
    for (let i = 0; i < 4; i++) {
      const asked = await cli(
        'wallet',
        'credit',
        '--mid',
        mid,
        '--amount',
        '5.00',
        '--reference',
        'R',
        '--operator',
        maker,
        '--json',
      );
      ids.push((JSON.parse(asked.stdout) as { approvalId: string }).approvalId);
    }
    const results = await Promise.all(
      ids.map((id) => cli('approval', 'approve', '--id', id, '--operator', approver, '--json')),
    );
    expect(results.map((r) => r.status).sort()).toEqual([EXIT_OK, EXIT_FAILED, EXIT_FAILED, EXIT_FAILED]);
    const merchant = await prisma.merchant.findUniqueOrThrow({ where: { mid } });
    expect((await findWallet(prisma, merchant.id))?.availablePaise).toBe(500n);
    expect(await prisma.approvalRequest.count({ where: { merchantId: merchant.id, state: 'FAILED' } })).toBe(3);
  });

  it('when a reference is reused for another amount, then it fails and nothing changes', async () => {
    const { mid } = await createMerchant();
    await askedAndApproved('wallet', 'credit', '--mid', mid, '--amount', '10.00', '--reference', 'R1');
    const result = await cli(
      'wallet',
      'credit',
      '--mid',
      mid,
      '--amount',
      '20.00',
      '--reference',
      'R1',
      '--operator',
      maker,
    );
    expect(result.status).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/already used for a credit of 10.00/);
    const merchant = await prisma.merchant.findUniqueOrThrow({ where: { mid } });
    expect((await findWallet(prisma, merchant.id))?.availablePaise).toBe(1000n);
  });

  it('when a token is asked for and approved, then both work until the old one is revoked', async () => {
    const { mid, token } = await createMerchant();
    const { approved } = await askedAndApproved('token', 'rotate', '--mid', mid);
    const fresh = JSON.parse(approved.stdout) as { outcome: { tokenId: number }; token: string };
    const active = async () =>
      (await prisma.merchantToken.findMany({ where: { merchant: { mid }, revokedAt: null } }))
        .map((t) => t.tokenHash)
        .sort();
    expect(await active()).toEqual([hashToken(token), hashToken(fresh.token)].sort());

    const list = JSON.parse((await cli('token', 'list', '--mid', mid, '--json')).stdout) as {
      tokens: { id: number }[];
    };
    const oldId = list.tokens.find((t) => t.id !== fresh.outcome.tokenId)!.id;
    expect((await cli('token', 'revoke', '--mid', mid, '--id', String(oldId))).status).toBe(EXIT_OK);
    expect(await active()).toEqual([hashToken(fresh.token)]);
    expect((await cli('token', 'revoke', '--mid', mid, '--id', String(oldId))).status).toBe(EXIT_FAILED);
  });

  it('when a merchant is suspended and activated, then its status follows', async () => {
    const { mid } = await createMerchant();
    expect(JSON.parse((await cli('merchant', 'suspend', '--mid', mid, '--json')).stdout).status).toBe('SUSPENDED');
    expect(JSON.parse((await cli('merchant', 'activate', '--mid', mid, '--json')).stdout).status).toBe('ACTIVE');
  });

  it('when an explicit MID is taken, then create fails without a second merchant', async () => {
    const { mid } = await createMerchant();
    const again = await cli('merchant', 'create', '--name', 'Other', '--mid', mid);
    expect(again.status).toBe(EXIT_FAILED);
    expect(again.stderr).toMatch(/already taken/);
  });

  it('when the table form is asked for, then it prints readable columns', async () => {
    const result = await cli('merchant', 'create', '--name', 'Table Co');
    expect(result.stdout).toMatch(/^mid\s+name\s+status/m);
    expect(result.stdout).toMatch(/Table Co/);
  });

  it.each([
    [['merchant', 'create']],
    [['merchant', 'create', '--name', 'x', '--mid', 'bad mid']],
    [['wallet', 'credit', '--mid', 'M1', '--amount', '10.001', '--reference', 'r', '--operator', 'x']],
    [['wallet', 'credit', '--mid', 'M1', '--amount', '-5', '--reference', 'r', '--operator', 'x']],
    [['wallet', 'credit', '--mid', 'M1', '--amount', '5', '--operator', 'x']],
    [['wallet', 'credit', '--mid', 'M1', '--amount', '5.00', '--reference', 'r']],
    [['approval', 'approve', '--id', '0', '--operator', 'x']],
    [['approval', 'reject', '--id', '1', '--operator', 'x']],
    [['token', 'revoke', '--mid', 'M1', '--id', 'abc']],
    [['merchant', 'create', '--name', 'x', '--imps-limit', '600000.00']],
    [['frobnicate']],
  ])('when called as %j, then it explains and exits with status 2', async (argv) => {
    const result = await cli(...argv);
    expect(result.status).toBe(EXIT_USAGE);
    expect(result.stderr).toMatch(/error/);
  });

  it('when the MID is unknown, then it fails with status 1', async () => {
    const result = await cli('merchant', 'suspend', '--mid', 'NOPE_NOT_HERE');
    expect(result.status).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/no merchant with MID NOPE_NOT_HERE/);
  });
});
