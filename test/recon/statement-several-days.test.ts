import { randomInt } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleSuccess, type PayoutSummary } from '@payout/db';
import { renderMt940, type RenderableStatement } from '@payout/recon';
import { useApi } from '../support/api.js';
import { statementApplied, statementPeople } from '../support/approvals.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { cli, payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { istToday, type StatementRunJson } from './statement-support.js';

// Several days as one run (docs/reconciliation.md, "Several days in one run"): a payout settled in the last
// moments of a day that the bank books the next day is matched when both days' statements are read
// together — by repeating --file, or with --dir and a range of days — and missing at the bank when the
// first day is read alone. A day of the range without a statement refuses the run.

const api = useApi();
const prisma = testPrisma();
const pool = testPool();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

type RunJson = StatementRunJson;

const dayBefore = (day: string, days = 1) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const account = `5020${randomInt(10 ** 9, 10 ** 10)}`;

/** A payout of ours settled SUCCESS at `settledAt` (an IST wall-clock time). */
async function settledAt(merchant: Awaited<ReturnType<typeof makeMerchant>>, at: string): Promise<PayoutSummary> {
  const payout = await payoutAtTheRail(prisma, merchant, { amountPaise: BigInt(randomInt(10_000, 90_000)) });
  await settleSuccess(prisma, payout.id, `${randomInt(10 ** 11, 10 ** 12)}`, { reason: 'test: paid', actor: 'test' });
  await pool.query('UPDATE payouts SET settled_at = $2 WHERE id = $1', [payout.id, `${at}+05:30`]);
  return payout;
}

type Entry = RenderableStatement['entries'][number];

/** The bank's MT940 statement of one day, numbered `sequence`, debiting each payout under our reference. */
function statementOf(date: string, sequence: number, payouts: readonly PayoutSummary[], others: Entry[] = []): string {
  const opening = 100_000_000n;
  const entries = [
    ...payouts.map((p, index): Entry => ({
      valueDate: date,
      bankReference: `HDFC${sequence}N${index}`,
      type: 'DEBIT',
      amountPaise: p.amountPaise,
      reference: p.ackNo,
      narration: `IMPS/${p.ackNo}/ASHA KUMAR`,
      class: 'payout',
    })),
    ...others,
  ];
  return renderMt940({
    id: `STMT${sequence}`,
    account,
    sequence,
    statementDate: date,
    openingBalancePaise: opening,
    closingBalancePaise: entries.reduce((balance, e) => balance - e.amountPaise, opening),
    currency: 'INR',
    entries,
  });
}

const today = istToday();
const yesterday = dayBefore(today);
let dir: string;
let merchant: Awaited<ReturnType<typeof makeMerchant>>;
let lateOne: PayoutSummary;
const path = (date: string) => join(dir, `${date}.mt940`);

beforeAll(async () => {
  merchant = await makeMerchant(prisma, { balance: '5000.00' });
  const paidYesterday = await settledAt(merchant, `${yesterday}T12:00:00`);
  lateOne = await settledAt(merchant, `${yesterday}T23:59:30`);
  dir = await mkdtemp(join(tmpdir(), 'recon-days-'));
  // Yesterday's file has the payout paid at noon; the one settled at 23:59 the bank booked today.
  await writeFile(path(yesterday), statementOf(yesterday, 41, [paidYesterday]));
  await writeFile(path(today), statementOf(today, 42, [lateOne]));
  // An older day in the same folder, outside every range read here.
  await writeFile(path(dayBefore(today, 5)), statementOf(dayBefore(today, 5), 37, []));
});

describe('pnpm cli recon statement over several days', () => {
  it('when the first day is read alone, then the payout the bank booked the next day is missing at the bank; read with the next day, it is matched', async () => {
    const alone = await cli('recon', 'statement', '--file', path(yesterday), '--json');
    // Applied, so that the run is stored under its files' names.
    const together = await statementApplied(
      api.current.adminUrl,
      'recon',
      'statement',
      '--file',
      path(yesterday),
      '--file',
      path(today),
    );

    expect(alone.status).toBe(1);
    expect((JSON.parse(alone.stdout) as RunJson).breaks).toEqual([
      expect.objectContaining({ kind: 'success_here_missing_at_bank', reference: lateOne.ackNo }),
    ]);
    expect(together.status).toBe(0);
    const report = JSON.parse(together.stdout) as RunJson;
    expect(report).toMatchObject({ counts: { matched: 2 }, breaks: [], valueDates: [yesterday, today] });
    const { rows } = await pool.query('SELECT file_name FROM statement_runs ORDER BY id DESC LIMIT 1');
    expect(rows).toEqual([{ file_name: `${yesterday}.mt940, ${today}.mt940` }]);
  });

  it('when --dir names a range of days that each have a file, then those files are one run; a day without one refuses the run', async () => {
    const range = await cli('recon', 'statement', '--dir', dir, '--from', yesterday, '--to', today, '--json');
    const gap = await cli('recon', 'statement', '--dir', dir, '--from', dayBefore(today, 2), '--to', today, '--json');

    expect(range.status).toBe(0);
    expect(JSON.parse(range.stdout)).toMatchObject({ counts: { matched: 2 }, breaks: [] });
    expect(gap.status).toBe(2);
    expect(gap.stderr).toContain(`no statement for ${dayBefore(today, 2)}`);
  });

  it("when two files have a line of the same number, then each is its own: applying the first file's settlement leaves the second file's break", async () => {
    const pending = await payoutAtTheRail(prisma, merchant, { amountPaise: BigInt(randomInt(10_000, 90_000)) });
    const stranger: Entry = {
      valueDate: today,
      bankReference: 'HDFC44X1',
      type: 'DEBIT',
      amountPaise: 12_345n,
      narration: 'TRANSFER TO A PARTY',
      class: 'unknown',
    };
    const own = await mkdtemp(join(tmpdir(), 'recon-days-'));
    const [first, second] = [join(own, 'first.mt940'), join(own, 'second.mt940')];
    await writeFile(first, statementOf(yesterday, 43, [pending]));
    await writeFile(second, statementOf(today, 44, [], [stranger]));

    const run = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', first, '--file', second);
    const report = JSON.parse(run.stdout) as RunJson & { runId: string };

    // Both are line 5 of their file: the settled one is gone from the breaks, the unknown one stays.
    expect(report.breaks.filter((b) => b.reference === pending.ackNo)).toEqual([]);
    expect(report.breaks.filter((b) => b.kind === 'unknown_reference')).toEqual([
      expect.objectContaining({ reference: 'HDFC44X1', bank: expect.objectContaining({ file: 2, line: 5 }) }),
    ]);
    const { rows } = await pool.query<{ reason: string; rail_answer: unknown }>(
      `SELECT reason, rail_answer FROM payout_events WHERE payout_id = $1 AND to_state = 'SUCCESS' AND actor = $2`,
      [pending.id, `operator:${(await statementPeople()).approver.username}`],
    );
    expect(rows).toEqual([
      {
        reason: expect.stringMatching(new RegExp(`^statement run ${report.runId} file 1 line 5: the bank paid it`)),
        rail_answer: expect.objectContaining({ statementRunId: report.runId, file: 1, lineNumber: 5 }),
      },
    ]);
  });
});
