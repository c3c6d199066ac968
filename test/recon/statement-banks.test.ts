import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '@payout/cli';
import { createPrismaClient, settleSuccess, type PayoutSummary } from '@payout/db';
import { renderMt940, type RenderableStatement } from '@payout/recon';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { istToday, statementFile, type StatementRunJson } from './statement-support.js';

// A statement is matched only against its own bank's payouts (docs/reconciliation.md, "Several banks"): the
// bank `--bank` names, or the one whose settlement account the statement is for. Another bank's payouts are
// neither matched nor missing at this bank; a statement of an account no bank has is refused.

const prisma = testPrisma();
const pool = testPool();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const PRIMARY_ACCOUNT = '50200011111111';
const SECONDARY_ACCOUNT = '50200022222222';
const BANKS = [
  { name: 'primary', settlementAccount: PRIMARY_ACCOUNT },
  { name: 'secondary', settlementAccount: SECONDARY_ACCOUNT },
];

/** `pnpm cli …` in-process with two banks configured. */
async function cliWithBanks(...argv: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, {
    statementBanks: BANKS,
    openDb: () => createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 }),
    openQueue: () => {
      throw new Error('recon statement needs no queue');
    },
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { status, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** A payout sent to `bank` and settled SUCCESS there. */
async function paidAt(bank: string, amountPaise: bigint): Promise<PayoutSummary & { utr: string }> {
  const merchant = await makeMerchant(prisma, { balance: '1000.00' });
  const payout = await payoutAtTheRail(prisma, merchant, { amountPaise });
  await pool.query('UPDATE payouts SET bank = $2 WHERE id = $1', [payout.id, bank]);
  const utr = `${Date.now()}${amountPaise}`.slice(-12);
  await settleSuccess(prisma, payout.id, utr, { reason: 'test: the bank paid it', actor: 'test' });
  return { ...payout, utr };
}

/** The bank's MT940 of today for `account`: a debit for each payout. */
function statementOf(account: string, payouts: readonly (PayoutSummary & { utr: string })[]): string {
  const debits = payouts.reduce((sum, p) => sum + p.amountPaise, 0n);
  const statement: RenderableStatement = {
    id: `STMT${account.slice(-6)}`,
    account: `SIMB0000001/${account}`,
    sequence: 1,
    statementDate: istToday(),
    currency: 'INR',
    openingBalancePaise: 100_000_000n,
    closingBalancePaise: 100_000_000n - debits,
    entries: payouts.map((p) => ({
      valueDate: istToday(),
      type: 'DEBIT' as const,
      amountPaise: p.amountPaise,
      reference: p.ackNo,
      utr: p.utr,
      bankReference: `IMPS${p.utr}`,
      narration: `IMPS/P2A/${p.utr}/${p.ackNo}/ASHA KUMAR`,
      class: 'payout' as const,
    })),
  };
  return renderMt940(statement);
}

describe('recon statement with several banks', () => {
  it('when a statement is for one bank’s settlement account, then only that bank’s payouts are matched, and another bank’s are not missing at it', async () => {
    const atSecondary = await paidAt('secondary', 31_001n);
    const alsoAtSecondary = await paidAt('secondary', 31_002n);
    const atPrimary = await paidAt('primary', 31_003n);
    // The statement names the primary bank's payout too: to the secondary bank it is no payout of its own.
    const path = await statementFile(statementOf(SECONDARY_ACCOUNT, [atSecondary, atPrimary]), 'secondary.mt940');

    const result = await cliWithBanks('recon', 'statement', '--file', path, '--json');
    const report = JSON.parse(result.stdout) as StatementRunJson;

    expect(report.counts).toMatchObject({ matched: 1, unknown_reference: 1, success_here_missing_at_bank: 1 });
    const breaks = report.breaks.map((b) => [b.kind, b.reference]);
    expect(breaks).toContainEqual(['unknown_reference', atPrimary.ackNo]);
    expect(breaks).toContainEqual(['success_here_missing_at_bank', alsoAtSecondary.ackNo]);
    expect(breaks.filter(([, reference]) => reference === atSecondary.ackNo)).toEqual([]);
    expect(result.status).toBe(1);

    // Named with --bank, the same file is the same run.
    const named = await cliWithBanks('recon', 'statement', '--file', path, '--bank', 'secondary', '--json');
    expect((JSON.parse(named.stdout) as StatementRunJson).counts).toEqual(report.counts);
  });

  it('when --bank names another bank than the statement’s account, or the account is no bank’s, then it is refused (exit 2), nothing stored', async () => {
    const payout = await paidAt('secondary', 31_004n);
    const forSecondary = await statementFile(statementOf(SECONDARY_ACCOUNT, [payout]), 'secondary.mt940');
    const forNobody = await statementFile(statementOf('50200099999999', [payout]), 'nobody.mt940');
    const runsBefore = (await pool.query('SELECT count(*)::int AS n FROM statement_runs')).rows[0] as { n: number };

    const wrongBank = await cliWithBanks('recon', 'statement', '--file', forSecondary, '--bank', 'primary');
    expect(wrongBank.status).toBe(2);
    expect(wrongBank.stderr).toContain(`not the settlement account ${PRIMARY_ACCOUNT}`);

    const noBank = await cliWithBanks('recon', 'statement', '--file', forNobody);
    expect(noBank.status).toBe(2);
    expect(noBank.stderr).toContain(
      'the statement is for account SIMB0000001/50200099999999, not the settlement account of any bank',
    );

    const unknown = await cliWithBanks('recon', 'statement', '--file', forSecondary, '--bank', 'tertiary');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no bank is called tertiary (the banks are primary, secondary)');

    const runsAfter = (await pool.query('SELECT count(*)::int AS n FROM statement_runs')).rows[0] as { n: number };
    expect(runsAfter.n).toBe(runsBefore.n);
  });
});
