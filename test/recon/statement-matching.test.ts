import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { settleSuccess, type PayoutSummary } from '@payout/db';
import { STATEMENT_HEADER } from '@payout/recon';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { useApi } from '../support/api.js';
import { statementApplied } from '../support/approvals.js';
import { payoutAtTheRail } from '../webhooks/webhook-fixtures.js';
import { istToday, statementFile, type StatementRunJson } from './statement-support.js';

// Matching beyond the reference end to end (docs/reconciliation.md, "Matching beyond the reference"): a
// line known only by its UTR, a line of no known key that a person is pointed to, and one debit for a
// whole bulk batch — named by the batch's id, or by its total — through `pnpm cli recon statement --apply`.

const api = useApi();
const prisma = testPrisma();
const pool = testPool();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

type RunJson = StatementRunJson;

async function payoutRow(id: bigint) {
  const { rows } = await pool.query<{ state: string; bank_reference: string | null }>(
    'SELECT state::text, bank_reference FROM payouts WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

/** A bulk batch as the API records it, of payouts already accepted. */
async function bulkBatchOf(merchantId: number, payouts: readonly PayoutSummary[]): Promise<string> {
  const batchId = `${randomInt(1, 2 ** 47)}`;
  await prisma.bulkBatch.create({
    data: {
      merchantId,
      batchId,
      itemsDigest: '0'.repeat(64),
      total: payouts.length,
      items: { create: payouts.map((p, itemIndex) => ({ itemIndex, payoutId: p.id })) },
    },
  });
  return batchId;
}

const rupees = (paise: bigint) => `${paise / 100n}.${(paise % 100n).toString().padStart(2, '0')}`;
const unique = () => `${randomInt(1, 2 ** 47)}`;

describe('pnpm cli recon statement, beyond the reference', () => {
  it('when lines name payouts by UTR, by bulk batch or by batch total, then each payout is paid by its line, and a line of no known key is only a suggestion', async () => {
    const merchant = await makeMerchant(prisma, { balance: '50000.00' });
    // Amounts no other payout of today is likely to have: a suggestion looks at every payout of the amount.
    const base = BigInt(randomInt(50_000, 500_000));
    const atTheRail = (offset: bigint) => payoutAtTheRail(prisma, merchant, { amountPaise: base + offset });
    const note = { reason: 'test: the worker settled it', actor: 'test' };

    const byUtr = await atTheRail(1n);
    const utr = `UTR${unique()}`;
    await settleSuccess(prisma, byUtr.id, utr, note);
    const suggested = await atTheRail(2n);
    const [namedPending, namedSettled] = [await atTheRail(3n), await atTheRail(4n)];
    await settleSuccess(prisma, namedSettled.id, `UTR${unique()}`, note);
    const namedBatch = await bulkBatchOf(merchant.merchant.id, [namedPending, namedSettled]);
    const totalled = [await atTheRail(5n), await atTheRail(7n)];
    await bulkBatchOf(merchant.merchant.id, totalled);

    const today = istToday();
    const [namedUtr, totalledUtr] = [`BULK${unique()}`, `BULK${unique()}`];
    const path = await statementFile(
      [
        STATEMENT_HEADER.join(','),
        `NEFTNARR${unique()},${utr},${rupees(byUtr.amountPaise)},DEBIT,${today}`,
        `IMPSNARR${unique()},XUTR${unique()},${rupees(suggested.amountPaise)},DEBIT,${today}`,
        `${namedBatch},${namedUtr},${rupees(namedPending.amountPaise + namedSettled.amountPaise)},DEBIT,${today}`,
        `BULKNARR${unique()},${totalledUtr},${rupees(totalled[0]!.amountPaise + totalled[1]!.amountPaise)},DEBIT,${today}`,
        '',
      ].join('\n'),
    );

    const result = await statementApplied(api.current.adminUrl, 'recon', 'statement', '--file', path);
    const report = JSON.parse(result.stdout) as RunJson;

    expect(report.counts).toMatchObject({
      matched: 2,
      pending_here_paid_at_bank: 3,
      suggested_match: 1,
      unknown_reference: 0,
      amount_mismatch: 0,
      applied: 0,
    });
    const pendingBreaks = report.breaks.filter((b) => b.kind === 'pending_here_paid_at_bank').map((b) => b.reference);
    expect(pendingBreaks.sort()).toEqual([namedPending, ...totalled].map((p) => p.ackNo).sort());
    // A bulk debit's UTR is the batch's, not the proof of each payout: the batch's pending payouts wait for a person.
    expect(report.plannedActions).toEqual([]);
    for (const p of [namedPending, ...totalled]) {
      expect(await payoutRow(p.id)).toEqual({ state: 'SUBMITTING', bank_reference: null });
    }
    // A suggestion is never applied and never a discrepancy: the payout is as it was.
    expect(await payoutRow(suggested.id)).toEqual({ state: 'SUBMITTING', bank_reference: null });
    const { rows } = await pool.query('SELECT 1 FROM discrepancies WHERE payout_id = $1', [suggested.id]);
    expect(rows).toEqual([]);
    const suggestion = report.breaks.find((b) => b.kind === 'suggested_match');
    expect(suggestion?.candidates).toEqual([
      { ack_no: suggested.ackNo, amount: rupees(suggested.amountPaise), beneficiary: 'Asha Kumar', date: today },
    ]);
    // Paid by the statement, so none of them is missing at the bank.
    const mine = new Set([byUtr, namedSettled].map((p) => p.ackNo));
    expect(report.breaks.filter((b) => mine.has(b.reference))).toEqual([]);
  });
});
