import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { createPrismaClient, checkInvariants } from '@payout/db';

// Runs before every test file. Each file gets a database of its own, cloned from this run's migrated
// template (a fast file copy), and a queue prefix of its own, so no file ever sees another's payouts or
// jobs — a worker started by one file cannot pick up (or sweep) another file's work. The variables are
// the ones the apps read, so code under test is configured exactly as in production.
const run = inject('testRun');
const fileId = randomBytes(4).toString('hex');
const template = new URL(run.databaseUrl).pathname.slice(1);
const database = `${template}_${fileId}`;

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: run.serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

await onServer(`CREATE DATABASE ${pg.escapeIdentifier(database)} TEMPLATE ${pg.escapeIdentifier(template)}`);

// After every test file, the money invariants of everything it did must hold (`pnpm cli reconcile`'s
// checks). Whether pending payouts were left without a worker to move them depends on the file, so the
// liveness check is left to the files that run workers.
afterAll(async () => {
  const db = createPrismaClient({ url: process.env.DATABASE_URL!, poolSize: 1, connectTimeoutMs: 5_000 });
  try {
    const report = await checkInvariants(db, { stuckAfterMs: 60_000, skip: ['no-stuck-payouts'] });
    const breaches = report.checks.filter((c) => c.breaches > 0);
    if (breaches.length) {
      throw new Error(
        `reconcile after this test file found breaches:\n${breaches.map((b) => `${b.name}: ${JSON.stringify(b.examples, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`).join('\n')}`,
      );
    }
  } finally {
    await db.$disconnect();
    await onServer(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`);
  }
});

const databaseUrl = new URL(run.databaseUrl);
databaseUrl.pathname = `/${database}`;
process.env.DATABASE_URL = databaseUrl.toString();
process.env.REDIS_URL = run.redisUrl;
process.env.QUEUE_PREFIX = `${run.queuePrefix}-${fileId}`;
process.env.NODE_ENV = 'test';
// The tests' webhook receivers listen on 127.0.0.1, which a deployment never lets a webhook reach; the
// tests of that refusal switch this off again.
process.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = 'true';
// Many test files run at once: each API's admin and metrics listeners take a free port, as its merchant port does.
process.env.ADMIN_PORT = '0';
process.env.METRICS_PORT = '0';
process.env.LOG_LEVEL ??= 'silent';
