import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { readMigrationFiles, type MigrationFile } from './migration-files.js';

// The same key `prisma migrate deploy` locks, so this runner and Prisma's exclude each other too.
const PRISMA_MIGRATE_LOCK_KEY = 72707369;

// Prisma's own bookkeeping table, created exactly as Prisma creates it so `prisma migrate deploy` on a
// machine with the schema engine sees these migrations as applied.
const CREATE_BOOKKEEPING_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

export interface MigrateOptions {
  databaseUrl: string;
  migrationsDir: string;
  connectTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface MigrateResult {
  createdDatabase: boolean;
  applied: string[];
  alreadyApplied: string[];
}

/**
 * Brings a database up to date with prisma/migrations, without Prisma's native schema engine:
 * creates the database if missing, takes Prisma's advisory lock so concurrent runners apply each
 * migration once, refuses to continue if an applied migration's file changed, was deleted, or failed
 * part-way, and applies each pending migration in its own transaction with its `_prisma_migrations` row.
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  const files = await readMigrationFiles(options.migrationsDir);
  const createdDatabase = await ensureDatabaseExists(options);
  if (createdDatabase) log(`created database ${new URL(options.databaseUrl).pathname.slice(1)}`);

  const client = new pg.Client({
    connectionString: options.databaseUrl,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    application_name: 'payout-gateway-migrate',
  });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
    try {
      await client.query(CREATE_BOOKKEEPING_TABLE);
      const applied = await appliedMigrations(client);
      checkHistory(files, applied);
      const pending = files.filter((f) => !applied.has(f.name));
      for (const file of pending) {
        log(`applying ${file.name}`);
        await applyOne(client, file);
      }
      return {
        createdDatabase,
        applied: pending.map((f) => f.name),
        alreadyApplied: files.filter((f) => applied.has(f.name)).map((f) => f.name),
      };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

async function appliedMigrations(client: pg.Client): Promise<Map<string, AppliedRow>> {
  const { rows } = await client.query<AppliedRow>(
    'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
  );
  const applied = new Map<string, AppliedRow>();
  for (const row of rows) {
    if (row.rolled_back_at) continue;
    if (!row.finished_at) {
      throw new MigrationError(
        `migration ${row.migration_name} started but never finished; inspect the database, then mark it ` +
          `rolled back (UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '${row.migration_name}')`,
      );
    }
    applied.set(row.migration_name, row);
  }
  return applied;
}

function checkHistory(files: MigrationFile[], applied: Map<string, AppliedRow>): void {
  const byName = new Map(files.map((f) => [f.name, f]));
  for (const row of applied.values()) {
    const file = byName.get(row.migration_name);
    if (!file) {
      throw new MigrationError(
        `migration ${row.migration_name} is applied to the database but missing from the migrations folder`,
      );
    }
    if (file.checksum !== row.checksum) {
      throw new MigrationError(
        `migration ${row.migration_name} was modified after it was applied (checksum ${row.checksum} in the database, ` +
          `${file.checksum} on disk); add a new migration instead of editing an applied one`,
      );
    }
  }
}

async function applyOne(client: pg.Client, file: MigrationFile): Promise<void> {
  await client.query('BEGIN');
  try {
    const id = randomUUID();
    await client.query(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())',
      [id, file.checksum, file.name],
    );
    await client.query(file.sql);
    await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [
      id,
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw new MigrationError(`migration ${file.name} failed and was rolled back: ${(error as Error).message}`);
  }
}

// CREATE DATABASE cannot run inside the target database, so connect to the server's `postgres` database.
// Two runners starting together may both try; the loser's "already exists" is success.
async function ensureDatabaseExists(options: MigrateOptions): Promise<boolean> {
  const target = new URL(options.databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) throw new MigrationError('DATABASE_URL names no database');
  const maintenance = new URL(options.databaseUrl);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({
    connectionString: maintenance.toString(),
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
  });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      return true;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === '42P04' || code === '23505') return false; // created by a concurrent runner
      throw error;
    }
  } finally {
    await client.end();
  }
}
