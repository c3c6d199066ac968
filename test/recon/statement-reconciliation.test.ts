import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleFailure, settleSuccess, type PayoutSummary } from '@payout/db';
import { createRailSim, type RailSimServer } from '@payout/rail-sim';
import { parseStatement } from '@payout/recon';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { expectBooksBalanced, merchantBooks } from '../support/ledger-checks.js';
import { useApi } from '../support/api.js';
import { cliAs, statementApplied, statementPeople } from '../support/approvals.js';
import { cli, payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { bankStatement, istToday, sendToBank, statementFile } from './statement-support.js';

// The daily statement reconciliation end to end (docs/reconciliation.md): payouts really sent to the
// simulated bank, its exported statement, a few hand-edited lines, and `pnpm cli recon statement` run
// without --apply, with it, and with it again — the second apply changes nothing.

const api = useApi();
const prisma = testPrisma();
const pool = testPool();
let bank: RailSimServer;
beforeAll(async () => {
  bank = await createRailSim().listen(0);
});
afterAll(async () => {
  await bank.close();
  await prisma.$disconnect();
  await pool.end();
});

const note = { reason: 'test: the worker settled it', actor: 'test' };

interface RunJson {
  runId: string;
  counts: Record<string, number>;
  breaks: {
    kind: string;
    reference: string;
    bank: Record<string, unknown> | null;
    books: Record<string, unknown> | null;
  }[];
  earlierRuns: { id: string; applied: boolean }[];
}

/** A run of the statement; with `--apply`, its settlements and reversals asked for and approved by a second person. */
async function recon(path: string, ...flags: string[]) {
  const result = flags.includes('--apply')
    ? await statementApplied(
        api.current.adminUrl,
        'recon',
        'statement',
        '--file',
        path,
        ...flags.filter((f) => f !== '--apply'),
      )
    : await cli('recon', 'statement', '--file', path, '--json', ...flags);
  return { ...result, report: result.stdout ? (JSON.parse(result.stdout) as RunJson) : undefined };
}

async function payoutRow(id: bigint) {
  const { rows } = await pool.query<{ state: string; bank_reference: string | null }>(
    'SELECT state::text, bank_reference FROM payouts WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

describe('pnpm cli recon statement', () => {
  it('when a statement holds every kind of case, then each is classified, --apply settles only the unambiguous, and a second --apply applies nothing', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    const onBooks = async (): Promise<PayoutSummary> => payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });

    // matched: paid at the bank, SUCCESS here with its UTR.
    const matched = await onBooks();
    const matchedAtBank = await sendToBank(bank, matched);
    expect(matchedAtBank.status).toBe('SUCCESS');
    await settleSuccess(prisma, matched.id, matchedAtBank.utr!, note);
    // paid_but_failed_here: the bank paid; we settled FAILED and refunded the merchant.
    const failedHere = await onBooks();
    await sendToBank(bank, failedHere);
    await settleFailure(prisma, failedHere.id, 'RAIL_REJECTED', note);
    // pending_here_paid_at_bank: the bank paid; we never heard (still SUBMITTING).
    const pendingHere = await onBooks();
    const pendingAtBank = await sendToBank(bank, pendingHere);
    // success_here_missing_at_bank: SUCCESS here, never at the bank.
    const missingAtBank = await onBooks();
    await settleSuccess(prisma, missingAtBank.id, 'UTRNEVERPAID1', note);
    // amount_mismatch: paid and SUCCESS, but the statement's line (hand-edited) says another amount.
    const mismatched = await onBooks();
    await settleSuccess(prisma, mismatched.id, (await sendToBank(bank, mismatched)).utr!, note);
    // return: paid and SUCCESS, and the statement (hand-added line) says the money came back.
    const returned = await onBooks();
    const returnedAtBank = await sendToBank(bank, returned);
    await settleSuccess(prisma, returned.id, returnedAtBank.utr!, note);

    const exported = await bankStatement(bank);
    const parsedExport = parseStatement(exported);
    expect(parsedExport.ok && parsedExport.lines.map((l) => [l.reference, l.type])).toEqual(
      [matched, failedHere, pendingHere, mismatched, returned]
        .map((p) => [p.ackNo, 'DEBIT'])
        .sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    const today = istToday();
    const edited = exported
      .split('\n')
      .map((row) => (row.startsWith(`${mismatched.ackNo},`) ? row.replace(',101.00,', ',100.00,') : row))
      .join('\n');
    const matchedLine = exported.split('\n').find((row) => row.startsWith(`${matched.ackNo},`))!;
    const path = await statementFile(
      edited +
        `ZZUNKNOWN00000001,777766665555,55.00,DEBIT,${today}\n` +
        `${returned.ackNo},RET${returnedAtBank.utr!},101.00,RETURN,${today}\n` +
        `${matchedLine}\n`,
    );
    const wallet = async () => (await merchantBooks(pool, merchant.merchant.id)).available;

    // 1. Report only: every class found, nothing applied, nothing changed.
    const walletBefore = await wallet();
    const first = await recon(path);
    expect(first.status).toBe(1);
    expect(first.report!.counts).toEqual({
      matched: 2,
      paid_but_failed_here: 1,
      success_here_missing_at_bank: 1,
      reversed_here_missing_at_bank: 0,
      pending_here_paid_at_bank: 1,
      amount_mismatch: 1,
      unknown_reference: 1,
      return: 1,
      duplicate_line: 1,
      return_before_sent: 0,
      value_date_in_future: 0,
      suggested_match: 0,
      return_without_bank_code: 0,
      applied: 0,
    });
    expect(first.report!.breaks.map((b) => [b.kind, b.reference]).sort()).toEqual(
      [
        ['paid_but_failed_here', failedHere.ackNo],
        ['pending_here_paid_at_bank', pendingHere.ackNo],
        ['amount_mismatch', mismatched.ackNo],
        ['unknown_reference', 'ZZUNKNOWN00000001'],
        ['return', returned.ackNo],
        ['duplicate_line', matched.ackNo],
        ['success_here_missing_at_bank', missingAtBank.ackNo],
      ].sort(),
    );
    expect(first.report!.breaks.find((b) => b.kind === 'amount_mismatch')).toMatchObject({
      bank: { amount: '100.00', type: 'DEBIT', value_date: today },
      books: { state: 'SUCCESS', amount: '101.00' },
    });
    expect((await payoutRow(pendingHere.id)).state).toBe('SUBMITTING');
    expect((await payoutRow(returned.id)).state).toBe('SUCCESS');
    expect(await wallet()).toBe(walletBefore);

    // 2. --apply: the pending payout is settled with the bank's UTR, the return reversed; the rest stays.
    const second = await recon(path, '--apply');
    expect(second.status).toBe(1);
    expect(second.report!.counts).toEqual({ ...first.report!.counts, applied: 2 });
    expect(second.report!.breaks.map((b) => b.kind).sort()).toEqual([
      'amount_mismatch',
      'duplicate_line',
      'paid_but_failed_here',
      'success_here_missing_at_bank',
      'unknown_reference',
    ]);
    expect(await payoutRow(pendingHere.id)).toEqual({ state: 'SUCCESS', bank_reference: pendingAtBank.utr });
    expect(await payoutRow(returned.id)).toEqual({ state: 'REVERSED', bank_reference: returnedAtBank.utr });
    expect(await wallet()).toBe(walletBefore + 10100n);
    const { rows: discrepancies } = await pool.query(
      `SELECT kind::text, source, status::text FROM discrepancies WHERE payout_id = $1`,
      [failedHere.id],
    );
    expect(discrepancies).toEqual([{ kind: 'SUCCESS_AFTER_FAILED', source: 'statement', status: 'OPEN' }]);

    // 3. The same file again: nothing applied twice; what was applied now matches.
    const third = await recon(path, '--apply');
    expect(third.status).toBe(1);
    expect(third.report!.counts).toEqual({
      ...first.report!.counts,
      matched: 3,
      pending_here_paid_at_bank: 0,
      applied: 0,
    });
    expect(third.report!.breaks).toHaveLength(5);
    // The report of step 1 stored nothing: the runs before are the applied one and none else.
    expect(third.report!.earlierRuns.map((r) => r.applied)).toEqual([true]);
    expect(await wallet()).toBe(walletBefore + 10100n);
    expect((await payoutRow(returned.id)).state).toBe('REVERSED');

    const { rows: runs } = await pool.query<{
      applied: boolean;
      file_digest: string;
      operator: string;
      breaks: number;
    }>('SELECT applied, file_digest, operator, breaks FROM statement_runs ORDER BY id');
    const maker = expect.stringMatching(new RegExp(`:${(await statementPeople()).maker.username}$`));
    expect(runs.map((r) => [r.applied, r.operator, r.breaks])).toEqual([
      // Applied once its request was approved; the second --apply found nothing left to ask for.
      [true, maker, 5],
      [false, maker, 5],
    ]);
    expect(new Set(runs.map((r) => r.file_digest)).size).toBe(1);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when a line of the file is malformed, then the whole file is refused with its line number (exit 2) and nothing is applied or stored', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const pending = await payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });
    const paid = await sendToBank(bank, pending);
    const today = istToday();
    const path = await statementFile(
      `reference,utr,amount,type,value_date\n${pending.ackNo},${paid.utr!},101.00,DEBIT,${today}\nX,1,1.5,DEBIT,${today}\n`,
    );
    const runsBefore = (await pool.query('SELECT count(*)::int AS n FROM statement_runs')).rows[0].n as number;

    const { maker } = await statementPeople();
    const result = await cliAs(api.current.adminUrl, maker, 'recon', 'statement', '--file', path, '--apply');

    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/line 3: amount "1.5"/);
    expect((await payoutRow(pending.id)).state).toBe('SUBMITTING');
    expect((await pool.query('SELECT count(*)::int AS n FROM statement_runs')).rows[0].n).toBe(runsBefore);
  });

  it('when the file does not exist, then exit 2', async () => {
    const result = await cli('recon', 'statement', '--file', '/nonexistent/statement.csv');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/cannot read --file/);
  });

  it('when rail-sim is asked for a statement of a malformed date, then 400', async () => {
    const response = await fetch(`${bank.url}/v1/statement?date=2026-13-45`);
    expect(response.status).toBe(400);
    expect(await readFile(await statementFile(await bankStatement(bank, '2001-01-01')), 'utf8')).toBe(
      'reference,utr,amount,type,value_date\n',
    );
  });
});
