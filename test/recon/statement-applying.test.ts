import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { settleSuccess, type PayoutSummary } from '@payout/db';
import { formatStatement, renderCamt053, renderMt940, type RenderableStatement } from '@payout/recon';
import { reconcileStatement, reconcileStatementRun, type Person } from '@payout/use-cases';
import { useApi } from '../support/api.js';
import { cliAs, statementApplied, statementPeople } from '../support/approvals.js';
import { signedInPerson } from '../support/console.js';
import { bearer, personWithKey, TEST_SECOND_FACTOR } from '../support/people.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { cli, payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { istToday, statementFile, type StatementRunJson } from './statement-support.js';

// Applying a statement (docs/reconciliation.md, "Planning and applying"): only what a bank vouches for is
// evidence — a return by the bank's transaction code, never by narration — and in production only a bank's
// statement (account, balances, number) against the configured settlement account; a report without
// --apply stores nothing; applying is a person's request through the admin listener.

const api = useApi();
// An admin listener that reads at most 4 KB of statements in one run.
const small = useApi({ STATEMENT_MAX_BYTES: '4096' });
const prisma = testPrisma();
const pool = testPool();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const note = { reason: 'test: the worker settled it', actor: 'test' };
const asha: Person = { username: 'asha', role: 'OPERATOR', via: 'cli' };
const approvals = { ttlMs: 60_000, selfApproval: false, secondFactor: TEST_SECOND_FACTOR };

/** What applying could have stored: runs, break decisions, discrepancies, requests. */
async function stored() {
  const { rows } = await pool.query<{ runs: number; decisions: number; discrepancies: number; requests: number }>(
    `SELECT (SELECT count(*)::int FROM statement_runs) AS runs,
            (SELECT count(*)::int FROM statement_break_decisions) AS decisions,
            (SELECT count(*)::int FROM discrepancies) AS discrepancies,
            (SELECT count(*)::int FROM approval_requests) AS requests`,
  );
  return rows[0]!;
}

/** A bank's statement of today for an account of this test alone, holding `entries`, with balances that add up. */
function bankStatement(entries: RenderableStatement['entries'], account = `ACCT${randomInt(1e9, 1e10)}`) {
  const opening = 100_000_000n;
  const closing = entries.reduce((b, e) => (e.type === 'DEBIT' ? b - e.amountPaise : b + e.amountPaise), opening);
  return {
    id: `STMT${randomInt(1e6, 1e7)}`,
    account,
    sequence: 7,
    statementDate: istToday(),
    currency: 'INR',
    openingBalancePaise: opening,
    closingBalancePaise: closing,
    entries,
  } satisfies RenderableStatement;
}

/** A paid payout of a fresh merchant, SUCCESS here with a UTR, its wallet as it stands. */
async function paidPayout(): Promise<PayoutSummary> {
  const merchant = await makeMerchant(prisma, { balance: '1000.00' });
  const payout = await payoutAtTheRail(prisma, merchant, { amountPaise: 10100n });
  await settleSuccess(prisma, payout.id, `4${String(randomInt(1e10, 1e11))}`, note);
  return payout;
}

describe('money in that only its narration calls a return', () => {
  it.each([
    ['MT940', (s: RenderableStatement) => renderMt940(s), 'statement.sta'],
    ['camt.053', (s: RenderableStatement) => renderCamt053(s, '08'), 'statement.xml'],
  ])(
    'when a %s credit says "REV <Ack_no>" without a return code, then applying plans no reversal: it is a break for a person',
    async (_format, render, name) => {
      const payout = await paidPayout();
      const path = await statementFile(
        render(
          bankStatement([
            {
              valueDate: istToday(),
              type: 'CREDIT',
              amountPaise: payout.amountPaise,
              bankReference: 'NEFTIN7781',
              narration: `REV ${payout.ackNo}`,
              class: 'uncoded_return',
            },
          ]),
        ),
        name,
      );
      const before = await stored();

      const run = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', path);

      expect(run.status).toBe(1);
      const report = JSON.parse(run.stdout) as StatementRunJson & { approvalId?: string };
      expect(report.plannedActions).toEqual([]);
      expect(report.approvalId).toBeUndefined();
      // Every payout paid today without a debit in this file is missing at the bank too: the lines' breaks are these.
      const lineBreaks = (report.breaks as unknown as { bank: unknown }[]).filter((b) => b.bank !== null);
      expect(lineBreaks).toEqual([
        expect.objectContaining({
          kind: 'return_without_bank_code',
          reference: payout.ackNo,
          bank: expect.objectContaining({ type: 'RETURN', amount: '101.00' }) as object,
          books: expect.objectContaining({ state: 'SUCCESS' }) as object,
        }),
      ]);
      expect((await prisma.payout.findUniqueOrThrow({ where: { id: payout.id } })).state).toBe('SUCCESS');
      expect((await stored()).requests).toBe(before.requests);
    },
  );

  it('when the same credit carries the bank’s return code, then applying asks for the reversal', async () => {
    const payout = await paidPayout();
    const path = await statementFile(
      renderMt940(
        bankStatement([
          {
            valueDate: istToday(),
            type: 'RETURN',
            amountPaise: payout.amountPaise,
            bankReference: 'NEFTIN7782',
            narration: `REV ${payout.ackNo}`,
            class: 'return',
          },
        ]),
      ),
      'statement.sta',
    );

    const run = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', path);

    expect(JSON.parse(run.stdout)).toMatchObject({ plannedActions: [{ kind: 'reverse', ackNo: payout.ackNo }] });
    expect((await prisma.payout.findUniqueOrThrow({ where: { id: payout.id } })).state).toBe('REVERSED');
  });
});

