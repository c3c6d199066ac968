import { Redis } from 'ioredis';

/**
 * Deletes every key matching `pattern` (SCAN, then UNLINK in pages): how a test run or a bench removes its
 * own queue prefix when it ends, without touching anything else in a shared Redis.
 */
export async function deleteKeysMatching(redisUrl: string, pattern: string): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length) deleted += await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
