import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  listDiscrepancies,
  listOpenDiscrepancies,
  recordCollection,
  recordDiscrepancy,
  resolveDiscrepancy,
  reversePayout,
  settleFailure,
  settleSuccess,
  type PayoutSummary,
} from '@payout/db';
import { newAckNo } from '@payout/domain';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { newTransactionId, useApi } from '../support/api.js';
import { personWithKey, type PersonWithKey } from '../support/people.js';
import { expectBooksBalanced, merchantBooks } from '../support/ledger-checks.js';
import { cli, cliAs, payoutAtTheRail, setCliAdmin } from '../webhooks/webhook-fixtures.js';

// Where the bank and our books disagree about a settled payout (docs/reconciliation.md): recorded once
// per payout and kind while open, shown by `discrepancy list`, `payout show` and reconcile, and resolved by
// an operator through the ledger with `pnpm cli discrepancy resolve` — a resolution that posts to the ledger
// as a request that a second person approves with `pnpm cli approval approve`.

const api = useApi();
const prisma = testPrisma();
const pool = testPool();
let operator: PersonWithKey;
let approver: string;
let approverKey: string;
beforeAll(async () => {
  operator = await personWithKey('operator');
  ({ username: approver, key: approverKey } = await personWithKey('approver'));
  setCliAdmin(api.current.adminUrl);
});
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const note = { reason: 'test: the rail decided', actor: 'test' };

async function settled(merchant: TestMerchant, outcome: 'SUCCESS' | 'FAILED'): Promise<PayoutSummary> {
  const payout = await payoutAtTheRail(prisma, merchant, { amountPaise: 30_000n });
  if (outcome === 'SUCCESS') await settleSuccess(prisma, payout.id, `UTR${payout.ackNo.slice(-9)}`, note);
  else await settleFailure(prisma, payout.id, 'RAIL_REJECTED', note);
  return payout;
}

const lateSuccess = (payout: PayoutSummary) =>
  recordDiscrepancy(prisma, {
    payoutId: payout.id,
    kind: 'SUCCESS_AFTER_FAILED',
    source: 'rail',
    railAnswer: { status: 'SUCCESS', utr: '123412341234' },
    note: 'inquiry after FAILED',
  });

/**
 * Resolves a discrepancy as the operator; a resolution that posts to the ledger becomes a request, which
 * a second person then approves: the answer is the approval's.
 */
async function resolve(id: bigint, resolution: string) {
  const asked = await cliAs(
    operator.key,
    'discrepancy',
    'resolve',
    '--id',
    String(id),
    '--resolution',
    resolution,
    '--note',
    'bank confirmed on ticket 42',
    '--json',
  );
  if (asked.status !== 0) return asked;
  const { approvalId } = JSON.parse(asked.stdout) as { approvalId?: string };
  if (approvalId === undefined) return asked;
  return cliAs(approverKey, 'approval', 'approve', '--id', approvalId, '--json');
}

const discrepancy = async (id: bigint) => (await listDiscrepancies(prisma, { id, includeResolved: true, limit: 1 }))[0];

