// Generates the Prisma client into packages/db/src/generated.
//
// The client is engine-free (it talks to PostgreSQL through @prisma/adapter-pg), but the Prisma CLI still
// insists on locating its native schema engine, which it would try to download from a host this network
// cannot reach. `prisma generate` never runs that engine, so when none is installed we point the CLI at
// an existing file. Skips the work when the schema has not changed since the last generation.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const schema = readFileSync(`${root}/prisma/schema.prisma`);
const stamp = `${root}/packages/db/src/generated/prisma/.schema-sha256`;
const digest = createHash('sha256').update(schema).digest('hex');

if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest && !process.argv.includes('--force')) {
  process.exit(0);
}

const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;

const prisma = `${root}/node_modules/.bin/prisma`;
const result = spawnSync(prisma, ['generate', '--no-hints'], { cwd: root, env, stdio: 'inherit' });
if (result.error) throw result.error;
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(stamp, digest);
