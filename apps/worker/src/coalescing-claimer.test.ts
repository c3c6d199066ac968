import { afterAll, describe, expect, it } from 'vitest';
import { acceptPayouts, type BankClaimRequest, type BankRoutes, type PrismaClient } from '@payout/db';
import { countingStatements as counting } from '../../../test/support/counting-statements.js';
import { testPool, testPrisma } from '../../../test/support/database.js';
import { makeMerchant } from '../../../test/support/factories.js';
import { expectBooksBalanced } from '../../../test/support/ledger-checks.js';
import { upiInstruction } from '../../../test/support/payout-instructions.js';
import { CoalescingClaimer } from './coalescing-claimer.js';

const db: PrismaClient = testPrisma();
const pool = testPool();
afterAll(async () => {
  await db.$disconnect();
  await pool.end();
});

const decision = { bank: 'primary', score: null, reason: 'only-bank', at: new Date().toISOString() } as const;
const toPrimary: BankRoutes = {
  routes: {
    IMPS: { decision, reason: 'test: routed to primary' },
    UPI: { decision, reason: 'test: routed to primary' },
  },
  pinned: null,
};
const nowhere: BankRoutes = {
  routes: { IMPS: { hold: 'test: no bank' }, UPI: { hold: 'test: no bank' } },
  pinned: null,
};

function claimOf(payoutId: bigint, routes: BankRoutes = toPrimary): BankClaimRequest {
  return {
    payoutId,
    onlyFrom: ['ACCEPTED'],
    nextCheckAt: new Date(Date.now() + 60_000),
    routes,
    holdNextCheckAt: new Date(Date.now() + 60_000),
    actor: 'test-worker',
  };
}

async function acceptedPayouts(count: number) {
  const merchant = await makeMerchant(db, { balance: '1000.00' });
  const accepted = await acceptPayouts(
    db,
    Array.from({ length: count }, () => upiInstruction(merchant.merchant.id, 1000n)),
  );
  return { merchant, ids: accepted.map((a) => a.payout.id) };
}

async function rowsOf(ids: bigint[]) {
  const { rows } = await pool.query<{ state: string; bank: string | null; events: number }>(
    `SELECT p.state::text, p.bank, (SELECT count(*)::int FROM payout_events e WHERE e.payout_id = p.id) AS events
       FROM payouts p WHERE p.id = ANY($1::bigint[]) ORDER BY array_position($1::bigint[], p.id)`,
    [ids.map(String)],
  );
  return rows;
}

describe('CoalescingClaimer', () => {
  it('when many jobs claim at once, then they share a few statements and each payout is claimed once, answered in its own order', async () => {
    const { merchant, ids } = await acceptedPayouts(30);
    const { client, statements } = counting(db);
    const claimer = new CoalescingClaimer(client, { maxBatch: 50, maxInFlight: 2 });
    // Asked in descending id order: each answer still belongs to its own request.
    const asked = [...ids].reverse();
    const claims = await Promise.all(asked.map((id) => claimer.claim(claimOf(id))));
    expect(statements()).toBeLessThanOrEqual(2);
    expect(claims.map((c) => [c.moved, c.from, c.payout?.id])).toEqual(asked.map((id) => [true, 'ACCEPTED', id]));
    expect(await rowsOf(ids)).toEqual(ids.map(() => ({ state: 'SUBMITTING', bank: 'primary', events: 2 })));
    await expectBooksBalanced(pool, merchant.merchant.id);
  });

  it('when one payout is claimed twice in one batch, then the first claim moves it and the second only sees it', async () => {
    const { ids } = await acceptedPayouts(1);
    const claimer = new CoalescingClaimer(db, { maxBatch: 50, maxInFlight: 1 });
    const [first, second] = await Promise.all([claimer.claim(claimOf(ids[0]!)), claimer.claim(claimOf(ids[0]!))]);
    expect([first.moved, first.from]).toEqual([true, 'ACCEPTED']);
    expect([second.moved, second.from, second.payout?.state]).toEqual([false, 'SUBMITTING', 'SUBMITTING']);
    expect(await rowsOf(ids)).toEqual([{ state: 'SUBMITTING', bank: 'primary', events: 2 }]);
  });

  it('when a batch holds a missing payout and one no bank serves, then each gets its own answer', async () => {
    const { ids } = await acceptedPayouts(2);
    const claimer = new CoalescingClaimer(db, { maxBatch: 50, maxInFlight: 1 });
    const [missing, held, claimed] = await Promise.all([
      claimer.claim(claimOf(9_000_000_000_000n)),
      claimer.claim(claimOf(ids[0]!, nowhere)),
      claimer.claim(claimOf(ids[1]!)),
    ]);
    expect(missing).toMatchObject({ moved: false, held: false, from: null, payout: null });
    expect(held).toMatchObject({ moved: false, held: true, holdExpired: false, from: 'ACCEPTED' });
    expect(claimed).toMatchObject({ moved: true, held: false, from: 'ACCEPTED' });
    expect((await rowsOf(ids)).map((r) => [r.state, r.bank])).toEqual([
      ['ACCEPTED', null],
      ['SUBMITTING', 'primary'],
    ]);
  });
});
