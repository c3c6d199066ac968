import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, findWallet, ledgerBalances, type PrismaClient } from '@payout/db';
import { hashToken } from '@payout/domain';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from './program.js';
import { runCliCapturing, type CliRun } from './test-cli-run.js';

let prisma: PrismaClient;
beforeAll(() => {
  prisma = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 2, connectTimeoutMs: 5_000 });
});
afterAll(async () => {
  await prisma.$disconnect();
});

function cli(...argv: string[]): Promise<CliRun> {
  return runCliCapturing(argv, () => {
    throw new Error('these commands do not use the queue');
  });
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

  it('when the wallet is credited twice with one reference, then it is credited once and the ledger shows it', async () => {
    const { mid } = await createMerchant();
    const first = await cli('wallet', 'credit', '--mid', mid, '--amount', '1000.00', '--reference', 'NEFT-1', '--json');
    const second = await cli(
      'wallet',
      'credit',
      '--mid',
      mid,
      '--amount',
      '1000.00',
      '--reference',
      'NEFT-1',
      '--json',
    );
    expect(first.status).toBe(EXIT_OK);
    expect(second.status).toBe(EXIT_OK);
    expect(JSON.parse(first.stdout)).toMatchObject({ credited: true, available: '1000.00' });
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

  it('when concurrent credits share a reference, then exactly one credits', async () => {
    const { mid } = await createMerchant();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        cli('wallet', 'credit', '--mid', mid, '--amount', '5.00', '--reference', 'R', '--json'),
      ),
    );
    expect(results.filter((r) => JSON.parse(r.stdout).credited === true)).toHaveLength(1);
    const merchant = await prisma.merchant.findUniqueOrThrow({ where: { mid } });
    expect((await findWallet(prisma, merchant.id))?.availablePaise).toBe(500n);
  });

  it('when a reference is reused for another amount, then it fails and nothing changes', async () => {
    const { mid } = await createMerchant();
    await cli('wallet', 'credit', '--mid', mid, '--amount', '10.00', '--reference', 'R1');
    const result = await cli('wallet', 'credit', '--mid', mid, '--amount', '20.00', '--reference', 'R1');
    expect(result.status).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/already used for a credit of 10.00/);
    const merchant = await prisma.merchant.findUniqueOrThrow({ where: { mid } });
    expect((await findWallet(prisma, merchant.id))?.availablePaise).toBe(1000n);
  });

  it('when a token is rotated, then both work until the old one is revoked', async () => {
    const { mid, token } = await createMerchant();
    const rotated = await cli('token', 'rotate', '--mid', mid, '--json');
    const fresh = JSON.parse(rotated.stdout) as { id: number; token: string };
    const active = async () =>
      (await prisma.merchantToken.findMany({ where: { merchant: { mid }, revokedAt: null } }))
        .map((t) => t.tokenHash)
        .sort();
    expect(await active()).toEqual([hashToken(token), hashToken(fresh.token)].sort());

    const list = JSON.parse((await cli('token', 'list', '--mid', mid, '--json')).stdout) as {
      tokens: { id: number }[];
    };
    const oldId = list.tokens.find((t) => t.id !== fresh.id)!.id;
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
    [['wallet', 'credit', '--mid', 'M1', '--amount', '10.001', '--reference', 'r']],
    [['wallet', 'credit', '--mid', 'M1', '--amount', '-5', '--reference', 'r']],
    [['wallet', 'credit', '--mid', 'M1', '--amount', '5']],
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
