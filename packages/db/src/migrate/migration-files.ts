import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface MigrationFile {
  /** The folder name, e.g. 20261121000000_init: what Prisma records as migration_name. */
  name: string;
  sql: string;
  /** Hex SHA-256 of migration.sql, the checksum Prisma records. */
  checksum: string;
}

/** Reads the migrations in Prisma's layout (`<dir>/<timestamp>_<name>/migration.sql`), oldest first. */
export async function readMigrationFiles(dir: string): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}
