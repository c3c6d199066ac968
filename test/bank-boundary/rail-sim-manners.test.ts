import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { checkInvariants } from '@payout/db';
import { call, impsBody, upiBody } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { useStack } from '../support/stack.js';

// The same bank manners as ./stub-bank.test.ts, produced by apps/rail-sim's magic values and its strict
// mode (docs/rail-sim.md), end to end through the API and the worker.
const prisma = testPrisma();
const pool: pg.Pool = testPool();
const stack = useStack({
  railSim: { duplicates: 'refuse', statusLagMs: 1_000, deemedSuccessMs: 1_000, reverseAfterMs: 60_000 },
  worker: { RAIL_NOT_FOUND_TRUSTED_AFTER_MS: '4000' },
});
afterAll(async () => {
  await prisma.$disconnect();
  await pool.end();
});

async function settle(amount: string, mode: 'IMPS' | 'UPI' = 'IMPS') {
  const merchant = await makeMerchant(prisma, { balance: '100.00' });
  const body = mode === 'IMPS' ? impsBody({ Amount: amount }) : upiBody({ Amount: amount });
  const accepted = await call(stack.current.api, mode === 'IMPS' ? '/api/impspayout' : '/api/payout', {
    merchant,
    body,
  });
  expect(accepted.status).toBe(202);
  const { rows } = await eventually(
    () =>
      pool.query<{ id: string; ack_no: string; state: string; bank_reference: string | null }>(
        'SELECT id, ack_no, state::text, bank_reference FROM payouts WHERE merchant_id = $1',
        [merchant.merchant.id],
      ),
    (r) => ['SUCCESS', 'FAILED', 'REVERSED'].includes(r.rows[0]?.state ?? ''),
    { timeoutMs: 20_000, what: `the ${amount} payout to settle` },
  );
  const events = await pool.query<{ to_state: string }>(
    'SELECT to_state::text FROM payout_events WHERE payout_id = $1 ORDER BY id',
    [rows[0]!.id],
  );
  return { payout: rows[0]!, merchant, states: events.rows.map((e) => e.to_state) };
}

describe("rail-sim's bank manners through the worker", () => {
  it('when a strict bank pays a .88 payout, loses the reply, lags with NOT_FOUND and refuses the resubmit, then the payout ends SUCCESS with the bank’s UTR', async () => {
    const { payout, merchant, states } = await settle('10.88');
    const atBank = stack.current.railSim.payout(payout.ack_no)!;
    expect(payout).toMatchObject({ state: 'SUCCESS', bank_reference: atBank.utr });
    expect(states).not.toContain('FAILED');
    expect(atBank.submissions).toBe(2);
    expect(await expectBooksBalanced(pool, merchant.merchant.id)).toMatchObject({ ledgerPaidOut: 1_088n });
  });

  it('when a .66 payout is deemed successful after a while, then it ends SUCCESS', async () => {
    const { payout, states } = await settle('10.66', 'UPI');
    expect(payout.state).toBe('SUCCESS');
    expect(states).toContain('AWAITING_RAIL');
  });

  it.each(['10.91', '10.92', '10.93', '10.94'])(
    'when the bank pays a %s payout and garbles the first reply, then it ends SUCCESS with the real UTR',
    async (amount) => {
      const { payout, states } = await settle(amount);
      expect(payout).toMatchObject({
        state: 'SUCCESS',
        bank_reference: stack.current.railSim.payout(payout.ack_no)!.utr,
      });
      expect(states).toContain('OUTCOME_UNKNOWN');
    },
  );

  it('when every one of them is settled, then the bank paid each once and reconcile passes', async () => {
    expect(stack.current.railSim.stats()).toMatchObject({ payments: 6, reversals: 0 });
    const report = await checkInvariants(prisma, { stuckAfterMs: 60_000 });
    expect(report.checks.filter((c) => c.breaches > 0)).toEqual([]);
  });
});
