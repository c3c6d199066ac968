// `pnpm cli …`: operator commands against DATABASE_URL.
import { Queue } from 'bullmq';
import { cliConfigSchema, loadConfigOrExit, webhookDestinationPolicy } from '@payout/config';
import { createPrismaClient } from '@payout/db';
import { createProducerConnection, PAYOUT_QUEUE } from '@payout/queue';
import { createHttpRailAdapter } from '@payout/rails';
import { runCli } from './program.js';

const config = () => loadConfigOrExit(cliConfigSchema);

const status = await runCli(process.argv.slice(2), {
  openQueue: () => {
    const { QUEUE_PREFIX } = config();
    const connection = createProducerConnection(config());
    connection.on('error', () => undefined); // reported by the command that needed the queue
    const queue = new Queue(PAYOUT_QUEUE, { connection, prefix: QUEUE_PREFIX });
    return {
      queue,
      close: async () => {
        await queue.close();
        connection.disconnect();
      },
    };
  },
  openRail: () => {
    const { RAIL_BASE_URL, RAIL_CONNECT_TIMEOUT_MS, RAIL_RESPONSE_TIMEOUT_MS } = config();
    return createHttpRailAdapter({
      baseUrl: RAIL_BASE_URL,
      connectTimeoutMs: RAIL_CONNECT_TIMEOUT_MS,
      responseTimeoutMs: RAIL_RESPONSE_TIMEOUT_MS,
      maxConnections: 1,
    });
  },
  stuckAfterMs: config().RECONCILE_STUCK_AFTER_MS,
  webhookDestinations: webhookDestinationPolicy(config()),
  openDb: () => {
    const { DATABASE_URL, DATABASE_POOL_SIZE, DATABASE_CONNECT_TIMEOUT_MS } = config();
    return createPrismaClient({
      url: DATABASE_URL,
      poolSize: DATABASE_POOL_SIZE,
      connectTimeoutMs: DATABASE_CONNECT_TIMEOUT_MS,
      applicationName: 'payout-gateway-cli',
    });
  },
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = status;
