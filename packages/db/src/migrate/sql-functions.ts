import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One SQL function's current source, as kept in packages/db/sql/functions/<name>.sql. */
export interface SqlFunctionSource {
  name: string;
  file: string;
  sql: string;
}

/** packages/db/sql/functions (the same depth from src/ and dist/). */
export function defaultSqlFunctionsDir(): string {
  return fileURLToPath(new URL('../../sql/functions', import.meta.url));
}

/**
 * The SQL functions' current sources, by name. Each file holds one `CREATE OR REPLACE FUNCTION "<name>"`
 * named as the file is; a file that does not is refused, so a source cannot hide under another name.
 */
export async function readSqlFunctions(dir = defaultSqlFunctionsDir()): Promise<SqlFunctionSource[]> {
  const names = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (fileName) => {
      const file = path.join(dir, fileName);
      const sql = await readFile(file, 'utf8');
      const name = fileName.slice(0, -'.sql'.length);
      const defined = [...sql.matchAll(/^CREATE OR REPLACE FUNCTION "([a-z_]+)"/gm)].map((m) => m[1]);
      if (defined.length !== 1 || defined[0] !== name) {
        throw new Error(
          `${file} must define exactly one function, "${name}" (it defines: ${defined.join(', ') || 'none'})`,
        );
      }
      return { name, file, sql };
    }),
  );
}

/**
 * A migration that installs the current source of the named functions (`pnpm db:function-migration`): the
 * migration is history and never changes; the file stays the one place to read the function.
 */
export function functionMigrationSql(functions: readonly SqlFunctionSource[]): string {
  const installs = functions.map(
    (f) =>
      `-- Installs packages/db/sql/functions/${f.name}.sql as it stood when this migration was written.\n${f.sql.trimEnd()}\n`,
  );
  return `-- Written by \`pnpm db:function-migration\`.\n\n${installs.join('\n')}`;
}

/** The folder name of a migration written at `now`: Prisma's UTC timestamp, then what it is about. */
export function migrationFolderName(now: Date, about: string): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}_${about}`;
}
