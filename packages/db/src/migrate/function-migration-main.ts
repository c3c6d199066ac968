// `pnpm db:function-migration <name>…`: writes the migration that installs the current source of the named
// SQL functions (packages/db/sql/functions/<name>.sql). See ARCHITECTURE.md, "Changing a SQL function".
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defaultMigrationsDir } from './migrations-dir.js';
import { functionMigrationSql, migrationFolderName, readSqlFunctions } from './sql-functions.js';

const wanted = process.argv.slice(2);
const sources = await readSqlFunctions();
const unknown = wanted.filter((name) => !sources.some((s) => s.name === name));
if (wanted.length === 0 || unknown.length > 0) {
  if (unknown.length > 0) console.error(`no packages/db/sql/functions/<name>.sql for: ${unknown.join(', ')}`);
  console.error(`usage: pnpm db:function-migration <name>…  (one of: ${sources.map((s) => s.name).join(', ')})`);
  process.exit(2);
}
const folder = path.join(defaultMigrationsDir(), migrationFolderName(new Date(), `${wanted.join('_and_')}_function`));
await mkdir(folder);
await writeFile(
  path.join(folder, 'migration.sql'),
  functionMigrationSql(sources.filter((s) => wanted.includes(s.name))),
);
console.log(`wrote ${path.relative(process.cwd(), folder)}/migration.sql; apply it with pnpm db:migrate`);
