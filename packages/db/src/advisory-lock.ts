import type { Prisma } from './generated/prisma/client.js';
import type { PrismaClient } from './client.js';

/**
 * Runs `work` in a transaction holding the transaction-level advisory lock `key`, or not at all (null)
 * when another session holds it. For periodic jobs that every worker process runs on a timer but only one
 * should run at a time (the sweepers); the lock goes with the transaction, so a crash never leaves it held.
 */
export async function withAdvisoryLock<T>(
  db: PrismaClient,
  key: bigint,
  work: (tx: Prisma.TransactionClient) => Promise<T>,
  options: { timeoutMs?: number; maxWaitMs?: number } = {},
): Promise<T | null> {
  return db.$transaction(
    async (tx) => {
      const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${key}) AS locked`;
      return lock?.locked ? work(tx) : null;
    },
    { timeout: options.timeoutMs ?? 60_000, maxWait: options.maxWaitMs ?? 10_000 },
  );
}
