// `pnpm cli …`: operator commands against DATABASE_URL.
import { Queue } from 'bullmq';
import { cliConfigSchema, loadConfigOrExit, secondFactorOf, webhookDestinationPolicy } from '@payout/config';
import { createPrismaClient } from '@payout/db';
import { createProducerConnection, PAYOUT_QUEUE } from '@payout/queue';
import { createAdminClient, credentialFilePath, readSavedCredential } from './admin-client.js';
import { runCli } from './program.js';
import { readHiddenLine, readStdin } from './terminal-secret.js';

const config = loadConfigOrExit(cliConfigSchema);
// A personal API key wins; else the sign-in `pnpm cli login` kept (and the admin listener it was made on).
const saved = config.PAYOUT_ADMIN_KEY
  ? undefined
  : await readSavedCredential(credentialFilePath(config.PAYOUT_CLI_CREDENTIALS));

const status = await runCli(process.argv.slice(2), {
  openQueue: () => {
    const connection = createProducerConnection(config);
    connection.on('error', () => undefined); // reported by the command that needed the queue
    const queue = new Queue(PAYOUT_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
    return {
      queue,
      close: async () => {
        await queue.close();
        connection.disconnect();
      },
    };
  },
  openAdmin: () =>
    createAdminClient({
      url: saved?.adminUrl ?? config.ADMIN_URL,
      ...((config.PAYOUT_ADMIN_KEY ?? saved?.token) && { credential: config.PAYOUT_ADMIN_KEY ?? saved?.token }),
    }),
  signIn: {
    adminUrl: config.ADMIN_URL,
    credentialFile: credentialFilePath(config.PAYOUT_CLI_CREDENTIALS),
    readPassword: readHiddenLine,
    readStdin,
    terminal: process.stdin.isTTY,
  },
  stuckAfterMs: config.RECONCILE_STUCK_AFTER_MS,
  statementMaxBytes: config.STATEMENT_MAX_BYTES,
  ...(config.STATEMENT_SETTLEMENT_ACCOUNT !== undefined && { settlementAccount: config.STATEMENT_SETTLEMENT_ACCOUNT }),
  statementBanks: config.banks,
  stderrIsTerminal: process.stderr.isTTY,
  webhookDestinations: webhookDestinationPolicy(config),
  ...(config.SECOND_FACTOR_KEY !== undefined && {
    secondFactor: secondFactorOf({ ...config, SECOND_FACTOR_KEY: config.SECOND_FACTOR_KEY, SECOND_FACTOR_ISSUER: '' }),
  }),
  openDb: () =>
    createPrismaClient({
      url: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
      applicationName: 'payout-gateway-cli',
    }),
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = status;
