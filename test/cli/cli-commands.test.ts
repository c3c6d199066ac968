import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet, ledgerBalances, type PrismaClient } from '@payout/db';
import { hashToken } from '@payout/domain';
import { newMerchantToken, type MerchantToken } from '@payout/client';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '@payout/cli';
import { useApi } from '../support/api.js';
import { fourEyes, runCliAs, type CliResult } from '../support/approvals.js';
import { testPrisma } from '../support/database.js';

// `pnpm cli` as operators use it: every command that acts as a person goes to the admin listener with that
// person's own key (docs/operations.md, "Security model"); the reports read the database.

const api = useApi();
let prisma: PrismaClient;
let maker: string;
let approver: string;
let makerKey: string;
let approverKey: string;
beforeAll(async () => {
  prisma = testPrisma();
  ({ maker, approver, makerKey, approverKey } = await fourEyes());
});
afterAll(async () => {
  await prisma.$disconnect();
});

/** The CLI run by the maker (or by whoever's key is given). */
function cli(...argv: string[]): Promise<CliResult> {
  return runCliAs(api.current.adminUrl, makerKey, argv);
}
function cliAs(key: string, ...argv: string[]): Promise<CliResult> {
  return runCliAs(api.current.adminUrl, key, argv);
}

/** A money command asked for by the maker, then approved by the approver: the request's and the approval's output. */
async function askedAndApproved(...argv: string[]): Promise<{ asked: CliResult; approved: CliResult }> {
  const asked = await cli(...argv, '--json');
  expect(asked.status).toBe(EXIT_OK);
  const { approvalId } = JSON.parse(asked.stdout) as { approvalId: string };
  const approved = await cliAs(approverKey, 'approval', 'approve', '--id', approvalId, '--json');
  return { asked, approved };
}

/** The flags of `merchant create` and `token reissue` for a token the merchant made itself. */
const madeToken = (made: MerchantToken) => ['--token-digest', made.sha256, '--token-prefix', made.prefix];

/** A merchant onboarded as operators do: asked for by the maker with its own token's digest, approved by the approver. */
async function createMerchant(name = 'Acme'): Promise<{ mid: string; token: string }> {
  const made = await newMerchantToken();
  const { asked, approved } = await askedAndApproved('merchant', 'create', '--name', name, ...madeToken(made));
  expect(approved.status, approved.stderr).toBe(EXIT_OK);
  return { mid: (JSON.parse(asked.stdout) as { preview: { mid: string } }).preview.mid, token: made.token };
}

