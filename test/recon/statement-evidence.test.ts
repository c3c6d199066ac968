import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { useApi } from '../support/api.js';
import { statementApplied, statementPeople } from '../support/approvals.js';
import { cliConfigSchema, loadConfig } from '@payout/config';
import { settleFailure, settleSuccess, type PayoutSummary } from '@payout/db';
import { formatStatement, parseStatement, type StatementLine } from '@payout/recon';
import { applyStatementActions, reconcileStatement, type StatementRunRequest } from '@payout/use-cases';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { expectBooksBalanced, merchantBooks } from '../support/ledger-checks.js';
import { cli, payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { cliWithStatementLimit, istToday, statementFile } from './statement-support.js';

// A bank statement is evidence, not an order (docs/reconciliation.md): a line that cannot be true is a break
// and moves nothing, an oversized file is refused before it is read, every change a statement makes names
// the run and the line it came from, and a plan is applied only to payouts still where it found them.
// Every payout of the file's database settled today is on each statement's date, so a test looks only at
// the breaks of its own payouts.

const api = useApi();
const prisma = testPrisma();
const pool = testPool();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const note = { reason: 'test: the worker settled it', actor: 'test' };
type Line = Omit<StatementLine, 'lineNumber'>;
const debit = (payout: PayoutSummary, utr: string, valueDate = istToday()): Line => ({
  reference: payout.ackNo,
  utr,
  amountPaise: payout.amountPaise,
  type: 'DEBIT',
  valueDate,
});
const returned = (payout: PayoutSummary, utr: string, valueDate = istToday()): Line => ({
  ...debit(payout, utr, valueDate),
  type: 'RETURN',
});

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
  return {
    ...result,
    report: JSON.parse(result.stdout) as {
      runId: string;
      counts: Record<string, number>;
      breaks: { kind: string; reference: string }[];
    },
  };
}

/** The breaks of these payouts only. */
function breaksOf<B extends { reference: string }>(breaks: readonly B[], ...payouts: PayoutSummary[]): B[] {
  return breaks.filter((b) => payouts.some((p) => p.ackNo === b.reference));
}

async function stateOf(id: bigint): Promise<string> {
  const { rows } = await pool.query<{ state: string }>('SELECT state::text FROM payouts WHERE id = $1', [id]);
  return rows[0]!.state;
}

async function statementRuns(): Promise<number> {
  return (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM statement_runs')).rows[0]!.n;
}

/** A statement request for `lines`, as the CLI makes it, planning only. */
function request(lines: Line[]): StatementRunRequest {
  const parsed = parseStatement(formatStatement(lines));
  if (!parsed.ok) throw new Error(parsed.message);
  return {
    lines: parsed.lines,
    valueDates: parsed.valueDates,
    fileDigest: 'a'.repeat(64),
    fileName: 'statement.csv',
    actor: 'operator:asha',
    recordDiscrepancies: false,
  };
}

describe('a statement line that cannot be true', () => {
  it('when a RETURN is dated before the payout was sent, or a DEBIT or RETURN after today, then each is a break of its own kind and --apply moves nothing', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    // Sent to the rail and paid today; the statement says its money came back in 2020.
    const paidToday = await payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });
    await settleSuccess(prisma, paidToday.id, 'UTRPAIDTODAY1', note);
    // Still at the rail; the statement says the bank paid it in 2099.
    const pending = await payoutAtTheRail(prisma, merchant, { amountPaise: 10200n });
    // Paid; the statement says its money will come back in 2099.
    const paid = await payoutAtTheRail(prisma, merchant, { amountPaise: 10300n });
    await settleSuccess(prisma, paid.id, 'UTRPAID2', note);
    const path = await statementFile(
      formatStatement([
        debit(paidToday, 'UTRPAIDTODAY1'),
        returned(paidToday, 'RET2020', '2020-01-15'),
        debit(pending, 'PAY2099', '2099-01-01'),
        debit(paid, 'UTRPAID2'),
        returned(paid, 'RET2099', '2099-01-01'),
      ]),
    );
    const walletBefore = (await merchantBooks(pool, merchant.merchant.id)).available;

    const run = await recon(path, '--apply');

    expect(run.status).toBe(1);
    expect(run.report.counts).toMatchObject({ matched: 2, return_before_sent: 1, value_date_in_future: 2, applied: 0 });
    expect(breaksOf(run.report.breaks, paidToday, pending, paid).map((b) => [b.kind, b.reference])).toEqual([
      ['return_before_sent', paidToday.ackNo],
      ['value_date_in_future', pending.ackNo],
      ['value_date_in_future', paid.ackNo],
    ]);
    expect([await stateOf(paidToday.id), await stateOf(pending.id), await stateOf(paid.id)]).toEqual([
      'SUCCESS',
      'SUBMITTING',
      'SUCCESS',
    ]);
    expect((await merchantBooks(pool, merchant.merchant.id)).available).toBe(walletBefore);
    const { rows } = await pool.query('SELECT 1 FROM discrepancies WHERE payout_id = ANY($1::bigint[])', [
      [paidToday.id, pending.id, paid.id].map(String),
    ]);
    expect(rows).toEqual([]);
  });
});

