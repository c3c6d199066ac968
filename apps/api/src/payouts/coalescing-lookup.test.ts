import { afterAll, describe, expect, it } from 'vitest';
import { acceptPayouts, createPrismaClient, creditWallet } from '@payout/db';
import { countingStatements } from '../../../../test/support/counting-statements.js';
import { upiInstruction } from '../../../../test/support/payout-instructions.js';
import { CoalescingLookup } from './coalescing-lookup.js';

const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 4, connectTimeoutMs: 5_000 });
afterAll(() => db.$disconnect());

let sequence = 0;
/** A funded merchant with one accepted payout per TransactionID given. */
async function merchantWithPayouts(transactionIds: string[]): Promise<number> {
  const merchant = await db.merchant.create({ data: { mid: `CL${Date.now()}${++sequence}`, name: 'Lookup test' } });
  await creditWallet(db, merchant.id, 100_000n, `fund-${merchant.id}`);
  await acceptPayouts(
    db,
    transactionIds.map((transactionId) => upiInstruction(merchant.id, 100n, transactionId)),
  );
  return merchant.id;
}

describe('CoalescingLookup', () => {
  it('when many lookups arrive together, then they share a few statements and each gets its own merchant’s payout or null', async () => {
    const a = await merchantWithPayouts(['1', '2', '3']);
    const b = await merchantWithPayouts(['1', '4']);
    const { client, statements } = countingStatements(db);
    const lookup = new CoalescingLookup(client, { maxBatch: 200, maxInFlight: 2 });

    const asked: [number, string][] = [
      [a, '1'],
      [b, '1'],
      [a, '4'], // b's TransactionID: never a's
      [b, '4'],
      [a, '3'],
      [b, '99'],
      [a, '2'],
      [a, '1'], // the same payout twice in one batch
    ];
    const found = await Promise.all(asked.map(([merchantId, transactionId]) => lookup.find(merchantId, transactionId)));

    expect(found.map((p) => p && [p.merchantId, p.transactionId])).toEqual([
      [a, '1'],
      [b, '1'],
      null,
      [b, '4'],
      [a, '3'],
      null,
      [a, '2'],
      [a, '1'],
    ]);
    expect(found[0]!.ackNo).not.toBe(found[1]!.ackNo);
    expect(statements()).toBeLessThan(asked.length);
  });

  it('when a lookup comes alone, then it is answered by a statement of its own', async () => {
    const merchantId = await merchantWithPayouts(['7']);
    const { client, statements } = countingStatements(db);
    const lookup = new CoalescingLookup(client, { maxBatch: 200, maxInFlight: 2 });
    expect((await lookup.find(merchantId, '7'))?.status).toBe('PENDING');
    expect(statements()).toBe(1);
  });

  it('when the statement fails, then every lookup it carried fails with its error', async () => {
    // Nothing listens on port 1: the statement fails to get a connection.
    const unreachable = createPrismaClient({
      url: 'postgresql://postgres@127.0.0.1:1/none',
      poolSize: 1,
      connectTimeoutMs: 1_000,
    });
    const lookup = new CoalescingLookup(unreachable, { maxBatch: 200, maxInFlight: 1 });
    try {
      const outcomes = await Promise.allSettled([lookup.find(1, '1'), lookup.find(2, '2')]);
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    } finally {
      await unreachable.$disconnect();
    }
  });
});
