import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { ApiConfig } from '@payout/config';
import { createPrismaClient } from '@payout/db';
import { Queue } from 'bullmq';
import { createPayoutProducer, createProducerConnection, WEBHOOK_QUEUE } from '@payout/queue';
import { createLogger, createMetrics, type Logger } from '@payout/telemetry';
import { createApp, type ApiDependencies } from './app.js';
import { CredentialStore } from './auth/credential-store.js';
import { merchantRateLimit } from './auth/rate-limit.js';
import { CoalescingAccepter } from './payouts/coalescing-accepter.js';
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
  const metrics = createMetrics('api');
  // Queues the API only shows in the support console; their errors are Redis's, already logged above.
  const dashboardQueue = (name: string) => {
    const queue = new Queue(name, { connection: redis, prefix: config.QUEUE_PREFIX });
    queue.on('error', () => undefined);
    return queue;
  };
  const deps: ApiDependencies = {
    db,
    redis,
    producer,
    credentials: new CredentialStore(db, config.AUTH_CACHE_TTL_MS),
    accepter: config.ACCEPT_COALESCING
      ? new CoalescingAccepter(db, {
          maxBatch: config.ACCEPT_MAX_BATCH,
          maxInFlight: config.ACCEPT_MAX_IN_FLIGHT,
          maxWaitMs: config.DATABASE_CONNECT_TIMEOUT_MS,
        })
      : directAccepter(db),
    logger,
    metrics,
    rateLimit: config.RATE_LIMIT_ENABLED
      ? merchantRateLimit({
          redis,
          prefix: config.QUEUE_PREFIX,
          points: config.RATE_LIMIT_POINTS,
          windowMs: config.RATE_LIMIT_WINDOW_MS,
        })
      : null,
    adminToken: config.ADMIN_TOKEN,
    webhookQueue: dashboardQueue(WEBHOOK_QUEUE),
    payinCallbackSecret: config.PAYIN_CALLBACK_SECRET,
  };

  const server: Server = createApp(deps).listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerMalformedRequest);
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
      await deps.webhookQueue.close();
      redis.disconnect();
      await db.$disconnect();
    },
  };
}

// Requests Node cannot even parse (broken request line, headers too large) never reach Express; answer them
// in the contract's JSON shape too rather than with Node's bare text.
function answerMalformedRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const [code, status, message] = tooLarge
    ? [431, 'REQUEST HEADER FIELDS TOO LARGE', 'The request headers are too large.']
    : [400, 'BAD REQUEST', 'The request could not be parsed as HTTP.'];
  const body = JSON.stringify({ error: true, status_code: code, status, message });
  socket.end(
    `HTTP/1.1 ${code} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}