describe('an oversized statement file', () => {
  it('when the file is larger than STATEMENT_MAX_BYTES, then it is refused whole (exit 2) and nothing is stored or applied', async () => {
    // The CLI's defaults, as production has them (where the development key for second factors is refused).
    const production = { SECOND_FACTOR_KEY: randomBytes(32).toString('hex') };
    expect(loadConfig(cliConfigSchema, production).STATEMENT_MAX_BYTES).toBe(50 * 1024 * 1024);
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const pending = await payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });
    const text = formatStatement([debit(pending, 'UTROVERSIZE1')]);
    const path = await statementFile(text);
    const runsBefore = await statementRuns();

    const refused = await cliWithStatementLimit(
      Buffer.byteLength(text) - 1,
      'recon',
      'statement',
      '--file',
      path,
      '--apply',
    );

    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /is [0-9]+ bytes, more than the [0-9]+ a statement may have \(STATEMENT_MAX_BYTES\)/,
    );
    expect(await statementRuns()).toBe(runsBefore);
    expect(await stateOf(pending.id)).toBe('SUBMITTING');

    // The same file within the limit is read and applied.
    const accepted = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', path);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ counts: { applied: 1 } });
    expect(await stateOf(pending.id)).toBe('SUCCESS');
  });
});

describe('where a settlement or a reversal came from', () => {
  it("when --apply settles a payout and reverses another, then each payout's event names the statement run and line", async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const pending = await payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });
    const paid = await payoutAtTheRail(prisma, merchant, { amountPaise: 10200n });
    await settleSuccess(prisma, paid.id, 'UTRPROV2', note);
    // Line 2: the bank paid the pending payout; line 3: paid's DEBIT; line 4: paid's money came back.
    const path = await statementFile(
      formatStatement([debit(pending, 'UTRPROV1'), debit(paid, 'UTRPROV2'), returned(paid, 'RETPROV2')]),
    );

    const run = await recon(path, '--apply');

    expect(run.report.counts).toMatchObject({ matched: 1, pending_here_paid_at_bank: 1, return: 1, applied: 2 });
    expect(breaksOf(run.report.breaks, pending, paid)).toEqual([]);
    const { rows: events } = await pool.query<{ payout_id: string; reason: string; rail_answer: unknown }>(
      `SELECT payout_id::text, reason, rail_answer FROM payout_events
        WHERE payout_id = ANY($1::bigint[]) AND to_state IN ('SUCCESS', 'REVERSED') AND actor = $2
        ORDER BY id`,
      [[pending.id, paid.id].map(String), `operator:${(await statementPeople()).approver.username}`],
    );
    expect(events).toEqual([
      {
        payout_id: String(pending.id),
        reason: `statement run ${run.report.runId} line 2: the bank paid it (UTR UTRPROV1)`,
        rail_answer: expect.objectContaining({ statementRunId: run.report.runId, lineNumber: 2, utr: 'UTRPROV1' }),
      },
      {
        payout_id: String(paid.id),
        reason: `statement run ${run.report.runId} line 4: the money came back (UTR RETPROV2) (reported by statement)`,
        rail_answer: expect.objectContaining({ statementRunId: run.report.runId, lineNumber: 4, type: 'RETURN' }),
      },
    ]);
    const { rows: runs } = await pool.query<{ applied: boolean; applied_by: string; applied_at: Date | null }>(
      'SELECT applied, applied_by, applied_at FROM statement_runs WHERE id = $1',
      [run.report.runId],
    );
    expect(runs).toEqual([
      {
        applied: true,
        applied_by: `operator:${(await statementPeople()).approver.username}`,
        applied_at: expect.any(Date),
      },
    ]);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });
});

