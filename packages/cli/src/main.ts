// `pnpm cli …`: operator commands against DATABASE_URL.
import { cliConfigSchema, loadConfigOrExit } from '@payout/config';
import { createPrismaClient } from '@payout/db';
import { runCli } from './program.js';

const status = await runCli(process.argv.slice(2), {
  openDb: () => {
    const config = loadConfigOrExit(cliConfigSchema);
    return createPrismaClient({
      url: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
      applicationName: 'payout-gateway-cli',
    });
  },
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = status;
