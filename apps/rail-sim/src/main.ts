// The simulated bank as a process: `pnpm start` runs it beside the API and the worker. One process may serve
// several banks, each on its own port (RAIL_SIM_BANKS, docs/rail-sim.md "Several banks").
import { loadConfigOrExit, railSimConfigSchema, simulatedBanksOf } from '@payout/config';
import { createLogger } from '@payout/telemetry';
import { createRailSim } from './rail-sim.js';
import { settlementAccountOf } from './statement-export.js';

const config = loadConfigOrExit(railSimConfigSchema);
const logger = createLogger('rail-sim', config.LOG_LEVEL);
const banks = simulatedBanksOf(config);

const sims = banks.map((bank) =>
  createRailSim({
    name: bank.name,
    account: settlementAccountOf(bank),
    faults: bank.faults,
    latencyMs: config.RAIL_SIM_LATENCY_MS,
    settleAfterMs: config.RAIL_SIM_SETTLE_AFTER_MS,
    lostReplyMs: config.RAIL_SIM_LOST_REPLY_MS,
    deemedSuccessMs: config.RAIL_SIM_DEEMED_SUCCESS_MS,
    reverseAfterMs: config.RAIL_SIM_REVERSE_AFTER_MS,
    statusLagMs: config.RAIL_SIM_STATUS_LAG_MS,
    duplicates: config.RAIL_SIM_DUPLICATES,
    ...(bank.stateFile === undefined ? {} : { stateFile: bank.stateFile }),
    logger,
  }),
);
const servers = await Promise.all(sims.map((sim, i) => sim.listen(banks[i]!.port, config.RAIL_SIM_HOST, sims)));
logger.info(
  {
    url: servers[0]!.url,
    banks: banks.map((bank, i) => ({
      name: bank.name,
      url: servers[i]!.url,
      account: bank.account,
      stateFile: bank.stateFile ?? null,
      faults: bank.faults.length,
    })),
    latencyMs: config.RAIL_SIM_LATENCY_MS,
    settleAfterMs: config.RAIL_SIM_SETTLE_AFTER_MS,
    lostReplyMs: config.RAIL_SIM_LOST_REPLY_MS,
    duplicates: config.RAIL_SIM_DUPLICATES,
    stateFile: banks.length === 1 ? (banks[0]!.stateFile ?? null) : null,
  },
  'rail simulator listening',
);

let stopping = false;
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  await Promise.all(servers.map((server) => server.close()));
  for (const sim of sims) logger.info({ bank: sim.name, ...sim.stats() }, 'stopped');
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, (received) => {
    stop(received).catch((error: unknown) => {
      logger.error({ err: error }, 'failed to stop cleanly');
      process.exitCode = 1;
    });
  });
}
