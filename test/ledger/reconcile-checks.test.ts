import { afterAll, describe, expect, it } from 'vitest';
import {
  recordDiscrepancy,
  checkInvariants,
  reversePayout,
  settleSuccess,
  transitionPayout,
  type PayoutSummary,
  type PrismaClientOrTransaction,
} from '@payout/db';
import { testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { cli, payoutAtTheRail } from '../webhooks/webhook-fixtures.js';

// Reconcile checks the books against more than themselves (docs/reconciliation.md). Each new check is
// shown failing on a deliberately broken database: the damage is done inside a transaction, reconcile
// reads that transaction's snapshot, and the transaction is rolled back, so the file's own data (and the
// reconcile run after it) stay clean.

const prisma = testPrisma();
afterAll(async () => {
  await prisma.$disconnect();
});

const note = { reason: 'test', actor: 'test' };

class RolledBack extends Error {}

/** Breaks the database with `damage`, runs reconcile on the broken snapshot, rolls it all back. */
async function breachesAfter(damage: (tx: PrismaClientOrTransaction) => Promise<unknown>) {
  let breaches: { name: string; breaches: number; examples: Record<string, unknown>[] }[] = [];
  await expect(
    prisma.$transaction(
      async (tx) => {
        await damage(tx);
        const report = await checkInvariants(tx, { stuckAfterMs: 60_000, skip: ['no-stuck-payouts'] });
        breaches = report.checks.filter((c) => c.breaches > 0);
        throw new RolledBack();
      },
      { timeout: 30_000 },
    ),
  ).rejects.toThrow(RolledBack);
  return breaches;
}

async function paid(amountPaise = 30_000n): Promise<PayoutSummary> {
  const merchant = await makeMerchant(prisma, { balance: '1000.00' });
  const payout = await payoutAtTheRail(prisma, merchant, { amountPaise });
  await settleSuccess(prisma, payout.id, `UTR${payout.ackNo.slice(-9)}`, note);
  return payout;
}

describe('reconcile', () => {
  it('when the books are whole, then every check passes, in one snapshot', async () => {
    await paid();
    const report = await checkInvariants(prisma, { stuckAfterMs: 60_000, skip: ['no-stuck-payouts'] });
    expect(report.checks.filter((c) => c.breaches > 0)).toEqual([]);
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'ledger-legs-match-their-source',
        'utr-settles-one-payout',
        'no-old-open-discrepancies',
        'no-old-manual-review',
      ]),
    );
  });

  it("when a payout's entry moves another amount than the payout's (still balanced), then ledger-legs-match-their-source fails", async () => {
    const payout = await paid();
    const breaches = await breachesAfter(
      (tx) =>
        tx.$executeRaw`UPDATE ledger_entries SET amount_paise = amount_paise * 2 WHERE payout_id = ${payout.id} AND kind = 'PAYOUT_SETTLE'`,
    );
    expect(breaches.find((b) => b.name === 'ledger-legs-match-their-source')?.breaches).toBe(2);
  });

  it("when a payout's legs are on another merchant's books, then ledger-legs-match-their-source fails", async () => {
    const payout = await paid();
    const other = await makeMerchant(prisma, { balance: '1000.00' });
    const breaches = await breachesAfter(
      (tx) =>
        tx.$executeRaw`UPDATE ledger_entries SET merchant_id = ${other.merchant.id} WHERE payout_id = ${payout.id} AND kind = 'PAYOUT_SETTLE'`,
    );
    expect(breaches.find((b) => b.name === 'ledger-legs-match-their-source')?.breaches).toBe(2);
  });

  it('when one UTR settles two payouts, then utr-settles-one-payout fails', async () => {
    const first = await paid();
    const second = await paid();
    const breaches = await breachesAfter(
      (tx) =>
        tx.$executeRaw`UPDATE payouts SET bank_reference = (SELECT bank_reference FROM payouts WHERE id = ${first.id}) WHERE id = ${second.id}`,
    );
    expect(breaches.find((b) => b.name === 'utr-settles-one-payout')).toMatchObject({
      breaches: 1,
      examples: [{ utr: `UTR${first.ackNo.slice(-9)}`, payouts: 2 }],
    });
  });

  it('when a discrepancy has waited past the attention threshold, then no-old-open-discrepancies fails', async () => {
    const payout = await paid();
    const breaches = await breachesAfter(async (tx) => {
      const { id } = await recordDiscrepancy(tx, {
        payoutId: payout.id,
        kind: 'FAILED_AFTER_SUCCESS',
        source: 'rail',
        railAnswer: { status: 'FAILED' },
      });
      await tx.$executeRaw`UPDATE discrepancies SET created_at = now() - interval '2 days' WHERE id = ${id}`;
    });
    expect(breaches.map((b) => b.name)).toEqual(['no-old-open-discrepancies']);
  });

  it('when a payout has waited under manual review past the attention threshold, then no-old-manual-review fails', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const payout = await payoutAtTheRail(prisma, merchant, { amountPaise: 1_000n });
    const breaches = await breachesAfter(async (tx) => {
      expect((await transitionPayout(tx, payout.id, 'MANUAL_REVIEW', { nextCheckAt: null }, note)).moved).toBe(true);
      await tx.$executeRaw`UPDATE payouts SET updated_at = now() - interval '2 days' WHERE id = ${payout.id}`;
    });
    expect(breaches.map((b) => b.name)).toEqual(['no-old-manual-review']);
  });

  it('when a REVERSED payout lacks its reversal entry, then payout-ledger-matches-status fails', async () => {
    const payout = await paid();
    await reversePayout(prisma, payout.id, { source: 'statement', note });
    const breaches = await breachesAfter(
      (tx) => tx.$executeRaw`DELETE FROM ledger_entries WHERE payout_id = ${payout.id} AND kind = 'PAYOUT_REVERSAL'`,
    );
    expect(breaches.find((b) => b.name === 'payout-ledger-matches-status')?.examples).toMatchObject([
      { payout_id: String(payout.id), state: 'REVERSED', reversals: 0 },
    ]);
  });

  it('when an invariant is broken by many rows, then all are counted and the report carries only the examples asked for', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const checked: { breaches: number; examples: number }[] = [];
    await expect(
      prisma.$transaction(async (tx) => {
        // A thousand payouts paid without a single ledger entry.
        await tx.$executeRawUnsafe(
          `INSERT INTO payouts (merchant_id, transaction_id, mode, amount_paise, ack_no, state, status, bank_reference,
                                beneficiary_account, beneficiary_ifsc, beneficiary_name, settled_at)
           SELECT $1, (880000000000 + i)::text, 'IMPS', 10000, 'MANY' || lpad(i::text, 16, '0'), 'SUCCESS', 'SUCCESS', (770000000000 + i)::text,
                  '123456789012', 'HDFC0001234', 'Asha Kumar', now()
             FROM generate_series(1, 1000) AS i`,
          merchant.merchant.id,
        );
        for (const sampleSize of [3, 0]) {
          const report = await checkInvariants(tx, { stuckAfterMs: 60_000, sampleSize, skip: ['no-stuck-payouts'] });
          const check = report.checks.find((c) => c.name === 'payout-ledger-matches-status')!;
          checked.push({ breaches: check.breaches, examples: check.examples.length });
        }
        throw new RolledBack();
      }),
    ).rejects.toThrow(RolledBack);
    expect(checked.map((c) => c.breaches >= 1000)).toEqual([true, true]);
    expect(checked.map((c) => c.examples)).toEqual([3, 0]);
  });

  it('when an open discrepancy is older than --attention-after-hours, then `pnpm cli reconcile` reports it; by default (24 h) it does not', async () => {
    const payout = await paid();
    const { id } = await recordDiscrepancy(prisma, {
      payoutId: payout.id,
      kind: 'FAILED_AFTER_SUCCESS',
      source: 'rail',
      railAnswer: { status: 'FAILED' },
    });
    await prisma.$executeRaw`UPDATE discrepancies SET created_at = now() - interval '2 hours' WHERE id = ${id}`;
    const check = (stdout: string) =>
      (JSON.parse(stdout) as { checks: { name: string; breaches: number }[]; openDiscrepancies: number }).checks.find(
        (c) => c.name === 'no-old-open-discrepancies',
      );

    const strict = await cli('reconcile', '--attention-after-hours', '1', '--json');
    const lenient = await cli('reconcile', '--json');

    expect(strict.status).toBe(1);
    expect(check(strict.stdout)?.breaches).toBe(1);
    expect(check(lenient.stdout)?.breaches).toBe(0);
    expect(JSON.parse(lenient.stdout).openDiscrepancies).toBeGreaterThanOrEqual(1);
    expect((await cli('reconcile', '--attention-after-hours', '0')).status).toBe(2);
  });

  it('when given a client, then all its checks read one REPEATABLE READ snapshot', async () => {
    const report = await checkInvariants(prisma, { stuckAfterMs: 60_000, skip: ['no-stuck-payouts'] });
    expect(report.isolation).toBe('repeatable read');
  });
});
