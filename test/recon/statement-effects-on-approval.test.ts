import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { listStatementBreaks, settleFailure, settleSuccess, type PayoutSummary } from '@payout/db';
import { formatStatement, renderMt940, type StatementLine } from '@payout/recon';
import { useApi } from '../support/api.js';
import { fourEyes, runCliAs } from '../support/approvals.js';
import { signedInPerson } from '../support/console.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { bearer } from '../support/people.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { istToday, statementFile } from './statement-support.js';

// What a statement run found counts only once a second person approved it (docs/reconciliation.md, "When a
// run takes effect"): a run that closes an earlier break of missing money — the bank booked the payout the
// next day — or settles or reverses a payout waits for its request, and until it is approved the break stays
// open, the run's own breaks are not listed and its discrepancies are not recorded. Rejected, nothing of it
// ever counts; approved, it all takes effect in the approver's transaction, unless a break was decided
// meanwhile: then the approval is refused and nothing changes. Every payout of this database settled today
// is on each statement's date, so a test looks only at the breaks of its own payouts.

const api = useApi();
const prisma = testPrisma();
afterAll(() => prisma.$disconnect());

const note = { reason: 'test: the worker settled it', actor: 'test' };
let amounts = 0;

/** An amount no other payout of this file has. */
const uniqueAmount = () => BigInt(2000 + (process.pid % 89) * 10 + ++amounts) * 100n + 41n;

interface RunJson {
  runId: string;
  inEffect: boolean;
  breaks: { kind: string; reference: string }[];
  plannedActions: { ackNo: string }[];
  closesEarlierBreaks: { runId: string; kind: string; reference: string; lineNumber: number }[];
  approvalId?: string;
  approval?: { preview: { summary: string; closesEarlierBreaks: { run: string; ackNo: string; line: string }[] } };
}

/** A payout the bank paid late in the day: SUCCESS here, settled today, its debit on no statement yet. */
async function paidLate(merchant: TestMerchant): Promise<PayoutSummary & { utr: string }> {
  const payout = await payoutAtTheRail(prisma, merchant, { amountPaise: uniqueAmount() });
  const utr = `UTRLATE${payout.amountPaise}`;
  await settleSuccess(prisma, payout.id, utr, note);
  return { ...payout, utr };
}

function debit(payout: PayoutSummary, utr: string): Omit<StatementLine, 'lineNumber'> {
  return { reference: payout.ackNo, utr, amountPaise: payout.amountPaise, type: 'DEBIT', valueDate: istToday() };
}

/** `recon statement --apply --json` of a file as the maker (an operator): what the CLI said. */
async function applyFile(path: string) {
  const { makerKey } = await fourEyes();
  return runCliAs(api.current.adminUrl, makerKey, ['recon', 'statement', '--file', path, '--apply', '--json']);
}

/** `recon statement --apply --json` of these lines as the maker: the run as stored, and its request. */
async function applied(lines: Omit<StatementLine, 'lineNumber'>[]): Promise<RunJson> {
  const run = await applyFile(await statementFile(formatStatement(lines)));
  expect(run.stderr).not.toMatch(/refused|error/i);
  return JSON.parse(run.stdout) as RunJson;
}

/** A first day's run that calls `payout` missing at the bank: it settles nothing, so it counts at once. */
async function missingOnFirstDay(payout: PayoutSummary): Promise<RunJson> {
  const first = await applied([
    {
      reference: `ZZEFFECT${payout.amountPaise}`,
      utr: 'UTRZZEFFECT',
      amountPaise: 1n,
      type: 'DEBIT',
      valueDate: istToday(),
    },
  ]);
  expect(first.approvalId).toBeUndefined();
  expect(first.inEffect).toBe(true);
  expect(first.breaks).toContainEqual(
    expect.objectContaining({ kind: 'success_here_missing_at_bank', reference: payout.ackNo }),
  );
  return first;
}

/** `approval approve` or `reject` by the approver: the CLI's exit status and what it said. */
async function decide(decision: 'approve' | 'reject', approvalId: string) {
  const { approverKey } = await fourEyes();
  return runCliAs(api.current.adminUrl, approverKey, ['approval', decision, '--id', approvalId, '--note', 'checked']);
}

/** The payout's missing-at-the-bank break in a run, as it stands (its position moves up once the run is applied). */
async function missingBreak(runId: string, payout: PayoutSummary) {
  const run = await prisma.statementRun.findUniqueOrThrow({
    where: { id: BigInt(runId) },
    select: { breakList: true },
  });
  const breaks = run.breakList as { kind: string; reference: string }[];
  const position =
    breaks.findIndex((b) => b.kind === 'success_here_missing_at_bank' && b.reference === payout.ackNo) + 1;
  expect(position).toBeGreaterThan(0);
  const decision = await prisma.statementBreakDecision.findUnique({
    where: { runId_position: { runId: BigInt(runId), position } },
  });
  return { position, decision };
}

