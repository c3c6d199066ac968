import { afterAll, describe, expect, it } from 'vitest';
import { createPrismaClient, sql, sqlRows } from './client.js';

// One connection, so every statement below runs on the same PostgreSQL session.
const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 });
afterAll(() => db.$disconnect());

describe('sqlRows', () => {
  it('when a statement runs over pg, then int8 comes back as bigint, timestamptz as a Date and parameters keep their value', async () => {
    const big = 9_007_199_254_740_993n; // beyond Number's exact integers
    const [row] = await sqlRows<{ big: bigint; at: Date; text: string }>(
      db,
      sql`SELECT ${big}::int8 AS big, now() AS at, ${'a'}::text || ${'b'}::text AS text`,
    );
    expect(row).toEqual({ big, at: expect.any(Date) as Date, text: 'ab' });
  });

  it('when statements run over pg, then the session keeps no prepared statement (PgBouncer transaction mode)', async () => {
    await sqlRows(db, sql`SELECT ${1}::int AS one`);
    await sqlRows(db, sql`SELECT ${2}::int AS two`);
    const [row] = await sqlRows<{ kept: number }>(db, sql`SELECT count(*)::int AS kept FROM pg_prepared_statements`);
    expect(row?.kept).toBe(0);
  });

  it("when a statement is given a transaction's client, then it runs inside that transaction, with the same types", async () => {
    const [outside] = await sqlRows<{ id: bigint }>(db, sql`SELECT pg_current_xact_id()::text::int8 AS id`);
    const inside = await db.$transaction(async (tx) => {
      const [first] = await sqlRows<{ id: bigint }>(tx, sql`SELECT pg_current_xact_id()::text::int8 AS id`);
      const [second] = await tx.$queryRaw<{ id: bigint }[]>`SELECT pg_current_xact_id()::text::int8 AS id`;
      return { first: first!.id, second: second!.id };
    });
    expect(typeof inside.first).toBe('bigint');
    expect(inside.first).toBe(inside.second);
    expect(inside.first).not.toBe(outside!.id);
  });
});
