import { randomBytes } from 'node:crypto';

/**
 * Where a test run's private resources live. Each `pnpm test` creates its own PostgreSQL database and
 * its own Redis key prefix, so runs never see each other's data or what a developer left behind.
 */
export interface TestRunResources {
  databaseUrl: string;
  /** The server URL without a database, for tests that create further databases of their own. */
  serverUrl: string;
  redisUrl: string;
  queuePrefix: string;
}

export const TEST_DATABASE_PREFIX = 'payouts_test_';

export function newTestRun(env: NodeJS.ProcessEnv = process.env): TestRunResources {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const serverUrl = new URL(env.TEST_DATABASE_SERVER_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  const databaseUrl = new URL(serverUrl);
  databaseUrl.pathname = `/${TEST_DATABASE_PREFIX}${id}`;
  return {
    databaseUrl: databaseUrl.toString(),
    serverUrl: serverUrl.toString(),
    redisUrl: env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    queuePrefix: `test-${id}`,
  };
}