describe('applyStatementActions', () => {
  it('when one planned payout moved after the run was matched, then nothing is applied and the answer names it', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const first = await payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });
    const second = await payoutAtTheRail(prisma, merchant, { amountPaise: 10200n });
    const report = await reconcileStatement(prisma, request([debit(first, 'UTRPLAN1'), debit(second, 'UTRPLAN2')]));
    expect(report.plannedActions.map((a) => [a.ackNo, a.kind, a.lineNumber, a.expectedState])).toEqual([
      [first.ackNo, 'settle-success', 2, 'SUBMITTING'],
      [second.ackNo, 'settle-success', 3, 'SUBMITTING'],
    ]);
    // Meanwhile the worker heard the rail refuse the second one.
    await settleFailure(prisma, second.id, 'RAIL_REJECTED', note);

    const outcome = await prisma.$transaction((tx) =>
      applyStatementActions(tx, { runId: report.runId, actions: report.plannedActions, actor: 'operator:ravi' }),
    );

    expect(outcome).toEqual({
      kind: 'moved',
      payouts: [{ ackNo: second.ackNo, expected: 'SUBMITTING', now: 'FAILED' }],
    });
    expect(await stateOf(first.id)).toBe('SUBMITTING');
    const { rows } = await pool.query('SELECT applied, applied_at FROM statement_runs WHERE id = $1', [report.runId]);
    expect(rows).toEqual([{ applied: false, applied_at: null }]);
  });

  it('when every planned payout is where the plan found it, then all are applied in the transaction and the run keeps what is left', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const pending = await payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });
    const paid = await payoutAtTheRail(prisma, merchant, { amountPaise: 10200n });
    await settleSuccess(prisma, paid.id, 'UTRAPPLY2', note);
    const report = await reconcileStatement(
      prisma,
      request([debit(pending, 'UTRAPPLY1'), debit(paid, 'UTRAPPLY2'), returned(paid, 'RETAPPLY2')]),
    );
    expect(breaksOf(report.breaks, pending, paid).map((b) => b.kind)).toEqual(['pending_here_paid_at_bank', 'return']);
    expect(await stateOf(pending.id)).toBe('SUBMITTING');

    const outcome = await prisma.$transaction((tx) =>
      applyStatementActions(tx, { runId: report.runId, actions: report.plannedActions, actor: 'operator:ravi' }),
    );

    expect(outcome).toMatchObject({ kind: 'applied', settled: 1, reversed: 1 });
    if (outcome.kind !== 'applied') return;
    expect(breaksOf(outcome.breaks, pending, paid)).toEqual([]);
    expect(outcome.breaks).toHaveLength(report.breaks.length - 2);
    expect([await stateOf(pending.id), await stateOf(paid.id)]).toEqual(['SUCCESS', 'REVERSED']);
    const { rows } = await pool.query<{ applied_by: string; breaks: number; break_list: unknown[]; counts: unknown }>(
      'SELECT applied_by, breaks, break_list, counts FROM statement_runs WHERE id = $1',
      [report.runId],
    );
    expect(rows).toEqual([
      {
        applied_by: 'operator:ravi',
        breaks: outcome.breaks.length,
        break_list: outcome.breaks,
        counts: expect.objectContaining({ applied: 2 }),
      },
    ]);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when an action is not one the run planned, then it refuses before changing anything', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const pending = await payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });
    const report = await reconcileStatement(prisma, request([debit(pending, 'UTRPLANNED1')]));
    const altered = report.plannedActions.map((a) => ({ ...a, utr: 'UTRSOMEONEELSE' }));

    await expect(
      prisma.$transaction((tx) =>
        applyStatementActions(tx, { runId: report.runId, actions: altered, actor: 'operator:ravi' }),
      ),
    ).rejects.toThrow(/planned no such action for line 2/);
    expect(await stateOf(pending.id)).toBe('SUBMITTING');
  });

  it('when it is not given a transaction, then it refuses before changing anything', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const pending = await payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });
    const report = await reconcileStatement(prisma, request([debit(pending, 'UTRNOTX1')]));

    await expect(
      applyStatementActions(prisma, { runId: report.runId, actions: report.plannedActions, actor: 'operator:ravi' }),
    ).rejects.toThrow(/inside a transaction/);
    expect(await stateOf(pending.id)).toBe('SUBMITTING');
  });
});
