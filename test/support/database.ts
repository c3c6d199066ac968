import pg from 'pg';
import { createPrismaClient, type PrismaClient } from '@payout/db';

/** A Prisma client on this test file's database. Close it in afterAll. */
export function testPrisma(): PrismaClient {
  return createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 5, connectTimeoutMs: 5_000 });
}

/** A plain pg pool on this test file's database, for direct SQL in tests. Close it in afterAll. */
export function testPool(): pg.Pool {
  return new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: 5 });
}
