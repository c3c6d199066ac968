import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBreaksBookedNextDay, settleSuccess, type PrismaClient } from '@payout/db';
import type { StatementLine } from '@payout/recon';
import { reconcileStatement, type StatementRunReport } from '@payout/use-cases';
import { useApi } from '../support/api.js';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { signedInPerson, type ConsolePerson } from '../support/console.js';
import { bearer, freshSecondFactorCode, personWithKey } from '../support/people.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';

// The breaks page (docs/reconciliation.md, "The breaks page"): a person decides what a statement's break is.
// "Not ours" and "needs the bank" are an operator's alone; a match that settles or reverses a payout is a
// request that a second person approves, and it runs only while the payout is where the match found it.
// Support reads and is refused. The next day's statement closes the break of a payout the bank booked late.

const api = useApi();
let db: PrismaClient;
let merchant: TestMerchant;
let otto: ConsolePerson; // an operator
let asha: ConsolePerson; // an approver who asks
let kiran: ConsolePerson; // a second approver
let sunita: ConsolePerson; // support

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
let digests = 0;
let amounts = 0;

/** An amount no other payout of this file has: its line's candidates are exactly the payouts given it. */
const uniqueAmount = () => BigInt(1000 + (process.pid % 97) * 10 + ++amounts) * 100n + 37n;

beforeAll(async () => {
  db = testPrisma();
  merchant = await makeMerchant(db, { balance: '100000.00' });
  const url = api.current.adminUrl;
  // One after another: sign-in limits how many password hashes compute at once.
  otto = await signedInPerson(url, 'operator');
  asha = await signedInPerson(url, 'approver');
  kiran = await signedInPerson(url, 'approver');
  sunita = await signedInPerson(url, 'support');
});
afterAll(() => db.$disconnect());

/** Runs a statement of these lines (lines 2, 3, … in order) dated today. */
function runStatement(lines: Omit<StatementLine, 'lineNumber' | 'valueDate'>[]): Promise<StatementRunReport> {
  return reconcileStatement(db, {
    lines: lines.map((l, i) => ({ ...l, lineNumber: i + 2, valueDate: today })),
    valueDates: [today],
    fileDigest: (++digests).toString(16).padStart(64, 'c'),
    fileName: 'statement.csv',
    actor: 'operator:test',
    recordDiscrepancies: false,
    today,
  });
}

/** The 1-based position in the run's breaks of the break of `reference`, and its path's stem. */
function breakOf(run: StatementRunReport, reference: string) {
  const position = run.breaks.findIndex((b) => b.reference === reference) + 1;
  expect(position).toBeGreaterThan(0);
  return { position, path: `/console/statement-breaks/${run.runId}/${position}` };
}

const decisionOf = (runId: bigint, position: number) =>
  db.statementBreakDecision.findUnique({ where: { runId_position: { runId, position } } });

const payoutNow = (id: bigint) =>
  db.payout.findUniqueOrThrow({ where: { id }, select: { state: true, bankReference: true } });

