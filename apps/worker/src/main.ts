// The worker process: configuration, start, and a graceful stop on SIGTERM/SIGINT.
import { setFlagsFromString } from 'node:v8';
import { loadConfigOrExit, workerConfigSchema } from '@payout/config';
import { createLogger } from '@payout/telemetry';
import { startWorker } from './worker-process.js';

// WebAssembly on V8's baseline compiler only. The first query of any kind loads Prisma's query compiler, 3.4 MB
// of WebAssembly, whose start-up makes its functions hot; V8's optimizing tier would recompile them on
// background threads whose malloc arenas keep the memory (25–90 MB of the worker's peak RSS), for code that runs
// only when a query plan is not cached yet (docs/performance.md, "Worker memory"). Set before the first query:
// V8 reads it when it compiles a module.
setFlagsFromString('--liftoff-only');

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
