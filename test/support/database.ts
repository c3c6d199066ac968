import { inject } from 'vitest';
import pg from 'pg';
import { createPrismaClient, type PrismaClient } from '@payout/db';

/** A Prisma client on this test run's database. Close it in afterAll. */
export function testPrisma(): PrismaClient {
  return createPrismaClient({ url: inject('testRun').databaseUrl, poolSize: 5, connectTimeoutMs: 5_000 });
}

/** A plain pg pool on this test run's database, for direct SQL in tests. Close it in afterAll. */
export function testPool(): pg.Pool {
  return new pg.Pool({ connectionString: inject('testRun').databaseUrl, max: 5 });
}
