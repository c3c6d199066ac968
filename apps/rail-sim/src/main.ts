// The simulated bank as a process: `pnpm start` runs it beside the API and the worker.
import { loadConfigOrExit, railSimConfigSchema } from '@payout/config';
import { createLogger } from '@payout/telemetry';
import { createRailSim } from './rail-sim.js';

const config = loadConfigOrExit(railSimConfigSchema);
const logger = createLogger('rail-sim', config.LOG_LEVEL);

const sim = createRailSim({
  latencyMs: config.RAIL_SIM_LATENCY_MS,
  settleAfterMs: config.RAIL_SIM_SETTLE_AFTER_MS,
  lostReplyMs: config.RAIL_SIM_LOST_REPLY_MS,
  deemedSuccessMs: config.RAIL_SIM_DEEMED_SUCCESS_MS,
  reverseAfterMs: config.RAIL_SIM_REVERSE_AFTER_MS,
  statusLagMs: config.RAIL_SIM_STATUS_LAG_MS,
  duplicates: config.RAIL_SIM_DUPLICATES,
  ...(config.RAIL_SIM_STATE_FILE === undefined ? {} : { stateFile: config.RAIL_SIM_STATE_FILE }),
  logger,
});
const server = await sim.listen(config.RAIL_SIM_PORT, config.RAIL_SIM_HOST);
logger.info(
  {
    url: server.url,
    latencyMs: config.RAIL_SIM_LATENCY_MS,
    settleAfterMs: config.RAIL_SIM_SETTLE_AFTER_MS,
    lostReplyMs: config.RAIL_SIM_LOST_REPLY_MS,
    duplicates: config.RAIL_SIM_DUPLICATES,
    stateFile: config.RAIL_SIM_STATE_FILE ?? null,
  },
  'rail simulator listening',
);

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  await server.close();
  logger.info(sim.stats(), 'stopped');
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, (received) => {
    stop(received).catch((error: unknown) => {
      logger.error({ err: error }, 'failed to stop cleanly');
      process.exitCode = 1;
    });
  });
}
