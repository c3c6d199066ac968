import { appendFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { readMigrationFiles } from './migration-files.js';
import { defaultMigrationsDir } from './migrations-dir.js';
import { migrate, MigrationError } from './migrate.js';

// Each test migrates a database of its own, named after this run's, and drops it at the end.
const run = inject('testRun');
const created: string[] = [];
let counter = 0;

function freshDatabaseUrl(): string {
  const url = new URL(run.databaseUrl);
  const name = `${url.pathname.slice(1)}_m${++counter}`;
  created.push(name);
  url.pathname = `/${name}`;
  return url.toString();
}

async function query<T extends pg.QueryResultRow>(databaseUrl: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  for (const name of created) {
    await query(run.serverUrl, `DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
  }
});

describe('migrate', () => {
  it('when run on a database that does not exist, then it creates it and applies every migration', async () => {
    const url = freshDatabaseUrl();
    const result = await migrate({ databaseUrl: url, migrationsDir: defaultMigrationsDir() });
    expect(result.createdDatabase).toBe(true);
    expect(result.applied.length).toBeGreaterThan(0);
    const rows = await query<{ migration_name: string; finished_at: Date | null; applied_steps_count: number }>(
      url,
      'SELECT migration_name, finished_at, applied_steps_count FROM "_prisma_migrations"',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(result.applied);
    expect(rows.every((r) => r.finished_at !== null && r.applied_steps_count === 1)).toBe(true);
  });

  it('when run twice in a row, then the second applies nothing', async () => {
    const url = freshDatabaseUrl();
    const first = await migrate({ databaseUrl: url, migrationsDir: defaultMigrationsDir() });
    const second = await migrate({ databaseUrl: url, migrationsDir: defaultMigrationsDir() });
    expect(second.createdDatabase).toBe(false);
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toEqual(first.applied);
  });

  it('when two runners start at once, then both succeed and each migration is applied once', async () => {
    const url = freshDatabaseUrl();
    const all = (await readMigrationFiles(defaultMigrationsDir())).map((f) => f.name);
    const results = await Promise.all([
      migrate({ databaseUrl: url, migrationsDir: defaultMigrationsDir() }),
      migrate({ databaseUrl: url, migrationsDir: defaultMigrationsDir() }),
    ]);
    // Between them the two runners applied every migration exactly once.
    expect(results.flatMap((r) => r.applied).sort()).toEqual(all);
    const rows = await query<{ migration_name: string }>(url, 'SELECT migration_name FROM "_prisma_migrations"');
    expect(rows.map((r) => r.migration_name).sort()).toEqual(all);
  });

  describe('with a copy of the migrations folder', () => {
    // Each test migrates its own database from its own copy, which it may edit.
    let url: string;
    let dir: string;
    beforeEach(async () => {
      url = freshDatabaseUrl();
      dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
      await cp(defaultMigrationsDir(), dir, { recursive: true });
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('when an applied migration file was changed, then it refuses to run', async () => {
      const { applied } = await migrate({ databaseUrl: url, migrationsDir: dir });
      await appendFile(path.join(dir, applied[0]!, 'migration.sql'), '\n-- edited\n');
      await expect(migrate({ databaseUrl: url, migrationsDir: dir })).rejects.toThrow(/modified after it was applied/);
    });

    it('when an applied migration is missing from the folder, then it refuses to run', async () => {
      const { applied } = await migrate({ databaseUrl: url, migrationsDir: dir });
      await rm(path.join(dir, applied[0]!), { recursive: true });
      await expect(migrate({ databaseUrl: url, migrationsDir: dir })).rejects.toBeInstanceOf(MigrationError);
    });

    it('when a new migration fails, then it is rolled back whole and not recorded', async () => {
      await migrate({ databaseUrl: url, migrationsDir: dir });
      const broken = path.join(dir, '99999999999999_broken');
      await mkdir(broken);
      await writeFile(
        path.join(broken, 'migration.sql'),
        'CREATE TABLE half_done (id int);\nSELECT no_such_function();\n',
      );
      await expect(migrate({ databaseUrl: url, migrationsDir: dir })).rejects.toThrow(/rolled back/);
      const tables = await query(url, "SELECT 1 FROM pg_tables WHERE tablename = 'half_done'");
      expect(tables).toEqual([]);
      const recorded = await query(
        url,
        `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '99999999999999_broken'`,
      );
      expect(recorded).toEqual([]);
    });
  });
});
