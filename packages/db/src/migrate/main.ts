// `pnpm db:migrate`: applies prisma/migrations to DATABASE_URL (see migrate.ts).
import { cliConfigSchema, loadConfigOrExit } from '@payout/config';
import { migrate, MigrationError } from './migrate.js';
import { defaultMigrationsDir } from './migrations-dir.js';

const config = loadConfigOrExit(cliConfigSchema);

try {
  const result = await migrate({
    databaseUrl: config.DATABASE_URL,
    migrationsDir: defaultMigrationsDir(),
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    log: (line) => console.log(line),
  });
  console.log(
    result.applied.length
      ? `applied ${result.applied.length} migration(s); ${result.alreadyApplied.length} already applied`
      : `database is up to date (${result.alreadyApplied.length} migration(s) applied)`,
  );
} catch (error) {
  console.error(error instanceof MigrationError ? `migration refused: ${error.message}` : error);
  process.exit(1);
}