describe('recordDiscrepancy', () => {
  it('when the same contradiction is heard twice, then one open discrepancy counts it twice', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payout = await settled(merchant, 'FAILED');

    const first = await lateSuccess(payout);
    const second = await lateSuccess(payout);

    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
    const open = (await listOpenDiscrepancies(prisma)).filter((d) => d.payoutId === payout.id);
    expect(open).toMatchObject([
      {
        id: first.id,
        kind: 'SUCCESS_AFTER_FAILED',
        status: 'OPEN',
        source: 'rail',
        ackNo: payout.ackNo,
        stateHere: 'FAILED',
        amountPaise: 30_000n,
        timesSeen: 2,
        report: { status: 'SUCCESS', utr: '123412341234' },
      },
    ]);
  });

  it('when a pay-in is reported FAILED and then SUCCESS, then the conflict is kept open, and credit-payin credits it once', async () => {
    const merchant = await makeMerchant(prisma);
    const report = {
      merchantId: merchant.merchant.id,
      transactionId: newTransactionId(),
      mode: 'INTENT' as const,
      payerAccount: '',
      amountPaise: 5_000n,
      bankReference: 'PAYIN77',
      ackNo: newAckNo(),
    };
    await recordCollection(prisma, { ...report, status: 'FAILED' });
    const later = await recordCollection(prisma, { ...report, ackNo: newAckNo(), status: 'SUCCESS' });

    expect(later).toMatchObject({ outcome: 'conflict', conflict: 'outcome', credited: false });
    const open = (await listOpenDiscrepancies(prisma)).filter((d) => d.collectionId === later.id);
    expect(open).toMatchObject([
      { kind: 'PAYIN_CONFLICT', source: 'callback', stateHere: 'FAILED', amountPaise: 5_000n },
    ]);

    const before = await merchantBooks(pool, merchant.merchant.id);
    expect((await resolve(open[0]!.id, 'credit-payin')).status).toBe(0);
    const after = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(after.available - before.available).toBe(5_000n);
    expect((await resolve(open[0]!.id, 'credit-payin')).status).toBe(1);
    const { rows } = await pool.query(
      'SELECT status::text, credited_at IS NOT NULL AS credited FROM collections WHERE id = $1',
      [later.id],
    );
    expect(rows).toEqual([{ status: 'SUCCESS', credited: true }]);
  });
});

describe('resolveDiscrepancy', () => {
  const asOperator = (id: bigint, resolution: string) =>
    resolveDiscrepancy(prisma, { id, resolution, note: 'bank confirmed on ticket 42', actor: 'operator:test' });
  const eventsOf = async (payoutId: bigint) =>
    (await pool.query('SELECT count(*)::int AS n FROM payout_events WHERE payout_id = $1', [payoutId])).rows[0].n;

  it('when the payout was reversed before an operator reverses it, then the resolution is refused with its state and nothing changes', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payout = await settled(merchant, 'SUCCESS');
    const { id } = await recordDiscrepancy(prisma, {
      payoutId: payout.id,
      kind: 'FAILED_AFTER_SUCCESS',
      source: 'rail',
      railAnswer: { status: 'FAILED' },
    });
    expect((await reversePayout(prisma, payout.id, { source: 'rail', note })).moved).toBe(true);
    const before = await merchantBooks(pool, merchant.merchant.id);
    const events = await eventsOf(payout.id);

    expect(await asOperator(id, 'reverse')).toEqual({
      kind: 'refused',
      reason: 'the payout is REVERSED, not SUCCESS',
    });
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
    expect(await eventsOf(payout.id)).toBe(events);
    expect(await discrepancy(id)).toMatchObject({ status: 'OPEN', resolution: null });
  });

  it('when the merchant was already charged for a payout, then a second late debit is refused and nothing changes', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payout = await settled(merchant, 'FAILED');
    const first = await lateSuccess(payout);
    expect(await asOperator(first.id, 'debit-merchant')).toMatchObject({ kind: 'resolved', posted: true });
    const second = await lateSuccess(payout);
    expect(second.id).not.toBe(first.id);
    const before = await merchantBooks(pool, merchant.merchant.id);
    const events = await eventsOf(payout.id);

    expect(await asOperator(second.id, 'debit-merchant')).toEqual({
      kind: 'refused',
      reason: 'the merchant was already charged for it',
    });
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
    expect(await eventsOf(payout.id)).toBe(events);
    expect(await discrepancy(second.id)).toMatchObject({ status: 'OPEN' });
  });

  it('when the pay-in of a conflict is already SUCCESS, then credit-payin is refused with its status and nothing changes', async () => {
    const merchant = await makeMerchant(prisma);
    const report = {
      merchantId: merchant.merchant.id,
      transactionId: newTransactionId(),
      mode: 'INTENT' as const,
      payerAccount: '',
      amountPaise: 5_000n,
      bankReference: 'PAYIN78',
      ackNo: newAckNo(),
    };
    await recordCollection(prisma, { ...report, status: 'SUCCESS' });
    const later = await recordCollection(prisma, { ...report, ackNo: newAckNo(), status: 'FAILED' });
    expect(later).toMatchObject({ outcome: 'conflict', conflict: 'outcome' });
    const [open] = (await listOpenDiscrepancies(prisma)).filter((d) => d.collectionId === later.id);
    const before = await merchantBooks(pool, merchant.merchant.id);

    expect(await asOperator(open!.id, 'credit-payin')).toEqual({
      kind: 'refused',
      reason: 'the pay-in is SUCCESS, not FAILED',
    });
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
    expect(await discrepancy(open!.id)).toMatchObject({ status: 'OPEN' });
  });
});

