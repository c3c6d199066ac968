import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiConfig } from '@payout/config';
import { createPrismaClient } from '@payout/db';
import { createPayoutProducer, createProducerConnection } from '@payout/queue';
import { createLogger, type Logger } from '@payout/telemetry';
import { createApp, type ApiDependencies } from './app.js';
import { CredentialStore } from './auth/credential-store.js';
import { directAccepter } from './payouts/payout-accepter.js';

export interface RunningApi {
  url: string;
  port: number;
  deps: ApiDependencies;
  /** Stops taking requests, lets those in flight finish, then closes PostgreSQL and Redis. */
  close(): Promise<void>;
}

/** Builds the API's dependencies from its configuration and starts listening (port 0 picks a free one). */
export async function startApi(
  config: ApiConfig,
  logger: Logger = createLogger('api', config.LOG_LEVEL),
): Promise<RunningApi> {
  const db = createPrismaClient({
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    applicationName: 'payout-gateway-api',
  });
  const redis = createProducerConnection(config.REDIS_URL);
  redis.on('error', (error) => logger.warn({ err: error.message }, 'redis connection error'));
  const producer = createPayoutProducer({
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    timeoutMs: config.ENQUEUE_TIMEOUT_MS,
    onError: (error) => logger.warn({ err: error.message }, 'queue error'),
  });
  const deps: ApiDependencies = {
    db,
    redis,
    producer,
    credentials: new CredentialStore(db, config.AUTH_CACHE_TTL_MS),
    accepter: directAccepter(db),
    logger,
  };

  const server: Server = createApp(deps).listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  logger.info({ port }, 'api listening');

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    deps,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await producer.close();
      redis.disconnect();
      await db.$disconnect();
    },
  };
}