describe('pnpm cli', () => {
  it('when a merchant is asked for with --json and approved, then its MID is drawn, its own token is stored only hashed, and the audit log names both people', async () => {
    const made = await newMerchantToken();
    const { asked, approved } = await askedAndApproved('merchant', 'create', '--name', 'Acme', ...madeToken(made));
    const request = JSON.parse(asked.stdout) as { action: string; preview: { mid: string } };
    expect(request.action).toBe('merchant.create');
    const { mid } = request.preview;
    expect(mid).toMatch(/^M[0-9]{12}$/);
    expect(JSON.parse(approved.stdout)).toMatchObject({ state: 'EXECUTED', decidedBy: approver, outcome: { mid } });
    const stored = await prisma.merchantToken.findMany({ where: { merchant: { mid } } });
    expect(stored.map((t) => t.tokenHash)).toEqual([hashToken(made.token)]);
    const entry = await prisma.operatorAction.findFirstOrThrow({
      where: { action: 'merchant.create', merchant: { mid } },
    });
    expect(entry.actor).toBe(`cli:${approver}`);
    expect(entry.detail).toMatchObject({ requestedBy: maker, approvedBy: approver, tokenPrefix: made.prefix });
    const records = JSON.stringify([asked, approved, entry], (_k, v: unknown) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    expect(records).not.toContain(made.token);
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
    const second = await cli(...credit, '--json');
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
    const audited = await prisma.operatorAction.findMany({
      where: { merchantId: merchant.id, action: { in: ['approval.request', 'approval.approve', 'wallet.credit'] } },
      orderBy: { id: 'asc' },
    });
    expect(audited.map((a) => [a.action, a.actor]).sort()).toEqual([
      ['approval.approve', `cli:${approver}`],
      ['approval.request', `cli:${maker}`],
      ['wallet.credit', `cli:${approver}`],
    ]);
  });

  it('when concurrent requests share a reference and are all approved, then exactly one credits and the others fail', async () => {
    const { mid } = await createMerchant();
    const ids = [];
    for (let i = 0; i < 4; i++) {
      const asked = await cli('wallet', 'credit', '--mid', mid, '--amount', '5.00', '--reference', 'R', '--json');
      ids.push((JSON.parse(asked.stdout) as { approvalId: string }).approvalId);
    }
    const results = await Promise.all(ids.map((id) => cliAs(approverKey, 'approval', 'approve', '--id', id, '--json')));
    expect(results.map((r) => r.status).sort()).toEqual([EXIT_OK, EXIT_FAILED, EXIT_FAILED, EXIT_FAILED]);
    const merchant = await prisma.merchant.findUniqueOrThrow({ where: { mid } });
    expect((await findWallet(prisma, merchant.id))?.availablePaise).toBe(500n);
    expect(await prisma.approvalRequest.count({ where: { merchantId: merchant.id, state: 'FAILED' } })).toBe(3);
  });

  it('when a reference is reused for another amount, then it fails and nothing changes', async () => {
    const { mid } = await createMerchant();
    await askedAndApproved('wallet', 'credit', '--mid', mid, '--amount', '10.00', '--reference', 'R1');
    const result = await cli('wallet', 'credit', '--mid', mid, '--amount', '20.00', '--reference', 'R1');
    expect(result.status).toBe(EXIT_FAILED);
    expect(result.stderr).toMatch(/already used for a credit of 10.00/);
    const merchant = await prisma.merchant.findUniqueOrThrow({ where: { mid } });
    expect((await findWallet(prisma, merchant.id))?.availablePaise).toBe(1000n);
  });

  it('when a lost token is replaced, then only the merchant-made one is active, and staff may still revoke a token alone', async () => {
    const { mid, token } = await createMerchant();
    const made = await newMerchantToken();
    const { approved } = await askedAndApproved('token', 'reissue', '--mid', mid, ...madeToken(made));
    const fresh = JSON.parse(approved.stdout) as { outcome: { tokenId: number; revoked: string[] } };
    expect(fresh.outcome.revoked).toEqual([token.slice(0, 10)]);
    const active = async () =>
      (await prisma.merchantToken.findMany({ where: { merchant: { mid }, revokedAt: null } })).map((t) => t.tokenHash);
    expect(await active()).toEqual([hashToken(made.token)]);
    expect(approved.stdout).not.toContain(made.token);

    const list = JSON.parse((await cli('token', 'list', '--mid', mid, '--json')).stdout) as {
      tokens: { id: number; prefix: string; revokedAt: string | null }[];
    };
    expect(list.tokens.map((t) => [t.prefix, t.revokedAt === null])).toEqual([
      [token.slice(0, 10), false],
      [made.prefix, true],
    ]);
    const old = list.tokens[0]!;
    expect((await cli('token', 'revoke', '--mid', mid, '--id', String(old.id))).status).toBe(EXIT_FAILED);
    const byPrefix = await cli('token', 'revoke', '--mid', mid, '--prefix', made.prefix, '--json');
    expect(byPrefix.status).toBe(EXIT_OK);
    expect(JSON.parse(byPrefix.stdout)).toMatchObject({ mid, id: fresh.outcome.tokenId, prefix: made.prefix });
    expect(await active()).toEqual([]);
  });

  it('when a merchant is suspended and activated, then its status follows and the audit log names who did it', async () => {
    const { mid } = await createMerchant();
    const suspended = await cli('merchant', 'suspend', '--mid', mid, '--note', 'chargeback storm', '--json');
    expect(JSON.parse(suspended.stdout).status).toBe('SUSPENDED');
    expect(JSON.parse((await cli('merchant', 'activate', '--mid', mid, '--json')).stdout).status).toBe('ACTIVE');
    const entries = await prisma.operatorAction.findMany({
      where: { merchant: { mid }, action: { in: ['merchant.suspend', 'merchant.activate'] } },
      orderBy: { id: 'asc' },
    });
    expect(entries.map((e) => [e.action, e.actor, e.reason])).toEqual([
      ['merchant.suspend', `cli:${maker}`, 'chargeback storm'],
      ['merchant.activate', `cli:${maker}`, 'activated from the CLI'],
    ]);
  });

  it('when a merchant’s queueing is changed, then it shows the new settings and the audit log names who changed it', async () => {
    const { mid } = await createMerchant();
    const updated = await cli(
      'merchant',
      'update',
      '--mid',
      mid,
      '--queue-if-low-balance',
      'on',
      '--queue-window',
      '3d',
      '--json',
    );
    expect(updated.status).toBe(EXIT_OK);
    expect(JSON.parse(updated.stdout)).toMatchObject({ mid, queueIfLowBalance: 'on', queueWindow: '72h' });
    const entry = await prisma.operatorAction.findFirstOrThrow({
      where: { action: 'merchant.queue-settings', merchant: { mid } },
    });
    expect(entry).toMatchObject({
      actor: `cli:${maker}`,
      detail: { queueIfLowBalance: true, queueWindowSeconds: 259_200 },
    });
  });

  it('when an explicit MID is taken, then create fails without a second merchant', async () => {
    const { mid } = await createMerchant();
    const made = await newMerchantToken();
    const again = await cli('merchant', 'create', '--name', 'Other', '--mid', mid, ...madeToken(made));
    expect(again.status).toBe(EXIT_FAILED);
    expect(again.stderr).toMatch(/already taken/);
    expect(await prisma.merchant.count({ where: { mid } })).toBe(1);
  });

  it('when the table form is asked for, then it prints readable columns', async () => {
    const result = await cli('merchant', 'create', '--name', 'Table Co', ...madeToken(await newMerchantToken()));
    expect(result.stdout).toMatch(/^id\s+action\s+state/m);
    expect(result.stdout).toMatch(/merchant\.create\s+REQUESTED/);
  });

  it.each([
    [['merchant', 'create']],
    [['merchant', 'create', '--name', 'x', '--mid', 'bad mid']],
    [['merchant', 'create', '--name', 'x', '--token-digest', 'abc', '--token-prefix', 'pgt_abcdef']],
    [['token', 'reissue', '--mid', 'M1', '--token-digest', 'a'.repeat(64)]],
    [['wallet', 'credit', '--mid', 'M1', '--amount', '10.001', '--reference', 'r']],
    [['wallet', 'credit', '--mid', 'M1', '--amount', '-5', '--reference', 'r']],
    [['wallet', 'credit', '--mid', 'M1', '--amount', '5']],
    [['wallet', 'credit', '--mid', 'M1', '--amount', '5.00', '--reference', 'r', '--operator', 'x']],
    [['approval', 'approve', '--id', '0']],
    [['approval', 'approve', '--id', '1', '--operator', 'x']],
    [['approval', 'reject', '--id', '1']],
    [['token', 'revoke', '--mid', 'M1', '--id', 'abc']],
    [['token', 'revoke', '--mid', 'M1']],
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
    expect(result.stderr).toMatch(/no merchant with MID NOPE_NOT_HERE/i);
  });

  it('when help is asked for, then it lists the deployment commands apart from those that act as a person', async () => {
    const out: string[] = [];
    const { runCli } = await import('@payout/cli');
    const status = await runCli(['--help'], {
      openDb: () => {
        throw new Error('help needs no database');
      },
      openQueue: () => {
        throw new Error('help needs no queue');
      },
      stdout: (line) => out.push(line),
      stderr: (line) => out.push(line),
    });
    expect(status).toBe(EXIT_OK);
    expect(out.join('\n')).toMatch(/Deployment commands[\s\S]*reconcile[\s\S]*act as a person[\s\S]*wallet credit/);
  });
});