describe('the statement breaks page', () => {
  it('when an operator says "needs the bank" and then "not ours", then the break waits, then leaves the open list, each step audited', async () => {
    const run = await runStatement([
      { reference: 'ZZNOTOURS1', utr: 'UTRNOTOURS1', amountPaise: uniqueAmount(), type: 'DEBIT' },
    ]);
    const { position, path } = breakOf(run, 'ZZNOTOURS1');

    expect((await otto.post(`${path}/needs-bank`, { why: '' })).status).toBe(422);
    expect(await decisionOf(run.runId, position)).toBeNull();

    expect((await otto.post(`${path}/needs-bank`, { why: 'HDFC ticket 5521' })).status).toBe(303);
    expect((await decisionOf(run.runId, position))?.decision).toBe('needs_bank');
    const waiting = await otto.page('/console/lists/statement-breaks');
    expect(waiting.html).toContain('ZZNOTOURS1');
    expect(waiting.html).toContain('needs bank');

    expect((await otto.post(`${path}/not-ours`, { why: 'HDFC: a charge on another account' })).status).toBe(303);
    const decided = await decisionOf(run.runId, position);
    expect(decided).toMatchObject({ decision: 'not_ours', decidedBy: `console:${otto.username}`, payoutId: null });
    expect((await otto.page('/console/lists/statement-breaks')).html).not.toContain('ZZNOTOURS1');
    const withDecided = await otto.page('/console/lists/statement-breaks?decided=1');
    expect(withDecided.html).toContain('ZZNOTOURS1');
    expect(withDecided.html).toContain('HDFC: a charge on another account');

    const again = await otto.post(`${path}/needs-bank`, { why: 'once more' });
    expect(again.status).toBe(409);
    expect((await decisionOf(run.runId, position))?.decision).toBe('not_ours');
    const audited = await db.operatorAction.findMany({
      where: { actor: `console:${otto.username}`, action: 'statement.decide-break' },
      orderBy: { id: 'asc' },
    });
    expect(audited.map((a) => a.reason)).toEqual(['HDFC ticket 5521', 'HDFC: a charge on another account']);
  });

  it('when an operator says "not ours" of a break that says money is missing, then it is a request, decided only once another approver approves it', async () => {
    const amountPaise = uniqueAmount();
    const payout = await payoutAtTheRail(db, merchant, { amountPaise });
    const run = await runStatement([
      { reference: payout.ackNo, utr: 'UTRMISMATCH1', amountPaise: amountPaise + 100n, type: 'DEBIT' },
    ]);
    expect(run.breaks.map((b) => b.kind)).toEqual(['amount_mismatch']);
    const { position, path } = breakOf(run, payout.ackNo);
    expect((await otto.page('/console/lists/statement-breaks')).html).toContain(
      'Money is missing here: either decision is asked of another approver.',
    );

    const asked = await otto.post(`${path}/not-ours`, { why: 'the bank charged its fee in the same debit' });
    expect(asked.status).toBe(303);
    expect(asked.location).toMatch(/^\/console\/approvals\/[0-9]+$/);
    expect(await decisionOf(run.runId, position)).toBeNull();
    const request = await db.approvalRequest.findFirstOrThrow({
      where: { action: 'statement.decide', maker: otto.username },
      orderBy: { id: 'desc' },
    });
    expect(request.preview).toMatchObject({ break: 'amount_mismatch', reference: payout.ackNo, decision: 'not_ours' });

    // The maker cannot approve it (an operator may not approve at all); another approver can.
    expect((await otto.post(`${asked.location!}/approve`, { note: 'mine' })).status).toBe(403);
    expect(await decisionOf(run.runId, position)).toBeNull();
    expect((await kiran.post(`${asked.location!}/approve`, { note: 'fee confirmed' })).status).toBe(303);
    expect(await decisionOf(run.runId, position)).toMatchObject({
      decision: 'not_ours',
      decidedBy: `console:${kiran.username}`,
      approvalRequestId: request.id,
    });
    expect(await db.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      state: 'EXECUTED',
    });
  });

  it('when people decide breaks through the admin JSON API with their own keys, then a plain break is decided at once and a money-missing one waits for another approver', async () => {
    const [operator, approver] = [await personWithKey('operator'), await personWithKey('approver')];
    const amountPaise = uniqueAmount();
    const payout = await payoutAtTheRail(db, merchant, { amountPaise });
    const run = await runStatement([
      { reference: 'ZZJSONPLAIN1', utr: 'UTRJSONPLAIN1', amountPaise: uniqueAmount(), type: 'DEBIT' },
      { reference: payout.ackNo, utr: 'UTRJSONMISS1', amountPaise: amountPaise + 1n, type: 'DEBIT' },
    ]);
    const plain = breakOf(run, 'ZZJSONPLAIN1');
    const missing = breakOf(run, payout.ackNo);
    const post = (key: { key: string }, at: { position: number }, action: string, body: unknown) =>
      fetch(`${api.current.adminUrl}/admin/statements/${run.runId}/breaks/${at.position}/${action}`, {
        method: 'POST',
        headers: { ...bearer(key), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });

    expect((await post(operator, plain, 'needs-bank', {})).status).toBe(422);
    const decided = await post(operator, plain, 'needs-bank', { why: 'asked HDFC, ticket 77' });
    expect(decided.status).toBe(200);
    expect(await decisionOf(run.runId, plain.position)).toMatchObject({
      decision: 'needs_bank',
      decidedBy: `cli:${operator.username}`,
    });

    const asked = await post(operator, missing, 'not-ours', { why: 'a fee in the same debit' });
    expect(asked.status).toBe(202);
    const { approval } = (await asked.json()) as { approval: { id: string; action: string } };
    expect(approval.action).toBe('statement.decide');
    expect(await decisionOf(run.runId, missing.position)).toBeNull();
    const approved = await fetch(`${api.current.adminUrl}/admin/approvals/${approval.id}/approve`, {
      method: 'POST',
      headers: { ...bearer(approver), 'Content-Type': 'application/json' },
      body: JSON.stringify({ note: 'fee confirmed', code: await freshSecondFactorCode(approver.username) }),
    });
    expect(approved.status).toBe(200);
    expect(await decisionOf(run.runId, missing.position)).toMatchObject({
      decision: 'not_ours',
      decidedBy: `cli:${approver.username}`,
      approvalRequestId: BigInt(approval.id),
    });
  });

  it('when support posts any decision, then it is refused with 403 and nothing is decided', async () => {
    const amountPaise = uniqueAmount();
    const payout = await payoutAtTheRail(db, merchant, { amountPaise });
    const run = await runStatement([{ reference: 'ZZSUPPORT1', utr: 'UTRSUPPORT1', amountPaise, type: 'DEBIT' }]);
    const { position, path } = breakOf(run, 'ZZSUPPORT1');
    const page = await sunita.page('/console/lists/statement-breaks');
    expect(page.status).toBe(200);
    expect(page.html).toContain(payout.ackNo);

    for (const [action, fields] of [
      ['not-ours', {}],
      ['needs-bank', {}],
      ['match', { ackNo: payout.ackNo }],
    ] as const) {
      const res = await sunita.post(`${path}/${action}`, { why: 'support tries', ...fields });
      expect(res.status).toBe(403);
    }
    expect(await decisionOf(run.runId, position)).toBeNull();
    expect((await payoutNow(payout.id)).state).toBe('SUBMITTING');
    expect(await db.approvalRequest.count({ where: { payoutId: payout.id } })).toBe(0);
  });

  it('when a line is matched to a payout in flight, then it is a request its maker cannot approve; another approver settles it once and the break is decided', async () => {
    const amountPaise = uniqueAmount();
    const payout = await payoutAtTheRail(db, merchant, { amountPaise });
    const run = await runStatement([{ reference: 'ZZMATCH1', utr: 'UTRMATCH0001', amountPaise, type: 'DEBIT' }]);
    const { position, path } = breakOf(run, 'ZZMATCH1');
    expect(run.breaks[position - 1]?.kind).toBe('suggested_match');

    const asked = await asha.post(`${path}/match`, { ackNo: payout.ackNo, why: 'the narration names Asha Kumar' });
    expect(asked.status).toBe(303);
    const approvalPath = asked.location!;
    expect(approvalPath).toMatch(/^\/console\/approvals\/\d+$/);
    expect((await payoutNow(payout.id)).state).toBe('SUBMITTING');
    expect(await decisionOf(run.runId, position)).toBeNull();

    expect((await asha.post(`${approvalPath}/approve`, { note: 'me' })).status).toBe(403);
    expect((await otto.post(`${approvalPath}/approve`, { note: 'operators do not approve' })).status).toBe(403);
    expect((await payoutNow(payout.id)).state).toBe('SUBMITTING');

    expect((await kiran.post(`${approvalPath}/approve`, { note: 'checked the statement' })).status).toBe(303);
    expect(await payoutNow(payout.id)).toEqual({ state: 'SUCCESS', bankReference: 'UTRMATCH0001' });
    expect(await db.ledgerEntry.count({ where: { payoutId: payout.id, kind: 'PAYOUT_SETTLE' } })).toBe(2);
    const decided = await decisionOf(run.runId, position);
    expect(decided).toMatchObject({
      decision: 'matched',
      payoutId: payout.id,
      approvalRequestId: BigInt(approvalPath.split('/').pop()!),
    });

    expect((await kiran.post(`${approvalPath}/approve`, { note: 'twice' })).status).toBe(403);
    expect(await db.ledgerEntry.count({ where: { payoutId: payout.id, kind: 'PAYOUT_SETTLE' } })).toBe(2);
    expect((await otto.page('/console/lists/statement-breaks')).html).not.toContain('ZZMATCH1');
  });

  it('when a return is matched to a SUCCESS payout, then the approved request reverses it', async () => {
    const amountPaise = uniqueAmount();
    const payout = await payoutAtTheRail(db, merchant, { amountPaise });
    await settleSuccess(db, payout.id, `UTRPAID${amountPaise}`, { reason: 'test: paid', actor: 'test' });
    const run = await runStatement([{ reference: 'ZZRETURN1', utr: 'UTRBACK0001', amountPaise, type: 'RETURN' }]);
    const { position, path } = breakOf(run, 'ZZRETURN1');

    const asked = await otto.post(`${path}/match`, { ackNo: payout.ackNo, why: 'bounced, says HDFC' });
    expect(asked.status).toBe(303);
    expect((await payoutNow(payout.id)).state).toBe('SUCCESS');
    expect((await kiran.post(`${asked.location!}/approve`, { note: 'ok' })).status).toBe(303);

    expect((await payoutNow(payout.id)).state).toBe('REVERSED');
    expect(await db.ledgerEntry.count({ where: { payoutId: payout.id, kind: 'PAYOUT_REVERSAL' } })).toBe(2);
    expect((await decisionOf(run.runId, position))?.decision).toBe('matched');
  });

  it('when the matched payout moved before the approval, then the approval is refused and nothing changes', async () => {
    const amountPaise = uniqueAmount();
    const payout = await payoutAtTheRail(db, merchant, { amountPaise });
    const run = await runStatement([{ reference: 'ZZMOVED1', utr: 'UTRMOVED0001', amountPaise, type: 'DEBIT' }]);
    const { position, path } = breakOf(run, 'ZZMOVED1');
    const asked = await otto.post(`${path}/match`, { ackNo: payout.ackNo, why: 'looks like it' });
    expect(asked.status).toBe(303);

    // The rail answers first: the worker settles it with the rail's own UTR.
    await settleSuccess(db, payout.id, 'UTRFROMRAIL01', { reason: 'rail: SUCCESS', actor: 'worker:test' });
    const approved = await kiran.post(`${asked.location!}/approve`, { note: 'ok' });

    expect(approved.status).toBe(409);
    expect(approved.html).toContain(`${payout.ackNo} is SUCCESS now, not SUBMITTING`);
    expect(await payoutNow(payout.id)).toEqual({ state: 'SUCCESS', bankReference: 'UTRFROMRAIL01' });
    expect(await decisionOf(run.runId, position)).toBeNull();
    const request = await db.approvalRequest.findUniqueOrThrow({
      where: { id: BigInt(asked.location!.split('/').pop()!) },
    });
    expect(request.state).toBe('FAILED');
  });

  it('when a line is matched to a payout already SUCCESS, then it is decided at once with no request', async () => {
    const amountPaise = uniqueAmount();
    const payout = await payoutAtTheRail(db, merchant, { amountPaise });
    await settleSuccess(db, payout.id, `UTRSETTLED${amountPaise}`, { reason: 'test: paid', actor: 'test' });
    const run = await runStatement([{ reference: 'ZZPAID1', utr: 'UTRPAID0001', amountPaise, type: 'DEBIT' }]);
    const { position, path } = breakOf(run, 'ZZPAID1');

    expect((await otto.post(`${path}/match`, { ackNo: 'AK0000000000', why: 'a guess' })).status).toBe(409);
    const matched = await otto.post(`${path}/match`, { ackNo: payout.ackNo, why: 'the UTR differs; same payment' });
    expect(matched.status).toBe(303);
    expect(matched.location).toBe('/console/lists/statement-breaks');
    expect(await decisionOf(run.runId, position)).toMatchObject({ decision: 'matched', approvalRequestId: null });
    expect(await db.approvalRequest.count({ where: { payoutId: payout.id } })).toBe(0);
  });

  it('when the next day’s statement has the DEBIT of a payout missing from an earlier run, then that break is booked_next_day', async () => {
    const amountPaise = uniqueAmount();
    const late = await payoutAtTheRail(db, merchant, { amountPaise });
    await settleSuccess(db, late.id, `UTRLATE${amountPaise}`, { reason: 'test: paid at 23:59', actor: 'test' });
    const first = await runStatement([{ reference: 'ZZOTHER1', utr: 'UTROTHER1', amountPaise: 1n, type: 'DEBIT' }]);
    const { position } = breakOf(first, late.ackNo);
    expect(first.breaks[position - 1]?.kind).toBe('success_here_missing_at_bank');
    await otto.post(`/console/statement-breaks/${first.runId}/${position}/needs-bank`, { why: 'asked HDFC' });

    const next = await runStatement([
      { reference: late.ackNo, utr: `UTRLATE${amountPaise}`, amountPaise, type: 'DEBIT' },
    ]);
    expect(next.breaks.some((b) => b.reference === late.ackNo)).toBe(false);

    expect(await decisionOf(first.runId, position)).toMatchObject({
      decision: 'booked_next_day',
      decidedBy: `statement run ${next.runId} line 2`,
      payoutId: late.id,
    });
    // Decided once: the same movement answering again decides nothing more.
    expect(
      await resolveBreaksBookedNextDay(db, next.runId, [
        { ackNo: late.ackNo, lineNumber: 2, breakKind: 'success_here_missing_at_bank' },
      ]),
    ).toBe(0);
  });
});
