import { Redis } from 'ioredis';
import { clusterNodes, type RedisTarget } from './redis-connection.js';

/**
 * Deletes every key matching `pattern` (SCAN, then UNLINK in pages): how a test run or a bench removes its
 * own queue prefix when it ends, without touching anything else in a shared Redis. On a cluster every
 * master is scanned, as each holds its own slots' keys.
 */
export async function deleteKeysMatching(target: RedisTarget, pattern: string): Promise<number> {
  const nodes = clusterNodes(target);
  if (!nodes)
    return deleteOnOneServer(new Redis(typeof target === 'string' ? target : target.REDIS_URL, LAZY), pattern);
  const seed = new Redis({ ...nodes[0]!, ...LAZY });
  await seed.connect();
  let masters: { host: string; port: number }[];
  try {
    const slots = await seed.cluster('SLOTS');
    const owners = slots.flatMap(([, , master]) => (master ? [{ host: master[0], port: master[1] }] : []));
    masters = [...new Map(owners.map((m) => [`${m.host}:${m.port}`, m])).values()];
  } finally {
    seed.disconnect();
  }
  let deleted = 0;
  for (const master of masters) deleted += await deleteOnOneServer(new Redis({ ...master, ...LAZY }), pattern);
  return deleted;
}

const LAZY = { lazyConnect: true, maxRetriesPerRequest: 1 } as const;

async function deleteOnOneServer(redis: Redis, pattern: string): Promise<number> {
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      // One key at a time: on a cluster node, a multi-key UNLINK must not span slots.
      for (const key of keys) deleted += await redis.unlink(key);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}