describe('pnpm cli discrepancy', () => {
  it('when a payout the bank paid after we failed it is resolved by debit-merchant, then the merchant is charged once through the ledger', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payout = await settled(merchant, 'FAILED');
    const { id } = await lateSuccess(payout);
    const before = await merchantBooks(pool, merchant.merchant.id);

    const listed = await cli('discrepancy', 'list', '--json');
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout).discrepancies.map((d: { id: string }) => d.id)).toContain(String(id));

    const result = await resolve(id, 'debit-merchant');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ state: 'EXECUTED', outcome: { posted: true } });
    expect(await discrepancy(id)).toMatchObject({
      status: 'RESOLVED',
      resolution: 'debit-merchant',
      resolvedBy: `operator:${approver}`,
    });
    const after = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(before.available - after.available).toBe(30_000n);
    expect(after.ledgerPaidOut - before.ledgerPaidOut).toBe(30_000n);

    const again = await resolve(id, 'debit-merchant');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already resolved/);
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(after);

    const show = await cli('payout', 'show', '--mid', merchant.mid, '--TransactionID', payout.transactionId, '--json');
    expect(JSON.parse(show.stdout).discrepancies).toMatchObject([{ kind: 'SUCCESS_AFTER_FAILED', status: 'RESOLVED' }]);
  });

  it('when the wallet cannot cover a late debit, then the resolution is refused and nothing changes', async () => {
    const merchant = await makeMerchant(prisma, { balance: '300.00' });
    const payout = await settled(merchant, 'FAILED');
    await payoutAtTheRail(prisma, merchant, { amountPaise: 20_000n }); // 100.00 left available
    const { id } = await lateSuccess(payout);
    const before = await merchantBooks(pool, merchant.merchant.id);

    const result = await resolve(id, 'debit-merchant');

    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/cannot cover/);
    expect(await merchantBooks(pool, merchant.merchant.id)).toEqual(before);
    expect((await listOpenDiscrepancies(prisma)).map((d) => d.id)).toContain(id);
  });

  it('when a FAILED report after SUCCESS is resolved by reverse, then the payout is REVERSED and the amount is back', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payout = await settled(merchant, 'SUCCESS');
    const { id } = await recordDiscrepancy(prisma, {
      payoutId: payout.id,
      kind: 'FAILED_AFTER_SUCCESS',
      source: 'rail',
      railAnswer: { status: 'FAILED' },
    });
    const before = await merchantBooks(pool, merchant.merchant.id);

    expect((await resolve(id, 'recovered')).status).toBe(2);
    const result = await resolve(id, 'reverse');

    expect(result.status).toBe(0);
    const after = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(after.available - before.available).toBe(30_000n);
    const { rows } = await pool.query('SELECT state::text FROM payouts WHERE id = $1', [payout.id]);
    expect(rows).toEqual([{ state: 'REVERSED' }]);
  });

  it('when the discrepancy does not exist or the resolution is unknown, then exit 1 or 2', async () => {
    expect((await resolve(999_999_999n, 'no-change')).status).toBe(1);
    expect((await resolve(1n, 'pay-twice')).status).toBe(2);
  });
});
