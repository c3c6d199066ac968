import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findWallet, listOperatorActions, transitionPayout, type PayoutSummary, type PrismaClient } from '@payout/db';
import { approveRequest, planManualResolution, recheckOverride, requestApproval, type Person } from '@payout/use-cases';
import { FAILURE_REASON_TEXT, RESOLUTION_FAILURE_REASONS, type ResolutionRequest } from '@payout/domain';
import { createBankRails, type BankRails } from '@payout/rails';
import { createRailSim, type RailSim, type RailSimServer } from '@payout/rail-sim';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '@payout/cli';
import { testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { FAST_RAIL } from '../support/stack.js';
import { useStubBank } from '../support/stub-bank.js';
import { adminOf, call, useApi } from '../support/api.js';
import { addConsoleUser, signedInPerson } from '../support/console.js';
import { bearer, freshSecondFactorCode, personWithKey, TEST_SECOND_FACTOR } from '../support/people.js';
import { cliAs, payoutAtTheRail, setCliAdmin } from '../webhooks/webhook-fixtures.js';

// A payout under manual review is resolved only after the rail is asked, and a resolution the rail
// contradicts is refused unless overridden with a reason that goes to the audit log. The resolution is a
// request that a second person approves (the rail is asked again then). One use case serves the console
// and `pnpm cli payout resolve`; both are exercised here against a stub bank (each answer on demand) and
// against the rail simulator's magic values.

const bank = useStubBank();
// The admin listener `pnpm cli payout resolve` goes to; it asks the stub bank.
const api = useApi(() => ({ RAIL_BASE_URL: bank.current.url }));
let db: PrismaClient;
let sim: RailSim;
let railSim: RailSimServer;
let stubRail: BankRails;
let simRail: BankRails;
/** Two banks: `primary` the simulator, `secondary` the stub bank. */
let twoBanks: BankRails;

beforeAll(async () => {
  db = testPrisma();
  // The people these tests' requests name: a request stands on its maker, and approving takes the approver's code.
  for (const maker of ['asha', 'ravi', 'ops']) await addConsoleUser(maker, 'operator');
  await addConsoleUser('kiran', 'approver');
  sim = createRailSim(FAST_RAIL);
  railSim = await sim.listen(0);
  const timeouts = { RAIL_CONNECT_TIMEOUT_MS: 1_000, RAIL_RESPONSE_TIMEOUT_MS: 2_000 };
  stubRail = createBankRails({ banks: [{ name: 'primary', baseUrl: bank.current.url }], ...timeouts });
  simRail = createBankRails({ banks: [{ name: 'primary', baseUrl: railSim.url }], ...timeouts });
  twoBanks = createBankRails({
    banks: [
      { name: 'primary', baseUrl: railSim.url },
      { name: 'secondary', baseUrl: bank.current.url },
    ],
    ...timeouts,
  });
});
afterAll(async () => {
  await stubRail.close();
  await simRail.close();
  await twoBanks.close();
  await railSim.close();
  await db.$disconnect();
});

/** A payout accepted (101.00 reserved), sent to the rail, then given up on by the worker. */
async function payoutInReview(merchant: TestMerchant, amountPaise = 10100n): Promise<PayoutSummary> {
  const payout = await payoutAtTheRail(db, merchant, { mode: 'IMPS', amountPaise });
  for (const state of ['AWAITING_RAIL', 'MANUAL_REVIEW'] as const) {
    await transitionPayout(db, payout.id, state, { nextCheckAt: null }, { reason: 'test', actor: 'test' });
  }
  return payout;
}

async function stateOf(payout: PayoutSummary) {
  const row = await db.payout.findUniqueOrThrow({ where: { id: payout.id } });
  return { state: row.state, utr: row.bankReference, reason: row.failureReason };
}

const asFailed = { outcome: 'FAILED', reason: 'DECLINED_BY_BENEFICIARY_BANK' } as const;
const approvals = { ttlMs: 60_000, selfApproval: false, secondFactor: TEST_SECOND_FACTOR };
const approver: Person = { username: 'kiran', role: 'APPROVER', via: 'console' };

/**
 * A resolution as the console makes it: planned by `maker` (the rail asked), then approved by a second
 * person (the rail asked again) — or refused at either step.
 */
async function resolve(
  rail: BankRails,
  payout: PayoutSummary,
  request: ResolutionRequest,
  maker: string,
  reason: string,
  override = false,
) {
  const by: Person = { username: maker, role: 'OPERATOR', via: 'console' };
  const plan = await planManualResolution(
    { db, rails: rail },
    { payout: { ackNo: payout.ackNo }, request, maker: by, reason, override },
  );
  if (plan.kind !== 'planned') return plan;
  const asked = await requestApproval({ db, approvals }, { planned: plan.planned, maker: by, reason });
  if (asked.kind !== 'requested') throw new Error(asked.why);
  const decided = await approveRequest(
    { db, rails: rail, approvals },
    { id: asked.request.id, by: approver, secondFactorCode: await freshSecondFactorCode('kiran') },
  );
  if (decided.kind !== 'executed') return decided;
  return { kind: 'resolved', rail: plan.rail, ...decided.request.outcome } as const;
}

describe('manual resolution asks the rail first', () => {
  it('when the bank says SUCCESS, then failing the payout is refused and changes nothing, and a success takes the bank UTR', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const payout = await payoutInReview(merchant);
    bank.current.answer(payout.ackNo, { status: 'SUCCESS', utr: '512345678901' });
    const walletBefore = await findWallet(db, merchant.merchant.id);

    const refused = await resolve(stubRail, payout, asFailed, 'asha', 'merchant says unpaid');
    expect(refused).toMatchObject({ kind: 'refused', why: expect.stringContaining('SUCCESS') as string });
    expect(await stateOf(payout)).toEqual({ state: 'MANUAL_REVIEW', utr: null, reason: null });
    expect(await findWallet(db, merchant.merchant.id)).toEqual(walletBefore);
    expect(bank.current.asked).toContain(payout.ackNo);

    const resolved = await resolve(stubRail, payout, { outcome: 'SUCCESS' }, 'asha', 'bank confirms');
    expect(resolved).toMatchObject({ kind: 'resolved', status: 'SUCCESS', bankReference: '512345678901' });
    expect(await stateOf(payout)).toEqual({ state: 'SUCCESS', utr: '512345678901', reason: null });
    expect(await findWallet(db, merchant.merchant.id)).toEqual({ availablePaise: 89900n, reservedPaise: 0n });

    const audit = await listOperatorActions(db, { payoutId: payout.id, limit: 10 });
    expect(audit.map((a) => [a.action, a.actor, a.reason])).toEqual([
      ['approval.approve', 'console:kiran', 'approved'],
      ['payout.resolve', 'console:kiran', 'bank confirms'],
      ['approval.request', 'console:asha', 'bank confirms'],
      ['payout.resolve-refused', 'console:asha', 'merchant says unpaid'],
    ]);
    expect(audit[1]!.detail).toMatchObject({ requestedBy: 'asha', approvedBy: 'kiran' });
  });

  it('when the bank says PENDING or cannot be asked, then failing is refused until overridden with a reason, which the audit log keeps', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const pending = await payoutInReview(merchant);
    const down = await payoutInReview(merchant);
    bank.current.answer(pending.ackNo, { status: 'PENDING' });
    bank.current.answer(down.ackNo, { status: 'DOWN' });

    for (const payout of [pending, down]) {
      const refused = await resolve(stubRail, payout, asFailed, 'ravi', 'stuck for days');
      expect(refused.kind).toBe('refused');
      expect((await stateOf(payout)).state).toBe('MANUAL_REVIEW');
    }
    expect(await findWallet(db, merchant.merchant.id)).toEqual({ availablePaise: 79800n, reservedPaise: 20200n });

    const overridden = await resolve(
      stubRail,
      down,
      asFailed,
      'ravi',
      'bank ops confirmed by phone: returned, ticket 4411',
      true,
    );
    expect(overridden).toMatchObject({ kind: 'resolved', status: 'FAILED', rail: { outcome: 'UNKNOWN' } });
    expect(await stateOf(down)).toEqual({ state: 'FAILED', utr: null, reason: 'DECLINED_BY_BENEFICIARY_BANK' });
    expect(await findWallet(db, merchant.merchant.id)).toEqual({ availablePaise: 89900n, reservedPaise: 10100n });
    const [, entry] = await listOperatorActions(db, { payoutId: down.id, limit: 2 });
    expect(entry).toMatchObject({
      action: 'payout.resolve',
      reason: 'bank ops confirmed by phone: returned, ticket 4411',
      detail: { override: true, resolvedAs: 'FAILED', rail: { outcome: 'UNKNOWN' } },
    });
  });

  it('when the bank never saw the reference, then failing it returns the reservation', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const payout = await payoutInReview(merchant);
    const resolved = await resolve(stubRail, payout, asFailed, 'ops', 'never reached the bank');
    expect(resolved).toMatchObject({ kind: 'resolved', status: 'FAILED', rail: { outcome: 'NOT_FOUND' } });
    expect(await findWallet(db, merchant.merchant.id)).toEqual({ availablePaise: 100000n, reservedPaise: 0n });
  });

  it('when the rail simulator holds a payout PENDING (.55) or paid it, then the resolution must agree with it', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const forever = await payoutInReview(merchant, 10155n);
    const paid = await payoutInReview(merchant, 10100n);
    for (const payout of [forever, paid]) {
      const submitted = await simRail.rail('primary').submit({
        reference: payout.ackNo,
        mode: 'IMPS',
        amountPaise: payout.amountPaise,
        account: '123456789012',
        ifsc: 'HDFC0001234',
        beneficiaryName: 'Asha Kumar',
      });
      expect(submitted.outcome).toBe(payout === forever ? 'PENDING' : 'SUCCESS');
    }

    const refused = await resolve(simRail, forever, asFailed, 'asha', 'give up');
    expect(refused).toMatchObject({ kind: 'refused', rail: { outcome: 'PENDING' } });

    const wrongUtr = await resolve(
      simRail,
      paid,
      { outcome: 'SUCCESS', bankReference: '000000000000' },
      'asha',
      'typed from an email',
    );
    expect(wrongUtr.kind).toBe('refused');
    const resolved = await resolve(simRail, paid, { outcome: 'SUCCESS' }, 'asha', 'rail paid it');
    expect(resolved).toMatchObject({ kind: 'resolved', status: 'SUCCESS' });
    expect((await stateOf(paid)).utr).toBe(sim.payout(paid.ackNo)?.utr);
    expect((await stateOf(forever)).state).toBe('MANUAL_REVIEW');
  });

  it('when the payout was sent to the second bank, then that bank is asked, at the request and at the approval; a payout with no bank recorded is asked at the first', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const atSecondary = await payoutInReview(merchant);
    await db.payout.update({ where: { id: atSecondary.id }, data: { bank: 'secondary' } });
    // The stub bank (secondary) paid it; the simulator (primary) never saw it.
    bank.current.answer(atSecondary.ackNo, { status: 'SUCCESS', utr: '612345678901' });
    const resolved = await resolve(twoBanks, atSecondary, { outcome: 'SUCCESS' }, 'asha', 'the bank paid it');
    expect(resolved).toMatchObject({ kind: 'resolved', status: 'SUCCESS', rail: { outcome: 'SUCCESS' } });
    expect((await stateOf(atSecondary)).utr).toBe('612345678901');

    const neverSent = await payoutInReview(merchant);
    await db.payout.update({ where: { id: neverSent.id }, data: { bank: null } });
    bank.current.answer(neverSent.ackNo, { status: 'SUCCESS', utr: '612345678902' });
    const failed = await resolve(twoBanks, neverSent, asFailed, 'asha', 'never reached a bank');
    expect(failed).toMatchObject({ kind: 'resolved', status: 'FAILED', rail: { outcome: 'NOT_FOUND' } });
  });

  it('when the bank changes its answer between the request and the approval, then the approval is refused and nothing changes', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const payout = await payoutInReview(merchant);
    bank.current.answer(payout.ackNo, { status: 'NOT_FOUND' });
    const maker: Person = { username: 'asha', role: 'OPERATOR', via: 'console' };
    const plan = await planManualResolution(
      { db, rails: stubRail },
      { payout: { ackNo: payout.ackNo }, request: asFailed, maker, reason: 'never reached the bank' },
    );
    if (plan.kind !== 'planned') throw new Error(plan.kind);
    const asked = await requestApproval({ db, approvals }, { planned: plan.planned, maker, reason: 'never reached' });
    if (asked.kind !== 'requested') throw new Error(asked.why);
    bank.current.answer(payout.ackNo, { status: 'SUCCESS', utr: '712345678901' });

    const decided = await approveRequest(
      { db, rails: stubRail, approvals },
      { id: asked.request.id, by: approver, secondFactorCode: await freshSecondFactorCode('kiran') },
    );
    expect(decided).toMatchObject({ kind: 'failed', why: expect.stringContaining('the rail now disagrees') as string });
    expect(await stateOf(payout)).toEqual({ state: 'MANUAL_REVIEW', utr: null, reason: null });
    expect(await findWallet(db, merchant.merchant.id)).toEqual({ availablePaise: 89900n, reservedPaise: 10100n });
  });

  it('when the rail answers after an override was asked and contradicts it, then the approval is refused with both answers and nothing changes; when it still cannot say, the override runs and the outcome keeps both', async () => {
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const [paid, silent] = [await payoutInReview(merchant), await payoutInReview(merchant)];
    const maker: Person = { username: 'asha', role: 'OPERATOR', via: 'console' };
    const ask = async (payout: PayoutSummary) => {
      bank.current.answer(payout.ackNo, { status: 'DOWN' });
      const plan = await planManualResolution(
        { db, rails: stubRail },
        { payout: { ackNo: payout.ackNo }, request: asFailed, maker, reason: 'bank says returned', override: true },
      );
      if (plan.kind !== 'planned') throw new Error(plan.kind);
      const asked = await requestApproval({ db, approvals }, { planned: plan.planned, maker, reason: 'returned' });
      if (asked.kind !== 'requested') throw new Error(asked.why);
      return asked.request;
    };
    const [paidRequest, silentRequest] = [await ask(paid), await ask(silent)];
    expect(paidRequest.preview).toMatchObject({
      override: true,
      railSays: expect.stringMatching(/^no answer/) as string,
    });
    const walletBefore = await findWallet(db, merchant.merchant.id);

    // The rail now says it paid: failing the payout would refund money that has left.
    bank.current.answer(paid.ackNo, { status: 'SUCCESS', utr: '812345678901' });
    expect(await recheckOverride({ rails: stubRail }, paidRequest)).toEqual({
      whenAsked: paidRequest.preview.railSays,
      now: 'SUCCESS, UTR 812345678901',
      contradicted: expect.stringContaining('and the override says FAILED') as string,
    });
    const refused = await approveRequest(
      { db, rails: stubRail, approvals },
      { id: paidRequest.id, by: approver, secondFactorCode: await freshSecondFactorCode('kiran') },
    );
    expect(refused).toMatchObject({ kind: 'failed' });
    const why = (refused as { why: string }).why;
    expect(why).toContain('the rail now says SUCCESS, UTR 812345678901');
    expect(why).toContain(`when it was asked, ${String(paidRequest.preview.railSays)}`);
    expect(await stateOf(paid)).toEqual({ state: 'MANUAL_REVIEW', utr: null, reason: null });
    expect(await findWallet(db, merchant.merchant.id)).toEqual(walletBefore);

    // Still no answer: the override stands on the maker's word, and its outcome keeps both answers.
    const approved = await approveRequest(
      { db, rails: stubRail, approvals },
      { id: silentRequest.id, by: approver, secondFactorCode: await freshSecondFactorCode('kiran') },
    );
    expect(approved).toMatchObject({
      kind: 'executed',
      request: { outcome: { status: 'FAILED', railWhenAsked: silentRequest.preview.railSays } },
    });
    expect(
      (approved as unknown as { request: { outcome: { railAtApproval: string } } }).request.outcome.railAtApproval,
    ).toMatch(/^no answer/);
    expect((await stateOf(silent)).state).toBe('FAILED');
  });

  it('when `pnpm cli payout resolve` contradicts the bank, then it exits 1 and changes nothing; --override makes a request, which the rail still contradicting refuses at approval', async () => {
    setCliAdmin(api.current.adminUrl);
    const meera = await personWithKey('approver');
    const nikhil = await personWithKey('approver');
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const payout = await payoutInReview(merchant);
    bank.current.answer(payout.ackNo, { status: 'SUCCESS', utr: '612345678901' });
    const args = [
      'payout',
      'resolve',
      '--mid',
      merchant.mid,
      '--TransactionID',
      payout.transactionId,
      '--as',
      'failed',
    ];

    const refused = await cliAs(meera.key, ...args, '--reason', 'RAIL_REJECTED');
    expect(refused.status).toBe(EXIT_FAILED);
    expect(refused.stderr).toContain('Refused: the rail says SUCCESS (UTR 612345678901)');
    expect(refused.stderr).toContain('The rail says: SUCCESS, UTR 612345678901.');
    expect((await stateOf(payout)).state).toBe('MANUAL_REVIEW');

    const requested = await cliAs(
      meera.key,
      ...args,
      '--reason',
      'RAIL_REJECTED',
      '--override',
      'bank recalled the credit, letter 77',
      '--json',
    );
    expect(requested.status).toBe(EXIT_OK);
    const { approvalId, preview } = JSON.parse(requested.stdout) as { approvalId: string; preview: object };
    expect(preview).toMatchObject({ resolveAs: 'FAILED', override: true, railSays: 'SUCCESS, UTR 612345678901' });
    expect((await stateOf(payout)).state).toBe('MANUAL_REVIEW');

    const own = await cliAs(meera.key, 'approval', 'approve', '--id', approvalId);
    expect(own.status).toBe(EXIT_FAILED);
    expect(own.stderr).toContain(`${meera.username} made this request`);
    expect((await stateOf(payout)).state).toBe('MANUAL_REVIEW');

    // Asked again at approval, the rail still says it paid: an override never fails a payout against that.
    const approved = await cliAs(nikhil.key, 'approval', 'approve', '--id', approvalId, '--json');
    expect(approved.status).toBe(EXIT_FAILED);
    expect(approved.stderr).toContain(
      'the rail now says SUCCESS, UTR 612345678901 (when it was asked, SUCCESS, UTR 612345678901), and the override says FAILED',
    );
    expect((await stateOf(payout)).state).toBe('MANUAL_REVIEW');
    const entries = await listOperatorActions(db, { payoutId: payout.id, limit: 3 });
    expect(entries.map((e) => [e.action, e.actor])).toEqual([
      ['approval.fail', `cli:${nikhil.username}`],
      ['approval.request', `cli:${meera.username}`],
      ['payout.resolve-refused', `cli:${meera.username}`],
    ]);
    expect(entries[1]).toMatchObject({ reason: 'bank recalled the credit, letter 77' });
  });

  it('when a failure reason is offered or refused, then the console, the admin JSON API and the CLI name the same reasons: never a short balance or a reversal', async () => {
    setCliAdmin(api.current.adminUrl);
    const asha = await personWithKey('operator');
    const merchant = await makeMerchant(db, { balance: '1000.00' });
    const payout = await payoutInReview(merchant);
    const listed = RESOLUTION_FAILURE_REASONS.join(', ');

    const operator = await signedInPerson(api.current.adminUrl, 'operator');
    const form = (await operator.page(`/console/payouts/${payout.ackNo}/resolve`)).html;
    const offered = [...form.matchAll(/<option value="([A-Z_]+)">([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]);
    expect(offered).toEqual(RESOLUTION_FAILURE_REASONS.map((r) => [r, FAILURE_REASON_TEXT[r]]));

    for (const reason of ['REVERSED_BY_BENEFICIARY_BANK', 'INSUFFICIENT_BALANCE']) {
      const posted = await call(adminOf(api.current), '/admin/payouts/resolve', {
        body: { mid: merchant.mid, TransactionID: payout.transactionId, as: 'failed', reason, why: 'x' },
        headers: bearer(asha),
      });
      expect(posted.status).toBe(422);
      expect(JSON.stringify(posted.json)).toContain(`reason must be one of ${listed}`);

      const typed = await cliAs(
        asha.key,
        ...['payout', 'resolve', '--mid', merchant.mid, '--TransactionID', payout.transactionId],
        ...['--as', 'failed', '--reason', reason],
      );
      expect(typed.status).toBe(EXIT_USAGE);
      expect(typed.stderr).toContain(`--as failed needs --reason, one of ${listed}`);
    }
    expect(await stateOf(payout)).toEqual({ state: 'MANUAL_REVIEW', utr: null, reason: null });
    expect(await db.approvalRequest.count({ where: { payoutId: payout.id } })).toBe(0);
  });
});
