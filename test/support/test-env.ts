import { inject } from 'vitest';

// Every test file sees this run's database and queue prefix through the same variables the apps read,
// so code under test is configured exactly as in production.
const run = inject('testRun');
process.env.DATABASE_URL = run.databaseUrl;
process.env.REDIS_URL = run.redisUrl;
process.env.QUEUE_PREFIX = run.queuePrefix;
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL ??= 'silent';
