// The worker process: configuration, start, and a graceful stop on SIGTERM/SIGINT.
import { loadConfigOrExit, workerConfigSchema } from '@payout/config';
import { createLogger } from '@payout/telemetry';
import { startWorker } from './worker-process.js';

const config = loadConfigOrExit(workerConfigSchema);
const logger = createLogger('worker', config.LOG_LEVEL);
const running = await startWorker(config, { logger });

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS }, 'stopping: no new jobs, finishing those in flight');
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  });
}
