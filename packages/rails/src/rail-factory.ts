import { createHttpRailAdapter } from './http-rail-adapter.js';
import type { RailAdapter } from './rail-adapter.js';

/**
 * Where the bank's rail is and how long a call may take: the rail settings of an app's configuration
 * (`packages/config/src/app-configs.ts`), so an app passes its config as it is.
 */
export interface RailSettings {
  RAIL_BASE_URL: string;
  RAIL_CONNECT_TIMEOUT_MS: number;
  RAIL_RESPONSE_TIMEOUT_MS: number;
}

/** How much of the rail one process may hold: its keep-alive connections (the worker's concurrency). */
export interface RailLimits {
  maxConnections?: number;
}

/**
 * The one place an app builds its rail adapter (ARCHITECTURE.md, "Add a rail"): the worker, which submits
 * and asks, and the API, which validates beneficiaries and asks for a manual resolution. A second rail is
 * chosen here, from the settings, so neither app changes.
 */
export function createRailAdapter(settings: RailSettings, limits: RailLimits = {}): RailAdapter {
  return createHttpRailAdapter({
    baseUrl: settings.RAIL_BASE_URL,
    connectTimeoutMs: settings.RAIL_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: settings.RAIL_RESPONSE_TIMEOUT_MS,
    ...(limits.maxConnections !== undefined && { maxConnections: limits.maxConnections }),
  });
}
