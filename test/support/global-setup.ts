import { deleteKeysMatching } from '@payout/queue';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { defaultMigrationsDir, migrate } from '@payout/db';
import { newTestRun, TEST_DATABASE_PREFIX, type TestRunResources } from './test-run.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testRun: TestRunResources;
  }
}

// Runs once per `pnpm test`: creates and migrates this run's database — the template each test file
// clones its own database from (test/support/test-env.ts) — and at the end removes it, every clone, and
// the run's Redis keys.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = newTestRun();
  await dropAbandonedDatabases(run.serverUrl);
  await migrate({ databaseUrl: run.databaseUrl, migrationsDir: defaultMigrationsDir() });
  project.provide('testRun', run);

  return async () => {
    const template = new URL(run.databaseUrl).pathname.slice(1);
    const { rows } = await withServer(run.serverUrl, (c) =>
      c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${template}%`]),
    );
    for (const { datname } of rows) await dropDatabase(run.serverUrl, datname);
    await deleteKeysMatching(run.redisUrl, `${run.queuePrefix}*`);
  };
}

async function withServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withServer(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
}

// A run killed before its teardown leaves its database behind; a day later nobody is using it.
async function dropAbandonedDatabases(serverUrl: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  const { rows } = await withServer(serverUrl, (c) =>
    c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${TEST_DATABASE_PREFIX}%`]),
  );
  for (const { datname } of rows) {
    const created = parseInt(datname.slice(TEST_DATABASE_PREFIX.length).split('_')[0]!.slice(0, -6), 36);
    if (Number.isFinite(created) && created < dayAgo) await dropDatabase(serverUrl, datname);
  }
}
