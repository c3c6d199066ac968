import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { functionMigrationSql, readSqlFunctions, type SqlFunctionSource } from './sql-functions.js';

// Each SQL function's current source lives in one file, packages/db/sql/functions/<name>.sql, and migrations
// install it (ARCHITECTURE.md, "Changing a SQL function"). This run's database is migrated from
// prisma/migrations by the global setup, so comparing it with the files catches a file edited without a
// migration, and a migration that redefines a function without its file.
const run = inject('testRun');
const client = new pg.Client({ connectionString: run.databaseUrl });
let sources: SqlFunctionSource[];

beforeAll(async () => {
  await client.connect();
  sources = await readSqlFunctions();
});
afterAll(() => client.end());

/** The functions of the public schema the migrations made (not those an extension brought). */
async function installedFunctions(): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(`
    SELECT p.proname AS name
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = 'public'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
     ORDER BY 1`);
  return rows.map((r) => r.name);
}

/** pg_get_functiondef of `schema.name`, with the schema taken out so two schemas' copies compare. */
async function definition(schema: string, name: string): Promise<string> {
  const { rows } = await client.query<{ def: string }>(
    `SELECT pg_get_functiondef(p.oid) AS def
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = $1 AND p.proname = $2`,
    [schema, name],
  );
  expect(rows, `${schema}.${name} should exist exactly once`).toHaveLength(1);
  return rows[0]!.def.replace(`FUNCTION ${schema}.${name}(`, `FUNCTION ${name}(`);
}

/** The definition `sql` gives when installed on its own, in a schema of its own that is thrown away. */
async function definitionOfSource(name: string, sql: string): Promise<string> {
  await client.query('BEGIN');
  try {
    await client.query('CREATE SCHEMA source_check');
    await client.query('SET LOCAL search_path TO source_check, public');
    await client.query(sql);
    return await definition('source_check', name);
  } finally {
    await client.query('ROLLBACK');
  }
}

describe('SQL functions: one file each, the same as the migrated database', () => {
  it('when the database is migrated, then every function it holds has its file and every file its function', async () => {
    expect(sources.length).toBeGreaterThan(0);
    expect(await installedFunctions()).toEqual(sources.map((s) => s.name).sort());
  });

  it('when each file is installed on its own, then it defines the function exactly as the migrations left it', async () => {
    for (const { name, sql } of sources) {
      expect(await definitionOfSource(name, sql), `packages/db/sql/functions/${name}.sql`).toBe(
        await definition('public', name),
      );
    }
  });

  it('when a file and the database disagree, then the comparison tells them apart', async () => {
    const accept = sources.find((s) => s.name === 'accept_payouts')!;
    const edited = accept.sql.replace("SELECT 'existing'", "SELECT 'existing_changed'");
    expect(edited).not.toBe(accept.sql);
    expect(await definitionOfSource('accept_payouts', edited)).not.toBe(await definition('public', 'accept_payouts'));
  });

  it('when a migration is written from a file, then it installs that file’s source', async () => {
    const post = sources.find((s) => s.name === 'post_ledger_entry')!;
    const migration = functionMigrationSql([post]);
    expect(migration).toContain(post.sql.trimEnd());
    expect(await definitionOfSource('post_ledger_entry', migration)).toBe(
      await definition('public', 'post_ledger_entry'),
    );
  });
});
