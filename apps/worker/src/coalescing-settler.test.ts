import { afterAll, describe, expect, it } from 'vitest';
import { failureOf, successOf, type PrismaClient } from '@payout/db';
import { countingStatements as counting } from '../../../test/support/counting-statements.js';
import { testPool, testPrisma } from '../../../test/support/database.js';
import { makeMerchant } from '../../../test/support/factories.js';
import { expectBooksBalanced } from '../../../test/support/ledger-checks.js';
import { payoutAtTheRail } from '../../../test/webhooks/webhook-fixtures.js';
import { CoalescingSettler } from './coalescing-settler.js';

const db: PrismaClient = testPrisma();
const pool = testPool();
afterAll(async () => {
  await db.$disconnect();
  await pool.end();
});

const note = { reason: 'test: rail answered', actor: 'test', attempt: 1 };

async function payoutsAtTheRail(count: number, balance = '1000.00') {
  const merchant = await makeMerchant(db, { balance });
  const payouts = [];
  for (let i = 0; i < count; i++) payouts.push(await payoutAtTheRail(db, merchant, { amountPaise: 1000n }));
  return { merchant, payouts };
}

async function statesOf(ids: bigint[]): Promise<string[]> {
  const { rows } = await pool.query<{ state: string }>(
    'SELECT state::text FROM payouts WHERE id = ANY($1::bigint[]) ORDER BY array_position($1::bigint[], id)',
    [ids.map(String)],
  );
  return rows.map((r) => r.state);
}

describe('CoalescingSettler', () => {
  it('when many jobs settle at once, then they share a few statements, each payout settles once and the books balance', async () => {
    const { merchant, payouts } = await payoutsAtTheRail(30);
    const { client, statements } = counting(db);
    const settler = new CoalescingSettler(client, { maxBatch: 50, maxInFlight: 2 });
    const results = await Promise.all(
      payouts.map((p, i) =>
        settler.settle(i % 3 === 0 ? failureOf(p.id, 'RAIL_REJECTED', note) : successOf(p.id, `UTR${p.id}`, note)),
      ),
    );
    expect(statements()).toBeLessThanOrEqual(2);
    expect(results.map((r) => [r.moved, r.from])).toEqual(payouts.map(() => [true, 'SUBMITTING']));
    expect(await statesOf(payouts.map((p) => p.id))).toEqual(
      payouts.map((_, i) => (i % 3 === 0 ? 'FAILED' : 'SUCCESS')),
    );
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books.reserved).toBe(0n);
    // 20 paid out of 1000.00, 10 returned: 1000.00 − 200.00.
    expect(books.available).toBe(80_000n);
  });

  it('when one payout is settled twice in one batch, SUCCESS then FAILED, then only the first goes through and the second sees it', async () => {
    const { merchant, payouts } = await payoutsAtTheRail(1);
    const [payout] = payouts;
    const settler = new CoalescingSettler(db, { maxBatch: 50, maxInFlight: 1 });
    const [paid, failed] = await Promise.all([
      settler.settle(successOf(payout!.id, 'UTR-ONCE', note)),
      settler.settle(failureOf(payout!.id, 'RAIL_REJECTED', note)),
    ]);
    expect(paid).toMatchObject({ moved: true, from: 'SUBMITTING' });
    expect(failed).toMatchObject({ moved: false, from: 'SUCCESS' });
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when the database refuses one settlement of a batch, then only it fails and its neighbours settle', async () => {
    const { merchant, payouts } = await payoutsAtTheRail(3);
    const settler = new CoalescingSettler(db, { maxBatch: 50, maxInFlight: 1 });
    const outcomes = await Promise.allSettled([
      settler.settle(successOf(payouts[0]!.id, 'UTR-A', note)),
      // Not a failure reason the database knows: the whole statement is refused, the batch retried alone.
      settler.settle(failureOf(payouts[1]!.id, 'NOT_A_REASON' as 'RAIL_REJECTED', note)),
      settler.settle(successOf(payouts[2]!.id, 'UTR-C', note)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await statesOf(payouts.map((p) => p.id))).toEqual(['SUCCESS', 'SUBMITTING', 'SUCCESS']);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when a settlement names no payout, then it answers not moved and the others settle', async () => {
    const { payouts } = await payoutsAtTheRail(1);
    const settler = new CoalescingSettler(db, { maxBatch: 50, maxInFlight: 1 });
    const [missing, real] = await Promise.all([
      settler.settle(successOf(9_000_000_000_000n, 'UTR-NONE', note)),
      settler.settle(successOf(payouts[0]!.id, 'UTR-REAL', note)),
    ]);
    expect(missing).toEqual({ moved: false, from: null, webhookDeliveryId: null });
    expect(real).toMatchObject({ moved: true, from: 'SUBMITTING' });
  });
});
