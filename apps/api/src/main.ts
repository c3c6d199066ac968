// The API process: configuration, start, and a graceful stop on SIGTERM/SIGINT.
import { apiConfigSchema, loadConfigOrExit } from '@payout/config';
import { createLogger } from '@payout/telemetry';
import { startApi } from './api-server.js';

const config = loadConfigOrExit(apiConfigSchema);
const logger = createLogger('api', config.LOG_LEVEL);
const api = await startApi(config, logger);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing requests in flight');
    api.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  });
}