/** The breaks the console lists (every page) of run `runId`. */
async function listedBreaksOf(runId: string) {
  const { rows } = await listStatementBreaks(prisma, { page: 1, pageSize: 10_000, includeDecided: true });
  return rows.filter((r) => r.run.id === BigInt(runId)).map((r) => [r.item.kind, r.item.reference]);
}

const stateOf = async (payout: PayoutSummary) =>
  (await prisma.payout.findUniqueOrThrow({ where: { id: payout.id }, select: { state: true } })).state;

const discrepanciesOf = (payout: PayoutSummary) => prisma.discrepancy.count({ where: { payoutId: payout.id } });

describe('a statement run takes effect on its approval', () => {
  it('when the next day’s statement shows a payout missing from an earlier run, then the break stays open while the request waits, and closes once it is approved', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    const late = await paidLate(merchant);
    const failedHere = await payoutAtTheRail(prisma, merchant, { amountPaise: uniqueAmount() });
    await settleFailure(prisma, failedHere.id, 'RAIL_REJECTED', note);
    const first = await missingOnFirstDay(late);

    const next = await applied([debit(late, late.utr), debit(failedHere, 'UTRPAIDANYWAY1')]);

    // Closing a break of missing money asks a second person, though nothing is settled or reversed.
    expect(next.plannedActions).toEqual([]);
    expect(next.inEffect).toBe(false);
    expect(next.closesEarlierBreaks).toContainEqual(
      expect.objectContaining({ runId: first.runId, kind: 'success_here_missing_at_bank', reference: late.ackNo }),
    );
    expect(next.approval!.preview.closesEarlierBreaks).toContainEqual({
      run: first.runId,
      break: 'success_here_missing_at_bank',
      ackNo: late.ackNo,
      line: 'line 2',
    });
    expect(next.approval!.preview.summary).toContain('close');
    // While it waits: the earlier break open, the run's own breaks not listed, its discrepancy not recorded.
    expect((await missingBreak(first.runId, late)).decision).toBeNull();
    expect(await listedBreaksOf(next.runId)).toEqual([]);
    expect(await discrepanciesOf(failedHere)).toBe(0);
    const runNow = await prisma.statementRun.findUniqueOrThrow({ where: { id: BigInt(next.runId) } });
    expect(runNow).toMatchObject({ effectiveAt: null, approvalRequestId: BigInt(next.approvalId!) });
    // The breaks page names the waiting run and its request above the list.
    const support = await signedInPerson(api.current.adminUrl, 'support');
    const waitingPage = (await support.page('/console/lists/statement-breaks')).html;
    expect(waitingPage).toContain('Runs waiting for a second person');
    expect(waitingPage).toContain(`href="/console/approvals/${next.approvalId}"`);

    const approved = await decide('approve', next.approvalId!);

    expect(approved.status).toBe(0);
    expect((await missingBreak(first.runId, late)).decision).toMatchObject({
      decision: 'booked_next_day',
      decidedBy: `statement run ${next.runId} line 2`,
      payoutId: late.id,
      note: expect.stringContaining(`approval ${next.approvalId}`) as string,
    });
    expect(await listedBreaksOf(next.runId)).toContainEqual(['paid_but_failed_here', failedHere.ackNo]);
    expect(await discrepanciesOf(failedHere)).toBe(1);
    expect((await support.page('/console/lists/statement-breaks')).html).not.toContain(
      `href="/console/approvals/${next.approvalId}"`,
    );
    expect(
      (await prisma.statementRun.findUniqueOrThrow({ where: { id: BigInt(next.runId) } })).effectiveAt,
    ).not.toBeNull();
  });

  it('when a run’s break is decided while the run waits for its approval, then it is refused (409) and nothing is decided', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    const late = await paidLate(merchant);
    const failedHere = await payoutAtTheRail(prisma, merchant, { amountPaise: uniqueAmount() });
    await settleFailure(prisma, failedHere.id, 'RAIL_REJECTED', note);
    await missingOnFirstDay(late);
    const next = await applied([debit(late, late.utr), debit(failedHere, 'UTRPAIDANYWAY2')]);
    const position = next.breaks.findIndex((b) => b.reference === failedHere.ackNo) + 1;
    const { makerKey } = await fourEyes();

    const decided = await fetch(
      `${api.current.adminUrl}/admin/statements/${next.runId}/breaks/${position}/needs-bank`,
      {
        method: 'POST',
        headers: { ...bearer({ key: makerKey }), 'Content-Type': 'application/json' },
        body: JSON.stringify({ why: 'asked the bank' }),
      },
    );

    expect(decided.status).toBe(409);
    expect(await decided.text()).toContain(`waits for approval ${next.approvalId}`);
    expect(await prisma.statementBreakDecision.count({ where: { runId: BigInt(next.runId) } })).toBe(0);
  });

  it('when a later run answers the same break while the first request waits, then it asks to close it too; the first rejected, the break stays open and the second, approved, closes it', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    const late = await paidLate(merchant);
    const inFlight = await payoutAtTheRail(prisma, merchant, { amountPaise: uniqueAmount() });
    const first = await missingOnFirstDay(late);
    const waiting = await applied([debit(late, late.utr), debit(inFlight, 'UTRINFLIGHT1')]);

    // The waiting run's closure is not applied: the later run finds the break open and answers it too.
    const later = await applied([debit(late, late.utr)]);
    expect(later.closesEarlierBreaks).toContainEqual(
      expect.objectContaining({ runId: first.runId, reference: late.ackNo }),
    );

    const rejected = await decide('reject', waiting.approvalId!);
    expect(rejected.status).toBe(0);
    expect((await missingBreak(first.runId, late)).decision).toBeNull();
    expect(await stateOf(inFlight)).toBe('SUBMITTING');
    expect(await listedBreaksOf(waiting.runId)).toEqual([]);
    const rejectedRun = await prisma.statementRun.findUniqueOrThrow({ where: { id: BigInt(waiting.runId) } });
    expect(rejectedRun).toMatchObject({ effectiveAt: null, applied: false });

    const approved = await decide('approve', later.approvalId!);
    expect(approved.status).toBe(0);
    expect((await missingBreak(first.runId, late)).decision).toMatchObject({
      decision: 'booked_next_day',
      decidedBy: `statement run ${later.runId} line 2`,
    });
    // What the rejected run found never counts: its request cannot be approved any more.
    expect((await decide('approve', waiting.approvalId!)).status).not.toBe(0);
    expect(await stateOf(inFlight)).toBe('SUBMITTING');
  });

  it('when two waiting runs close the same break, then the first approved closes it and the second’s approval is refused with why, changing nothing', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    const late = await paidLate(merchant);
    const inFlight = await payoutAtTheRail(prisma, merchant, { amountPaise: uniqueAmount() });
    const first = await missingOnFirstDay(late);
    const one = await applied([debit(late, late.utr)]);
    const two = await applied([debit(late, late.utr), debit(inFlight, 'UTRINFLIGHT2')]);

    expect((await decide('approve', one.approvalId!)).status).toBe(0);
    const refused = await decide('approve', two.approvalId!);

    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('earlier breaks are no longer open as the run found them');
    expect(refused.stderr).toContain(`booked next day by statement run ${one.runId} line 2`);
    expect((await missingBreak(first.runId, late)).decision).toMatchObject({
      decidedBy: `statement run ${one.runId} line 2`,
    });
    expect(await stateOf(inFlight)).toBe('SUBMITTING');
    expect(await listedBreaksOf(two.runId)).toEqual([]);
    expect(await prisma.approvalRequest.findUniqueOrThrow({ where: { id: BigInt(two.approvalId!) } })).toMatchObject({
      state: 'FAILED',
    });
  });

  it('when a person decided the break while the run waited, then the approval is refused with why and nothing changes', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    const late = await paidLate(merchant);
    const inFlight = await payoutAtTheRail(prisma, merchant, { amountPaise: uniqueAmount() });
    const failedHere = await payoutAtTheRail(prisma, merchant, { amountPaise: uniqueAmount() });
    await settleFailure(prisma, failedHere.id, 'RAIL_REJECTED', note);
    const first = await missingOnFirstDay(late);
    const next = await applied([
      debit(late, late.utr),
      debit(inFlight, 'UTRINFLIGHT3'),
      debit(failedHere, 'UTRPAIDANYWAY3'),
    ]);
    expect(next.plannedActions.map((a) => a.ackNo)).toEqual([inFlight.ackNo]);

    // Meanwhile someone sets the break aside as not ours, with a second person's approval.
    const { makerKey } = await fourEyes();
    const { position } = await missingBreak(first.runId, late);
    const asked = await fetch(`${api.current.adminUrl}/admin/statements/${first.runId}/breaks/${position}/not-ours`, {
      method: 'POST',
      headers: { ...bearer({ key: makerKey }), 'Content-Type': 'application/json' },
      body: JSON.stringify({ why: 'the bank says it was another account' }),
    });
    expect(asked.status).toBe(202);
    const { approval } = (await asked.json()) as { approval: { id: string } };
    expect((await decide('approve', approval.id)).status).toBe(0);

    const refused = await decide('approve', next.approvalId!);

    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(`was decided meanwhile (not ours by cli:`);
    expect((await missingBreak(first.runId, late)).decision).toMatchObject({ decision: 'not_ours' });
    expect(await stateOf(inFlight)).toBe('SUBMITTING');
    expect(await discrepanciesOf(failedHere)).toBe(0);
    expect(await listedBreaksOf(next.runId)).toEqual([]);
    expect(await prisma.statementRun.findUniqueOrThrow({ where: { id: BigInt(next.runId) } })).toMatchObject({
      effectiveAt: null,
      applied: false,
    });
  });

  it('when a later run closes a break of a run still waiting, then the closure follows the break once that run is applied and its breaks move up', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    const late = await paidLate(merchant);
    const inFlight = await payoutAtTheRail(prisma, merchant, { amountPaise: uniqueAmount() });
    const waiting = await applied([debit(inFlight, 'UTRINFLIGHT4')]);
    expect(waiting.inEffect).toBe(false);
    const before = await missingBreak(waiting.runId, late);
    const later = await applied([debit(late, late.utr)]);
    expect(later.closesEarlierBreaks).toContainEqual(
      expect.objectContaining({ runId: waiting.runId, reference: late.ackNo }),
    );

    expect((await decide('approve', later.approvalId!)).status).toBe(0);
    expect((await missingBreak(waiting.runId, late)).decision).toMatchObject({ decision: 'booked_next_day' });
    expect((await decide('approve', waiting.approvalId!)).status).toBe(0);

    // The settled payout's break left the list: the late payout's break moved up, its decision with it.
    const after = await missingBreak(waiting.runId, late);
    expect(after.position).toBe(before.position - 1);
    expect(after.decision).toMatchObject({
      decision: 'booked_next_day',
      decidedBy: `statement run ${later.runId} line 2`,
    });
    const { rows } = await listStatementBreaks(prisma, { page: 1, pageSize: 10_000, includeDecided: true });
    const listed = rows.find((r) => r.run.id === BigInt(waiting.runId) && r.item.reference === late.ackNo);
    expect(listed?.decision).toMatchObject({ decision: 'booked_next_day' });
    expect(await stateOf(inFlight)).toBe('SUCCESS');
  });
});

