import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection for a producer: commands fail at once while Redis is unreachable instead of
 * queuing in memory, so a request never hangs on Redis (PostgreSQL is the source of truth; the
 * sweeper queues what could not be queued).
 */
export function createProducerConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    // Reconnect quickly but never give up: Redis coming back must be noticed without a restart.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...options,
  });
}

/** A Redis connection for a BullMQ worker, whose blocking commands must wait out Redis outages. */
export function createWorkerConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...options,
  });
}
