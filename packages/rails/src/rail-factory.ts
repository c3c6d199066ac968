import { createHttpRailAdapter } from './http-rail-adapter.js';
import type { RailAdapter } from './rail-adapter.js';

/** A sponsor bank as its adapter needs it: its alias and where its API answers (BANKS, docs/banks.md). */
export interface RailBank {
  name: string;
  baseUrl: string;
}

/**
 * The banks and how long a call may take: the rail settings of an app's configuration
 * (`packages/config/src/app-configs.ts`, with `banks` from packages/config/src/banks.ts), so an app passes
 * its config as it is.
 */
export interface RailSettings<B extends RailBank = RailBank> {
  banks: readonly B[];
  RAIL_CONNECT_TIMEOUT_MS: number;
  RAIL_RESPONSE_TIMEOUT_MS: number;
}

/** How much of each bank one process may hold: its keep-alive connections (the worker's concurrency). */
export interface RailLimits {
  maxConnections?: number;
}

/** Every configured bank's adapter, by alias: each payout is asked about at the bank it records. */
export interface BankRails<B extends RailBank = RailBank> {
  /** The banks in configuration order (the first is the default of a single-bank deployment). */
  readonly banks: readonly B[];
  /** The adapter of one bank; throws for an alias the configuration does not name. */
  rail(bank: string): RailAdapter;
  /** Waits for calls in flight at every bank, then releases the connections. */
  close(): Promise<void>;
}

/**
 * The one place an app builds its rail adapters (ARCHITECTURE.md, "Add a rail"): the worker, which routes,
 * submits and asks; the API, which validates beneficiaries and asks before a manual resolution; the CLI. A
 * bank of another kind is chosen here, from its settings, so no app changes.
 */
export function createBankRails<B extends RailBank>(settings: RailSettings<B>, limits: RailLimits = {}): BankRails<B> {
  const adapters = new Map(
    settings.banks.map((bank) => [
      bank.name,
      createHttpRailAdapter({
        baseUrl: bank.baseUrl,
        connectTimeoutMs: settings.RAIL_CONNECT_TIMEOUT_MS,
        responseTimeoutMs: settings.RAIL_RESPONSE_TIMEOUT_MS,
        ...(limits.maxConnections !== undefined && { maxConnections: limits.maxConnections }),
      }),
    ]),
  );
  return {
    banks: settings.banks,
    rail(bank) {
      const adapter = adapters.get(bank);
      if (!adapter) throw new Error(`no bank named ${JSON.stringify(bank)} is configured (BANKS, docs/banks.md)`);
      return adapter;
    },
    async close() {
      await Promise.all([...adapters.values()].map((adapter) => adapter.close()));
    },
  };
}

/** The adapter of the first configured bank: for a caller that speaks to one bank only (a test's stub bank). */
export function createRailAdapter(settings: RailSettings, limits: RailLimits = {}): RailAdapter {
  return createBankRails({ ...settings, banks: settings.banks.slice(0, 1) }, limits).rail(settings.banks[0]!.name);
}