describe('a statement number counts once its run takes effect', () => {
  // An account of this run alone, so no other test's statements count for it.
  const account = `ACCT${randomInt(1e9, 1e10)}`;

  /** The account's MT940 statement number `sequence`, of today, with these payouts' debits and a charge. */
  function statementOf(sequence: number, paid: readonly PayoutSummary[]): string {
    const entries = [
      // The bank writes the payment's UTR and our reference in the narration.
      ...paid.map(
        (p) =>
          ({
            valueDate: istToday(),
            type: 'DEBIT',
            amountPaise: p.amountPaise,
            narration: `IMPS-${`${sequence}${p.amountPaise}`.padStart(12, '0')}-${p.ackNo}`,
            class: 'payout',
          }) as const,
      ),
      {
        valueDate: istToday(),
        type: 'DEBIT',
        amountPaise: 590n,
        narration: 'CHARGES FOR IMPS',
        class: 'bank_charge',
      } as const,
    ];
    const opening = 100_000_000n;
    return renderMt940({
      id: `STMT${sequence}`,
      account,
      sequence,
      statementDate: istToday(),
      currency: 'INR',
      openingBalancePaise: opening,
      closingBalancePaise: entries.reduce((balance, e) => balance - e.amountPaise, opening),
      entries,
    });
  }

  it('when the statement before waits for its approval, then the next is refused saying so; once it is approved, the next is read', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    const inFlight = await payoutAtTheRail(prisma, merchant, { amountPaise: uniqueAmount() });
    const sixth = await applyFile(await statementFile(statementOf(6, []), 'statement-6.sta'));
    expect((JSON.parse(sixth.stdout) as RunJson).inEffect).toBe(true);
    const seventh = JSON.parse(
      (await applyFile(await statementFile(statementOf(7, [inFlight]), 'statement-7.sta'))).stdout,
    ) as RunJson;
    expect(seventh.inEffect).toBe(false);

    const early = await applyFile(await statementFile(statementOf(8, []), 'statement-8.sta'));

    expect(early.status).toBe(2);
    expect(early.stderr).toContain(
      `missing statement 7; statement 7 (run ${seventh.runId}) waits for approval ${seventh.approvalId}`,
    );
    expect((await decide('approve', seventh.approvalId!)).status).toBe(0);
    expect(await stateOf(inFlight)).toBe('SUCCESS');
    const eighth = await applyFile(await statementFile(statementOf(8, []), 'statement-8.sta'));
    expect(eighth.stderr).not.toContain('missing statement');
    expect((JSON.parse(eighth.stdout) as RunJson).inEffect).toBe(true);
  });
});
