// `pnpm cli …`: operator commands against DATABASE_URL.
import { Queue } from 'bullmq';
import { cliConfigSchema, loadConfigOrExit } from '@payout/config';
import { createPrismaClient } from '@payout/db';
import { createProducerConnection, PAYOUT_QUEUE } from '@payout/queue';
import { runCli } from './program.js';

const config = () => loadConfigOrExit(cliConfigSchema);

const status = await runCli(process.argv.slice(2), {
  openQueue: () => {
    const { REDIS_URL, QUEUE_PREFIX } = config();
    const connection = createProducerConnection(REDIS_URL);
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
  stuckAfterMs: config().RECONCILE_STUCK_AFTER_MS,
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
