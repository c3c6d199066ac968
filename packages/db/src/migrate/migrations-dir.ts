import { fileURLToPath } from 'node:url';

/** prisma/migrations at the repository root (the same depth from src/ and dist/). */
export function defaultMigrationsDir(): string {
  return fileURLToPath(new URL('../../../../prisma/migrations', import.meta.url));
}
