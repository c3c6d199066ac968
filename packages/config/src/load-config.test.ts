import { describe, expect, it } from 'vitest';
import { apiConfigSchema, workerConfigSchema } from './app-configs.js';
import { ConfigError, loadConfig } from './load-config.js';

describe('loadConfig', () => {
  it('when nothing is set, then the developer-machine defaults apply', () => {
    const config = loadConfig(apiConfigSchema, {});
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/payouts');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.PORT).toBe(3000);
  });

  it('when values are set, then they are parsed to their types', () => {
    const config = loadConfig(workerConfigSchema, { WORKER_CONCURRENCY: '50', RAIL_MAX_TPS: '10' });
    expect(config.WORKER_CONCURRENCY).toBe(50);
    expect(config.RAIL_MAX_TPS).toBe(10);
  });

  it('when settings are bad, then the error names every bad variable', () => {
    let error: unknown;
    try {
      loadConfig(apiConfigSchema, { PORT: 'eighty', DATABASE_URL: 'mysql://x/y', REDIS_URL: 'nope' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/PORT/);
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).toMatch(/REDIS_URL/);
  });
});