describe('applying in production', () => {
  it('when the file is our canonical CSV, then it is refused with why, and nothing is stored', async () => {
    const payout = await paidPayout();
    const text = formatStatement([
      {
        reference: payout.ackNo,
        utr: 'UTRPROD1',
        amountPaise: payout.amountPaise,
        type: 'RETURN',
        valueDate: istToday(),
      },
    ]);
    const before = await stored();

    const outcome = await reconcileStatementRun(
      { db: prisma, approvals, statements: { production: true, settlementAccount: '50200012345678' } },
      { files: [{ name: 'statement.csv', text }], by: asha },
    );

    expect(outcome).toEqual({
      kind: 'refused-file',
      why: "statement.csv: the statement (canonical-csv) has no account, no balances, no statement number: in production only a bank's statement with its account, balances and number is applied (the canonical CSV is for development and tests); nothing applied",
    });
    expect(await stored()).toEqual(before);
    expect((await prisma.payout.findUniqueOrThrow({ where: { id: payout.id } })).state).toBe('SUCCESS');
  });

  it('when STATEMENT_SETTLEMENT_ACCOUNT is unset, then nothing is applied, whatever the file, and nothing is stored', async () => {
    const text = renderMt940(bankStatement([]));
    const before = await stored();

    const outcome = await reconcileStatementRun(
      { db: prisma, approvals, statements: { production: true } },
      { files: [{ name: 'statement.sta', text }], by: asha },
    );

    expect(outcome).toMatchObject({
      kind: 'not-configured',
      why: expect.stringContaining('STATEMENT_SETTLEMENT_ACCOUNT is not set') as string,
    });
    expect(await stored()).toEqual(before);
  });

  it('when a bank’s statement is for the settlement account, then it is applied', async () => {
    const statement = bankStatement([]);
    const before = await stored();

    const outcome = await reconcileStatementRun(
      { db: prisma, approvals, statements: { production: true, settlementAccount: statement.account } },
      { files: [{ name: 'statement.sta', text: renderMt940(statement) }], by: asha },
    );

    expect(outcome.kind).toBe('reconciled');
    expect((await stored()).runs).toBe(before.runs + 1);
  });
});

describe('a report without --apply', () => {
  it('when a statement is only read, then nothing is stored: no run, no break, and no earlier break is decided', async () => {
    const payout = await paidPayout();
    const bankReference = (await prisma.payout.findUniqueOrThrow({ where: { id: payout.id } })).bankReference!;
    // An applied run of a day without the payout's debit leaves it missing at the bank.
    const earlier = await reconcileStatement(prisma, {
      lines: [],
      valueDates: [istToday()],
      fileDigest: 'e'.repeat(64),
      fileName: 'yesterday.csv',
      actor: 'cli:asha',
      recordDiscrepancies: true,
    });
    expect(earlier.breaks).toContainEqual(
      expect.objectContaining({ kind: 'success_here_missing_at_bank', reference: payout.ackNo }),
    );
    // The next file has the debit, and a line of a payout unknown here.
    const path = await statementFile(
      formatStatement([
        {
          reference: payout.ackNo,
          utr: bankReference,
          amountPaise: payout.amountPaise,
          type: 'DEBIT',
          valueDate: istToday(),
        },
        { reference: 'ZZNOTOURS42', utr: 'UTRNOTOURS42', amountPaise: 4200n, type: 'DEBIT', valueDate: istToday() },
      ]),
    );
    const before = await stored();

    const read = await cli('recon', 'statement', '--file', path, '--json');

    expect(read.status).toBe(1);
    const report = JSON.parse(read.stdout) as StatementRunJson & { runId: string | null };
    expect(report.runId).toBeNull();
    expect(report.breaks.map((b) => b.kind)).toContain('unknown_reference');
    expect(await stored()).toEqual(before);
    const position = earlier.breaks.findIndex((b) => b.reference === payout.ackNo) + 1;
    expect(
      await prisma.statementBreakDecision.findUnique({
        where: { runId_position: { runId: earlier.runId, position } },
      }),
    ).toBeNull();
  });
});

