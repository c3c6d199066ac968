import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient, creditWallet, type PrismaClient } from '@payout/db';
import { newAckNo } from '@payout/domain';
import { countingStatements as counting } from '../../../../test/support/counting-statements.js';
import { upiInstruction } from '../../../../test/support/payout-instructions.js';
import { CoalescingAccepter } from './coalescing-accepter.js';

const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 4, connectTimeoutMs: 5_000 });
afterAll(() => db.$disconnect());

let sequence = 0;
async function fundedMerchant(rupees: number): Promise<number> {
  const merchant = await db.merchant.create({ data: { mid: `CA${Date.now()}${++sequence}`, name: 'Coalescing test' } });
  await creditWallet(db, merchant.id, BigInt(rupees * 100), `fund-${merchant.id}`);
  return merchant.id;
}

const instruction = upiInstruction;

describe('CoalescingAccepter', () => {
  it('when many accepts for one wallet arrive together, then they share a few statements and the balance is honoured in arrival order', async () => {
    const merchantId = await fundedMerchant(50);
    const { client, statements } = counting(db);
    const accepter = new CoalescingAccepter(client, { maxBatch: 100, maxInFlight: 2, maxWaitMs: 5_000 });
    const results = await Promise.all(Array.from({ length: 80 }, () => accepter.accept(instruction(merchantId, 100n))));
    expect(statements()).toBeLessThanOrEqual(2);
    expect(results.filter((r) => r.outcome === 'accepted')).toHaveLength(50);
    expect(results.filter((r) => r.outcome === 'rejected')).toHaveLength(30);
    // Arrival order is kept within a merchant: the first fifty got the money.
    expect(results.slice(0, 50).every((r) => r.outcome === 'accepted')).toBe(true);
    const wallet = await db.wallet.findUniqueOrThrow({ where: { merchantId } });
    expect(wallet).toMatchObject({ availablePaise: 0n, reservedPaise: 5000n });
  });

  it('when one instruction of a batch is impossible, then only it fails and its neighbours are recorded', async () => {
    const merchantId = await fundedMerchant(10);
    const accepter = new CoalescingAccepter(db, { maxBatch: 100, maxInFlight: 1, maxWaitMs: 5_000 });
    const orphan = instruction(2_000_000_000, 100n); // no such merchant: the foreign key refuses it
    const settled = await Promise.allSettled([
      accepter.accept(instruction(merchantId, 100n)),
      accepter.accept(orphan),
      accepter.accept(instruction(merchantId, 200n)),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const wallet = await db.wallet.findUniqueOrThrow({ where: { merchantId } });
    expect(wallet.reservedPaise).toBe(300n);
  });

  it('when the same TransactionID comes twice in one batch, then one payout is made and both get it', async () => {
    const merchantId = await fundedMerchant(10);
    const accepter = new CoalescingAccepter(db, { maxBatch: 100, maxInFlight: 1, maxWaitMs: 5_000 });
    const one = instruction(merchantId, 100n);
    const [a, b] = await Promise.all([accepter.accept(one), accepter.accept({ ...one, ackNo: newAckNo() })]);
    expect(a.outcome).toBe('accepted');
    expect(b.outcome).toBe('existing');
    expect(b.payout.ackNo).toBe(a.payout.ackNo);
  });

  it('when the statement in flight is stuck behind a lock, then waiting instructions give up with 503 and record nothing', async () => {
    const merchantId = await fundedMerchant(10);
    const accepter = new CoalescingAccepter(db, { maxBatch: 100, maxInFlight: 1, maxWaitMs: 300 });
    const locker = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = locker.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT 1 FROM wallets WHERE merchant_id = ${merchantId} FOR UPDATE`;
        locked();
        await released;
      },
      { timeout: 10_000 },
    );
    await isLocked;

    const stuck = accepter.accept(instruction(merchantId, 100n)); // takes the only slot, waits on the lock
    await new Promise((resolve) => setImmediate(resolve)); // let it leave in a statement of its own
    const waiting = await Promise.allSettled([
      accepter.accept(instruction(merchantId, 100n)),
      accepter.accept(instruction(merchantId, 100n)),
    ]);
    expect(waiting.map((w) => w.status)).toEqual(['rejected', 'rejected']);
    expect(waiting.map((w) => (w as PromiseRejectedResult).reason.code)).toEqual([
      'DEPENDENCY_UNAVAILABLE',
      'DEPENDENCY_UNAVAILABLE',
    ]);

    release();
    await holder;
    expect((await stuck).outcome).toBe('accepted');
    expect(await db.payout.count({ where: { merchantId } })).toBe(1);
    await locker.$disconnect();
  });

  it('when a statement returns its rows in another order, then every request still gets its own payout', async () => {
    const merchants = [await fundedMerchant(100), await fundedMerchant(100), await fundedMerchant(100)];
    // The same client, but every batch's rows come back reversed.
    const reversing = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== '$queryRaw') return Reflect.get(target, property, receiver) as unknown;
        return async (...args: Parameters<PrismaClient['$queryRaw']>) =>
          [...(await target.$queryRaw<unknown[]>(...args))].reverse();
      },
    });
    const accepter = new CoalescingAccepter(reversing, { maxBatch: 100, maxInFlight: 1, maxWaitMs: 5_000 });
    const instructions = merchants.flatMap((m) => Array.from({ length: 4 }, (_, i) => instruction(m, BigInt(100 + i))));
    const repeat = { ...instructions[0]!, ackNo: newAckNo() }; // the same TransactionID again, in the same batch
    const results = await Promise.all([...instructions, repeat].map((i) => accepter.accept(i)));

    results.slice(0, -1).forEach((result, i) => {
      expect(result.outcome).toBe('accepted');
      expect(result.payout).toMatchObject({
        merchantId: instructions[i]!.merchantId,
        transactionId: instructions[i]!.transactionId,
        ackNo: instructions[i]!.ackNo,
        amountPaise: instructions[i]!.amountPaise,
      });
    });
    expect(results.at(-1)).toMatchObject({
      outcome: 'existing',
      payout: { merchantId: repeat.merchantId, transactionId: repeat.transactionId, ackNo: instructions[0]!.ackNo },
    });
  });
});
