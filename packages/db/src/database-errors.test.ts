import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from './client.js';
import { isDatabaseUnavailable, isRetryableTransactionError } from './database-errors.js';

// Real failures, provoked against real servers, so the classification follows what Prisma and pg raise.
const clients: { $disconnect(): Promise<void> }[] = [];
afterAll(async () => {
  for (const c of clients) await c.$disconnect();
});

/** A client on this run's database with one connection (closed after the tests), with these settings. */
function oneConnectionClient(options: Partial<Parameters<typeof createPrismaClient>[0]>) {
  const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 2_000, ...options });
  clients.push(db);
  return db;
}

async function errorOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('database error classification', () => {
  it('when PostgreSQL cannot be reached through Prisma, then it is "unavailable"', async () => {
    const db = oneConnectionClient({ url: 'postgresql://postgres@127.0.0.1:1/nowhere', connectTimeoutMs: 500 });
    expect(isDatabaseUnavailable(await errorOf(() => db.$queryRaw`SELECT 1`))).toBe(true);
  });

  it('when the pool has no free connection within the time-out, then it is "unavailable"', async () => {
    const db = oneConnectionClient({ connectTimeoutMs: 200 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const holding = new Promise<void>((resolve) => (started = resolve));
    const transaction = db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1`;
      started();
      await held;
    });
    await holding;
    const error = await errorOf(() => db.$queryRaw`SELECT 1`);
    release();
    await transaction;
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('when a statement outlasts statement_timeout, then it is cancelled and "unavailable"', async () => {
    const db = oneConnectionClient({ statementTimeoutMs: 100 });
    const started = performance.now();
    const error = await errorOf(() => db.$queryRaw`SELECT pg_sleep(5)`);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isRetryableTransactionError(error)).toBe(false);
  });

  it('when a row lock is held longer than lock_timeout, then the waiting statement gives up and is "unavailable"', async () => {
    const db = oneConnectionClient({ lockTimeoutMs: 100 });
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('CREATE TABLE IF NOT EXISTS lock_timeout_probe (id int PRIMARY KEY)');
      await holder.query('INSERT INTO lock_timeout_probe VALUES (1) ON CONFLICT DO NOTHING');
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM lock_timeout_probe WHERE id = 1 FOR UPDATE');
      const error = await errorOf(() => db.$executeRaw`UPDATE lock_timeout_probe SET id = 1 WHERE id = 1`);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await holder.query('ROLLBACK');
      await holder.query('DROP TABLE lock_timeout_probe');
      await holder.end();
    }
  });

  it('when a query is plainly wrong, then it is neither unavailable nor retryable', async () => {
    const db = oneConnectionClient({});
    const error = await errorOf(() => db.$queryRawUnsafe('SELECT * FROM no_such_table'));
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(isRetryableTransactionError(error)).toBe(false);
  });

  it('when pg reports a deadlock or a serialization failure, then it is retryable', () => {
    expect(
      isRetryableTransactionError(
        Object.assign(new pg.DatabaseError('deadlock detected', 0, 'error'), { code: '40P01' }),
      ),
    ).toBe(true);
    expect(
      isRetryableTransactionError({
        code: 'P2010',
        meta: { driverAdapterError: { cause: { kind: 'postgres', code: '40001' } } },
      }),
    ).toBe(true);
  });
});
