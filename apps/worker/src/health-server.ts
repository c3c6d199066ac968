import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Queue } from 'bullmq';
import type { RedisConnection } from '@payout/queue';
import type { PrismaClient } from '@payout/db';
import { probeDependency, type Logger, type ServiceMetrics } from '@payout/telemetry';
import type { OperationsWatch } from './operations-watch.js';

interface HealthServer {
  port: number;
  close(): Promise<void>;
}

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'prioritized'] as const;

/**
 * The worker's own small HTTP server for operators: /healthz (alive), /readyz (PostgreSQL and Redis answer,
 * each reported in `dependency_up` too) and /metrics (Prometheus, with the queues' job counts and the
 * operations gauges read at scrape time).
 */
export async function startHealthServer(
  port: number,
  deps: {
    db: PrismaClient;
    redis: RedisConnection;
    queues: Queue[];
    metrics: ServiceMetrics;
    operations: OperationsWatch;
    logger: Logger;
  },
): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const reply = (code: number, body: unknown, type = 'application/json; charset=utf-8') => {
      res.writeHead(code, { 'Content-Type': type });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const route = req.url?.split('?')[0];
    void (async () => {
      if (route === '/healthz') {
        reply(200, { error: false, status_code: 200, status: 'OK' });
        return;
      }
      if (route === '/readyz') {
        const [postgres, redis] = await Promise.all([
          probeDependency(() => deps.db.$queryRaw`SELECT 1`),
          probeDependency(() => deps.redis.ping()),
        ]);
        // The worker's own view of its dependencies, as the API's readiness probe reports its own: the
        // PostgresDown alert reads either (docs/operations.md, "PostgresDown").
        deps.metrics.dependencyUp.set({ dependency: 'postgres' }, postgres === 'ok' ? 1 : 0);
        deps.metrics.dependencyUp.set({ dependency: 'redis' }, redis === 'ok' ? 1 : 0);
        const ready = postgres === 'ok' && redis === 'ok';
        reply(ready ? 200 : 503, {
          error: !ready,
          status_code: ready ? 200 : 503,
          status: ready ? 'OK' : 'SERVICE UNAVAILABLE',
          checks: { postgres, redis },
        });
        return;
      }
      if (route === '/metrics') {
        await Promise.all([
          refreshQueueGauges(deps.queues, deps.metrics).catch(() => undefined),
          // A failed read leaves the last values: PostgreSQL being away is /readyz's and its alert's to tell.
          deps.operations
            .refresh()
            .catch((error: unknown) =>
              deps.logger.warn({ err: (error as Error).message }, 'could not read the operations gauges'),
            ),
        ]);
        reply(200, await deps.metrics.registry.metrics(), deps.metrics.registry.contentType);
        return;
      }
      reply(404, {
        error: true,
        status_code: 404,
        status: 'NOT FOUND',
        message: 'The requested resource does not exist.',
      });
    })().catch((error: unknown) =>
      reply(500, { error: true, status_code: 500, status: 'INTERNAL SERVER ERROR', message: String(error) }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function refreshQueueGauges(queues: Queue[], metrics: ServiceMetrics): Promise<void> {
  for (const queue of queues) {
    const counts = await queue.getJobCounts(...JOB_STATES);
    for (const state of JOB_STATES) metrics.queueJobs.set({ queue: queue.name, state }, counts[state] ?? 0);
  }
}
