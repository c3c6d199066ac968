import { afterAll, describe, expect, it } from 'vitest';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, newTransactionId } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { useStack } from '../support/stack.js';

// A full-size batch (5,000 items, docs/api.md "Bulk payouts") through the whole stack: the API answers it
// promptly, the worker settles every item through the rail simulator, and the wallet and ledger come out
// exact to the paisa.

const prisma = testPrisma();
const pool = testPool();
const stack = useStack();
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

const ITEMS = 5_000;
/** Every 50th item ends in .11, which the simulated bank declines (docs/rail-sim.md). */
const declined = (index: number) => index % 50 === 7;

describe('a 5,000-item batch', () => {
  it('when a merchant sends 5,000 payouts in one batch, then every item is accepted in order and settles with the books exact', async () => {
    const merchant = await makeMerchant(prisma, { balance: '20000.00' });
    const base = newTransactionId().slice(0, 20);
    const payouts = Array.from({ length: ITEMS }, (_, i) =>
      i % 2 === 0
        ? {
            Mode: 'IMPS',
            TransactionID: `${base}${i}`,
            Amount: declined(i) ? '3.11' : '3.00',
            Account: '123456789012',
            Ifsc: 'HDFC0001234',
            Name: 'Asha Kumar',
          }
        : {
            Mode: 'UPI',
            TransactionID: `${base}${i}`,
            Amount: declined(i) ? '3.11' : '3.00',
            Upi: 'asha.kumar@okhdfc',
            Name: 'Asha Kumar',
          },
    );
    const batchId = newTransactionId();

    const started = performance.now();
    const res = await call(stack.current.api, '/api/bulkpayout', {
      merchant,
      body: { BatchID: batchId, Payouts: payouts },
    });
    const answeredMs = performance.now() - started;

    expect(res.status, res.text.slice(0, 500)).toBe(202);
    expect(res.json).toMatchObject({ total: ITEMS, accepted: ITEMS, failed: 0, rejected: 0 });
    const results = res.json.results as { index: number; status: string; TransactionID: unknown }[];
    expect(results.map((r) => r.index)).toEqual(payouts.map((_, i) => i));
    console.info(`5,000-item batch answered in ${Math.round(answeredMs)} ms`);
    // How fast is measured by `pnpm bench` (as a ratio to the single accept path in the same run), not here:
    // on a shared test machine the absolute time says more about the neighbours than about the code.

    const settled = await eventually(
      async () => (await call(stack.current.api, `/api/bulkpayout/status?BatchID=${batchId}`, { merchant })).json,
      (body) => body.pending === 0,
      { timeoutMs: 270_000, intervalMs: 500, what: 'every item of the batch to settle' },
    );
    const declinedCount = payouts.filter((_, i) => declined(i)).length;
    expect(settled).toMatchObject({
      total: ITEMS,
      pending: 0,
      success: ITEMS - declinedCount,
      failed: declinedCount,
      rejected: 0,
    });

    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    const paid = BigInt(ITEMS - declinedCount) * 300n;
    expect(books).toMatchObject({ reserved: 0n, ledgerPaidOut: paid, available: 2_000_000n - paid });
  }, 300_000);
});
