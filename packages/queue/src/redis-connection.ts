import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';

/** A connection to one Redis server or to a Redis Cluster: every Redis user takes either. */
export type RedisConnection = Redis | Cluster;

/**
 * Where Redis is: `REDIS_CLUSTER_NODES` (some of a cluster's nodes, `host:port,host:port,…`) when set,
 * else `REDIS_URL`. A plain URL string is one server.
 */
export type RedisTarget = string | { REDIS_URL: string; REDIS_CLUSTER_NODES?: string | undefined };

/** The seed nodes of `REDIS_CLUSTER_NODES`, or null when Redis is a single server. */
export function clusterNodes(target: RedisTarget): { host: string; port: number }[] | null {
  const list = typeof target === 'string' ? undefined : target.REDIS_CLUSTER_NODES;
  if (!list) return null;
  return list.split(',').map((node) => {
    const at = node.lastIndexOf(':');
    return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
  });
}

const urlOf = (target: RedisTarget) => (typeof target === 'string' ? target : target.REDIS_URL);

// Reconnect quickly but never give up: Redis coming back must be noticed without a restart.
const reconnectDelay = (times: number) => Math.min(times * 200, 2_000);

/**
 * A cluster client. A master failing over is seen as refused connections and then MOVED answers: the
 * slot map is refreshed and commands follow the promoted replica (see docs/scaling.md).
 */
function createCluster(
  nodes: { host: string; port: number }[],
  options: Omit<ClusterOptions, 'redisOptions'>,
  redisOptions: ClusterOptions['redisOptions'],
): Cluster {
  return new Cluster(nodes, {
    clusterRetryStrategy: reconnectDelay,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    slotsRefreshTimeout: 2_000,
    ...options,
    redisOptions: { connectTimeout: 2_000, ...redisOptions },
  });
}

/**
 * A Redis connection for a producer: commands fail at once while Redis is unreachable instead of
 * queuing in memory, so a request never hangs on Redis (PostgreSQL is the source of truth; the
 * sweeper queues what could not be queued).
 */
export function createProducerConnection(url: string, options?: RedisOptions): Redis;
export function createProducerConnection(target: RedisTarget, options?: RedisOptions): RedisConnection;
export function createProducerConnection(target: RedisTarget, options: RedisOptions = {}): RedisConnection {
  const nodes = clusterNodes(target);
  if (nodes) return createCluster(nodes, { enableOfflineQueue: false }, { maxRetriesPerRequest: 1, ...options });
  return new Redis(urlOf(target), {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: reconnectDelay,
    ...options,
  });
}

/** A Redis connection for a BullMQ worker, whose blocking commands must wait out Redis outages. */
export function createWorkerConnection(url: string, options?: RedisOptions): Redis;
export function createWorkerConnection(target: RedisTarget, options?: RedisOptions): RedisConnection;
export function createWorkerConnection(target: RedisTarget, options: RedisOptions = {}): RedisConnection {
  const nodes = clusterNodes(target);
  if (nodes) return createCluster(nodes, {}, { maxRetriesPerRequest: null, ...options });
  return new Redis(urlOf(target), {
    maxRetriesPerRequest: null,
    retryStrategy: reconnectDelay,
    ...options,
  });
}
