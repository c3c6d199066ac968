import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { call, impsBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { createRailSim, type RailSimServer } from '@payout/rail-sim';
import { startWorker, type RunningWorker } from '@payout/worker';
import { FAST_RAIL, workerConfig } from '../support/stack.js';
import { useApi } from '../support/api.js';

const prisma = testPrisma();
const pool: pg.Pool = testPool();
// The payout is accepted and its job removed before any worker runs, so only the sweeper can bring it back.
const api = useApi();
const railSim = createRailSim(FAST_RAIL);
let worker: RunningWorker | undefined;
let rail: RailSimServer | undefined;
afterAll(async () => {
  await worker?.close();
  await rail?.close();
  await prisma.$disconnect();
  await pool.end();
});

describe('sweeper', () => {
  it('when a payout’s job is removed from Redis after acceptance, then the sweeper queues it again and it settles', async () => {
    const merchant = await makeMerchant(prisma, { balance: '50.00' });
    const body = impsBody({ Amount: '20.00' });
    expect((await call(api.current, '/api/impspayout', { merchant, body })).status).toBe(202);
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM payouts WHERE merchant_id = $1', [
      merchant.merchant.id,
    ]);
    const jobId = `execute-${rows[0]!.id}`;
    const { queue } = api.current.deps.producer;
    const job = await queue.getJob(jobId);
    expect(job).toBeDefined();
    await job!.remove();
    expect(await queue.getJob(jobId)).toBeUndefined();

    rail = await railSim.listen(0);
    worker = await startWorker(workerConfig({ RAIL_BASE_URL: rail.url }));
    const settled = await eventually(
      () => pool.query<{ state: string }>('SELECT state::text FROM payouts WHERE id = $1', [rows[0]!.id]),
      (r) => r.rows[0]?.state === 'SUCCESS',
      { what: 'the swept payout to settle' },
    );
    expect(settled.rows[0]!.state).toBe('SUCCESS');
    expect(await expectBooksBalanced(pool, merchant.merchant.id)).toMatchObject({
      available: 3000n,
      ledgerPaidOut: 2000n,
    });
  });

  it('when a sweep finds nothing overdue, then it adds nothing; when another worker holds the lock, it skips', async () => {
    // The worker's own timer sweeps too and may hold the lock at this moment: take the first sweep that ran.
    const first = await eventually(
      () => worker!.sweeper.sweepOnce(),
      (r) => r.swept,
      { what: 'a sweep' },
    );
    expect(first).toMatchObject({ swept: true, added: 0, retried: 0 });
    const locked = await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${7_358_201_446n})`;
      return worker!.sweeper.sweepOnce();
    });
    expect(locked.swept).toBe(false);
  });
});
