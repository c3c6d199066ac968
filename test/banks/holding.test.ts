import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from '@payout/worker';
import { useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { expectBooksBalanced, merchantBooks } from '../support/ledger-checks.js';
import { workerConfig } from '../support/stack.js';
import { startSwitchableBank, type SwitchableBank } from './switchable-bank.js';
import {
  allIn,
  downtimes,
  eliminated,
  FAST_ROUTING,
  payoutsOf,
  sendPayouts,
  twoBanks,
  workerSeesEliminated,
} from './support.js';

// Both sponsor banks down (docs/banks.md, "Holding"): they answer 503 to every submit until routing has
// eliminated both. New payouts are then held — reserved, never sent — and either go the moment a bank
// recovers, or fail with BANK_DOWNTIME past their merchant's hold window, the reservation released exactly.
// No probes here (ROUTING_PROBE_SHARE 0), so a held payout is held for certain: a bank's recovery is seen
// through the payouts it already holds, which it pays once it is up (one good outcome is enough, once its
// failures have left the 3 s window).

const prisma = testPrisma();
const pool: pg.Pool = testPool();
let primary: SwitchableBank;
let secondary: SwitchableBank;
let worker: RunningWorker;
let warmUp: TestMerchant;

beforeAll(async () => {
  primary = await startSwitchableBank('down');
  secondary = await startSwitchableBank('down');
});
const api = useApi(() => ({ BANKS: twoBanks(primary.url, secondary.url, [1, 1]) }));
beforeAll(async () => {
  worker = await startWorker(
    workerConfig({
      BANKS: twoBanks(primary.url, secondary.url, [1, 1]),
      ...FAST_ROUTING,
      ROUTING_PROBE_SHARE: '0',
      ROUTING_RECOVER_MIN_OUTCOMES: '1',
    }),
  );
  warmUp = await makeMerchant(prisma, { balance: '1000.00' });
});
afterAll(async () => {
  await worker.close();
  await primary.close();
  await secondary.close();
  await prisma.$disconnect();
  await pool.end();
});

async function heldEvents(payoutId: string): Promise<string[]> {
  const { rows } = await pool.query<{ reason: string }>(
    `SELECT reason FROM payout_events WHERE payout_id = $1 AND from_state = 'ACCEPTED' AND to_state = 'ACCEPTED'`,
    [payoutId],
  );
  return rows.map((r) => r.reason);
}

describe('both banks down: payouts held, then sent or failed', () => {
  it('when both banks fail every submit, then routing eliminates both and opens a downtime for each', async () => {
    // Payouts sent one by one until both are eliminated; they stay with the bank they were sent to.
    await eventually(
      async () => {
        await sendPayouts(api.current, warmUp, 1);
        return (await eliminated(pool, 'primary')) && (await eliminated(pool, 'secondary'));
      },
      (both) => both,
      { timeoutMs: 20_000, intervalMs: 150, what: 'both banks to be eliminated for IMPS' },
    );
    const open = await eventually(
      () => downtimes(pool),
      (list) => list.length === 2,
      { what: 'a downtime for each bank' },
    );
    // Routing acts on the worker's view, read a refresh after the database says it.
    await eventually(
      async () => (await workerSeesEliminated(worker, 'primary')) && (await workerSeesEliminated(worker, 'secondary')),
      (both) => both,
      { what: "the worker's routing to see both banks eliminated" },
    );
    expect(open.map((d) => `${d.bank} ${d.mode} ${d.status} ${d.resolved}`).sort()).toEqual([
      'primary IMPS DOWN false',
      'secondary IMPS DOWN false',
    ]);
    expect(primary.paid.size + secondary.paid.size).toBe(0);
  });

  it('when no bank serves the mode, then a new payout is held, reserved exactly and never sent; past the hold window it fails with BANK_DOWNTIME and the reservation comes back exactly', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    await prisma.merchant.update({ where: { id: merchant.merchant.id }, data: { downtimeHoldSeconds: 1 } });
    const sent = await sendPayouts(api.current, merchant, 2, '30.00');
    const held = await eventually(
      () => payoutsOf(pool, merchant.merchant.id),
      (rows) => rows.every((r) => r.held_since !== null),
      { what: 'both payouts to be held' },
    );
    expect(held.map((r) => [r.state, r.bank])).toEqual([
      ['ACCEPTED', null],
      ['ACCEPTED', null],
    ]);
    expect(await merchantBooks(pool, merchant.merchant.id)).toMatchObject({ available: 4_000n, reserved: 6_000n });

    const failed = await allIn(pool, merchant.merchant.id, ['FAILED'], 10_000);
    expect(failed.map((r) => [r.failure_reason, r.bank])).toEqual([
      ['BANK_DOWNTIME', null],
      ['BANK_DOWNTIME', null],
    ]);
    for (const reference of sent) {
      expect(primary.submits.has(reference) || secondary.submits.has(reference)).toBe(false);
    }
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    expect(books).toMatchObject({ available: 10_000n, reserved: 0n, ledgerPaidOut: 0n });
    const { rows: story } = await pool.query<{ to_state: string; reason: string }>(
      `SELECT to_state::text, reason FROM payout_events WHERE payout_id = $1 ORDER BY id`,
      [failed[0]!.id],
    );
    expect(story.map((e) => e.to_state)).toEqual(['ACCEPTED', 'ACCEPTED', 'FAILED']);
    expect(story[1]!.reason).toMatch(/^held, reserved and unsent: no bank serves IMPS now/);
    expect(story[2]!.reason).toMatch(/failed with BANK_DOWNTIME, never sent/);
  });

  it('when one bank recovers, then the held payouts are sent to it at once and paid once, the hold cleared', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100.00' });
    const sent = await sendPayouts(api.current, merchant, 3, '20.00');
    const held = await eventually(
      () => payoutsOf(pool, merchant.merchant.id),
      (rows) => rows.every((r) => r.held_since !== null),
      { what: 'the payouts to be held' },
    );
    expect(held.map((r) => r.state)).toEqual(['ACCEPTED', 'ACCEPTED', 'ACCEPTED']);
    expect(await heldEvents(held[0]!.id)).toHaveLength(1);
    expect(await merchantBooks(pool, merchant.merchant.id)).toMatchObject({ available: 4_000n, reserved: 6_000n });

    secondary.manner = 'up';
    await eventually(
      () => downtimes(pool),
      (list) => list.some((d) => d.bank === 'secondary' && d.resolved),
      { timeoutMs: 20_000, what: 'the downtime of secondary to be resolved' },
    );
    const recoveredAt = Date.now();
    const paid = await allIn(pool, merchant.merchant.id, ['SUCCESS'], 10_000);
    // The held payouts look again every ROUTING_HOLD_RETRY_MS (200 ms): sent within moments of the recovery.
    expect(Date.now() - recoveredAt).toBeLessThan(3_000);
    expect(paid.map((r) => [r.bank, r.routing?.reason, r.held_since])).toEqual(
      sent.map(() => ['secondary', 'best-score', null]),
    );
    for (const reference of sent) {
      expect(secondary.paid.has(reference)).toBe(true);
      expect(primary.submits.has(reference)).toBe(false);
    }
    expect(await expectBooksBalanced(pool, merchant.merchant.id)).toMatchObject({
      available: 4_000n,
      reserved: 0n,
      ledgerPaidOut: 6_000n,
    });
    // The payouts that waited at a bank through the downtime are paid too, each by one bank only.
    const warm = await allIn(pool, warmUp.merchant.id, ['SUCCESS'], 30_000);
    for (const row of warm) {
      expect([primary.paid.has(row.ack_no), secondary.paid.has(row.ack_no)]).toEqual([false, true]);
    }
    await expectBooksBalanced(pool, warmUp.merchant.id);
  });
});
