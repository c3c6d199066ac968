import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRailSim, type RailSim, type RailSimServer } from '@payout/rail-sim';
import { startWorker, type RunningWorker } from '@payout/worker';
import { useApi } from '../support/api.js';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { FAST_RAIL, workerConfig } from '../support/stack.js';
import { allIn, FAST_ROUTING, sendPayouts, twoBanks } from './support.js';

// Two rail simulators as two sponsor banks of equal weight (docs/banks.md, docs/rail-sim.md): new payouts are
// shared between them, and the simulator's bank manners — `.44` answered 503 twice before it is taken, `.33`
// paid with the reply lost, `.11` declined by the beneficiary's bank — are each settled at the bank the payout
// was sent to, never at the other: none of them is a definitive "not paid", and both banks keep serving.

const prisma = testPrisma();
const pool: pg.Pool = testPool();
const sims: { sim: RailSim; server: RailSimServer }[] = [];
let worker: RunningWorker;

beforeAll(async () => {
  for (let i = 0; i < 2; i++) {
    const sim = createRailSim(FAST_RAIL);
    sims.push({ sim, server: await sim.listen(0) });
  }
});
const api = useApi(() => ({ BANKS: twoBanks(sims[0]!.server.url, sims[1]!.server.url, [1, 1]) }));
beforeAll(async () => {
  worker = await startWorker(
    // Never enough outcomes to score: the two banks stay equals, sharing by weight.
    workerConfig({
      BANKS: twoBanks(sims[0]!.server.url, sims[1]!.server.url, [1, 1]),
      ...FAST_ROUTING,
      ROUTING_MIN_OUTCOMES: '1000',
    }),
  );
});
afterAll(async () => {
  await worker.close();
  for (const { server } of sims) await server.close();
  await prisma.$disconnect();
  await pool.end();
});

describe('two rail simulators as two banks', () => {
  it('when payouts of every manner are sent, then they are shared by weight, and each is settled by the bank it records, known to that bank only', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    const amounts = ['10.00', '10.00', '10.00', '10.00', '10.44', '10.44', '10.33', '10.11', '10.00', '10.00'];
    const sent: string[] = [];
    for (const amount of amounts) sent.push(...(await sendPayouts(api.current, merchant, 1, amount)));
    const rows = await allIn(pool, merchant.merchant.id, ['SUCCESS', 'FAILED'], 30_000);

    const bankIndex = { primary: 0, secondary: 1 } as const;
    for (const row of rows) {
      const at = bankIndex[row.bank as keyof typeof bankIndex];
      expect(row.routing?.bank).toBe(row.bank);
      expect(sims[at]!.sim.payout(row.ack_no), `${row.ack_no} at its bank`).toBeDefined();
      expect(sims[1 - at]!.sim.payout(row.ack_no), `${row.ack_no} at the other bank`).toBeUndefined();
    }
    const state = (amount: string) =>
      rows
        .filter((r) => r.amount_paise === amount.replace('.', ''))
        .map((r) => `${r.state} ${r.failure_reason ?? ''}`.trim());
    expect(state('10.44')).toEqual(['SUCCESS', 'SUCCESS']);
    expect(state('10.33')).toEqual(['SUCCESS']);
    expect(state('10.11')).toEqual(['FAILED DECLINED_BY_BENEFICIARY_BANK']);
    expect(rows.map((r) => r.routing?.reason)).toEqual(rows.map(() => 'weighted-share'));
    expect(sims[0]!.sim.stats().payments + sims[1]!.sim.stats().payments).toBe(9);
    await expectBooksBalanced(pool, merchant.merchant.id);
  });
});