describe('POST /admin/statements', () => {
  it('when no person, or a support user’s key, sends a statement, then it is refused (401, 403) and nothing is stored', async () => {
    const support = await personWithKey('support');
    const before = await stored();
    const send = (headers: Record<string, string>) =>
      fetch(`${api.current.adminUrl}/admin/statements`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ files: [{ name: 'statement.sta', text: renderMt940(bankStatement([])) }] }),
      });

    expect((await send({})).status).toBe(401);
    expect((await send(bearer(support))).status).toBe(403);
    expect(await stored()).toEqual(before);
  });

  it('when an operator’s key sends a statement, then the run is stored under their name and answered as the CLI prints it', async () => {
    const operator = await personWithKey('operator');
    const payout = await paidPayout();
    const statement = bankStatement([
      {
        valueDate: istToday(),
        type: 'RETURN',
        amountPaise: payout.amountPaise,
        bankReference: 'NEFTIN7783',
        narration: `RETURN ${payout.ackNo}`,
        class: 'return',
      },
    ]);

    const res = await fetch(`${api.current.adminUrl}/admin/statements`, {
      method: 'POST',
      headers: { ...bearer(operator), 'Content-Type': 'application/json' },
      body: JSON.stringify({ files: [{ name: '/tmp/day.sta', text: renderMt940(statement) }] }),
    });

    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown> & { runId: string; approvalId: string };
    expect(body).toMatchObject({
      error: false,
      status: 'OK',
      plannedActions: [{ kind: 'reverse', ackNo: payout.ackNo, amountPaise: '10100' }],
      statements: [{ format: 'mt940', account: statement.account }],
      approval: { action: 'statement.apply', maker: operator.username, state: 'REQUESTED' },
    });
    const run = await prisma.statementRun.findUniqueOrThrow({ where: { id: BigInt(body.runId) } });
    expect(run).toMatchObject({ operator: `cli:${operator.username}`, fileName: 'day.sta', applied: false });
    expect((await prisma.payout.findUniqueOrThrow({ where: { id: payout.id } })).state).toBe('SUCCESS');
  });

  it('when the files together are larger than the listener’s STATEMENT_MAX_BYTES, then --apply is refused (exit 2) before anything is read into a run, and nothing is stored', async () => {
    const { maker } = await statementPeople();
    const entries = Array.from({ length: 120 }, (_, i) => ({
      valueDate: istToday(),
      type: 'DEBIT' as const,
      amountPaise: 590n,
      narration: `IMPS CHARGES ${i}`,
      class: 'bank_charge' as const,
    }));
    const text = renderMt940(bankStatement(entries));
    expect(text.length).toBeGreaterThan(4096);
    const path = await statementFile(text, 'statement.sta');
    const before = await stored();

    const result = await cliAs(small.current.adminUrl, maker, 'recon', 'statement', '--file', path, '--apply');

    expect(result.status).toBe(2);
    expect(result.stderr).toContain('larger than the 4096 bytes the admin listener reads (STATEMENT_MAX_BYTES');
    expect(await stored()).toEqual(before);
  });

  it('when the body names no file or the file cannot be read, then 422 with why, and nothing is stored', async () => {
    const otto = await signedInPerson(api.current.adminUrl, 'operator');
    const before = await stored();
    const send = (body: unknown) =>
      fetch(`${api.current.adminUrl}/admin/statements`, {
        method: 'POST',
        headers: { Cookie: otto.cookie, 'X-CSRF-Token': otto.csrf, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });

    expect((await send({ files: [] })).status).toBe(422);
    const unreadable = await send({ files: [{ name: 'day.csv', text: 'not,a,statement\n' }] });
    expect(unreadable.status).toBe(422);
    expect(((await unreadable.json()) as { message: string }).message).toMatch(/^day\.csv: .*; nothing applied$/);
    expect(await stored()).toEqual(before);
  });
});
