// The banks `pnpm start` runs: two simulated sponsor banks in the rail simulator, and the BANKS the API and
// the worker are given to reach them (docs/rail-sim.md, "Several banks"; docs/banks.md).
import { railSimConfigSchema, loadConfig, simulatedBanksOf, type SimulatedBank } from '@payout/config';

/** Unless RAIL_SIM_BANKS says otherwise: `primary` on RAIL_SIM_PORT (4100), `secondary` on the next port. */
export function defaultSimulatedBanks(railSimPort: number): string {
  return `primary:${railSimPort},secondary:${railSimPort + 1}`;
}

export interface StartBanks {
  /** What the launcher adds to the apps' environment: RAIL_SIM_BANKS always, BANKS unless already set. */
  env: Record<string, string>;
  banks: SimulatedBank[];
  /** Where the API and the worker reach each bank, by name. */
  urls: Map<string, string>;
}

/**
 * The simulated banks of `env` (RAIL_SIM_BANKS, or the two by default) and, when the environment has no BANKS
 * of its own, the BANKS naming each of them at its port with its settlement account.
 */
export function startBanks(env: NodeJS.ProcessEnv): StartBanks {
  const given = env.RAIL_SIM_BANKS?.trim() ? env.RAIL_SIM_BANKS : undefined;
  const port = loadConfig(railSimConfigSchema.pick({ RAIL_SIM_PORT: true }), env).RAIL_SIM_PORT;
  const RAIL_SIM_BANKS = given ?? defaultSimulatedBanks(port);
  const banks = simulatedBanksOf(loadConfig(railSimConfigSchema, { ...env, RAIL_SIM_BANKS }));
  const urls = new Map(banks.map((bank) => [bank.name, `http://127.0.0.1:${bank.port}`]));
  const BANKS = JSON.stringify(
    banks.map((bank) => ({ name: bank.name, baseUrl: urls.get(bank.name), settlementAccount: bank.account })),
  );
  return { env: { RAIL_SIM_BANKS, ...(!env.BANKS?.trim() && { BANKS }) }, banks, urls };
}
