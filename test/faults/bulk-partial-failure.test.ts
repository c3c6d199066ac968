import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient, findBulkBatch, findCredentials } from '@payout/db';
import { AppError } from '@payout/domain';
import { createPayoutProducer, createProducerConnection } from '@payout/queue';
import { createLogger, createMetrics } from '@payout/telemetry';
import { CoalescingAccepter, submitBulkPayout, type SubmitBulkDeps } from '@payout/use-cases';
import { testPool, testPrisma } from '../support/database.js';
import { makeMerchant } from '../support/factories.js';
import { newTransactionId } from '../support/api.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';

// A batch whose accept path fails part-way (the accepter's deadline passes, or PostgreSQL goes away, for
// one item): the request must fail with 503 and record no batch, the items accepted before it must stay
// ordinary payouts, and the merchant's retry of the same batch must finish it without reserving anything
// twice (docs/api.md, "Bulk payouts", Faults). The fault is injected at the accepter seam, in front of the
// real accepter and the real database.

const prisma = testPrisma();
const pool = testPool();
const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 4, connectTimeoutMs: 5_000 });
const redis = createProducerConnection(process.env.REDIS_URL!);
const producer = createPayoutProducer({ connection: redis, prefix: process.env.QUEUE_PREFIX!, timeoutMs: 2_000 });
afterAll(async () => {
  await producer.close();
  redis.disconnect();
  await db.$disconnect();
  await prisma.$disconnect();
  await pool.end();
});

const log = createLogger('test', 'silent');

describe('a bulk batch that fails part-way', () => {
  it('when one item cannot be accepted, then 503 with no batch recorded, and the retry completes it with every payout reserved once', async () => {
    const { merchant: row, mid } = await makeMerchant(prisma, { balance: '5000.00' });
    const merchant = (await findCredentials(db, mid))!.merchant;
    const real = new CoalescingAccepter(db, { maxBatch: 200, maxInFlight: 2, maxWaitMs: 10_000 });
    const base = newTransactionId().slice(0, 20);
    const payouts = Array.from({ length: 1_200 }, (_, i) => ({
      Mode: 'UPI',
      TransactionID: `${base}${i}`,
      Amount: '2.00',
      Upi: 'asha.kumar@okhdfc',
      Name: 'Asha Kumar',
    }));
    const failing = `${base}700`; // in the second chunk of 500
    let faultArmed = true;
    const deps: SubmitBulkDeps = {
      db,
      producer,
      metrics: createMetrics('test'),
      accepter: {
        accept: (instruction) =>
          faultArmed && instruction.transactionId === failing
            ? Promise.reject(new AppError('DEPENDENCY_UNAVAILABLE', 'injected: the accepter gave up'))
            : real.accept(instruction),
        findRecorded: (merchantId, transactionId) => real.findRecorded(merchantId, transactionId),
      },
    };
    const batchId = newTransactionId();

    await expect(submitBulkPayout(deps, { merchant, batchId, payouts, log })).rejects.toMatchObject({
      code: 'DEPENDENCY_UNAVAILABLE',
    });

    expect(await findBulkBatch(db, row.id, batchId)).toBeNull();
    // The first two chunks were handed over (all but the failing item accepted); the third never was.
    const { rows } = await pool.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM payouts WHERE merchant_id = $1',
      [row.id],
    );
    expect(rows[0]!.count).toBe(999);
    const firstAck = (
      await prisma.payout.findFirstOrThrow({ where: { merchantId: row.id, transactionId: `${base}0` } })
    ).ackNo;

    faultArmed = false;
    const batch = await submitBulkPayout(deps, { merchant, batchId, payouts, log });

    expect(batch.items).toHaveLength(1_200);
    expect(batch.items.every((i) => 'payout' in i && i.payout.status === 'PENDING')).toBe(true);
    expect(batch.items[0]).toMatchObject({ payout: { ackNo: firstAck } });
    expect(await findBulkBatch(db, row.id, batchId)).toMatchObject({ batchId });
    const books = await expectBooksBalanced(pool, row.id);
    expect(books).toMatchObject({ reserved: 240_000n, available: 500_000n - 240_000n });
  });
});
