import { describe, expect, it } from 'vitest';
import { apiConfigSchema, cliConfigSchema, workerConfigSchema } from './app-configs.js';
import { ConfigError, loadConfig } from './load-config.js';
import { DEVELOPMENT_SECRET } from './settings.js';

describe('loadConfig', () => {
  it('when nothing but the secrets is set, then the developer-machine defaults apply', () => {
    const config = loadConfig(apiConfigSchema, { NODE_ENV: 'development' });
    expect(config.DATABASE_URL).toBe('postgresql://postgres@127.0.0.1:5432/payouts');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.PORT).toBe(3000);
  });

  it('when values are set, then they are parsed to their types', () => {
    const config = loadConfig(workerConfigSchema, { WORKER_CONCURRENCY: '50', RAIL_MAX_TPS: '10' });
    expect(config.WORKER_CONCURRENCY).toBe(50);
    expect(config.RAIL_MAX_TPS).toBe(10);
  });

  it('when WORKER_CONCURRENCY is unset, then one worker keeps RAIL_MAX_TPS × the typical rail latency in flight', () => {
    expect(loadConfig(workerConfigSchema, {}).WORKER_CONCURRENCY).toBe(500);
    expect(
      loadConfig(workerConfigSchema, { RAIL_MAX_TPS: '40', RAIL_TYPICAL_LATENCY_MS: '250' }).WORKER_CONCURRENCY,
    ).toBe(10);
    expect(
      loadConfig(workerConfigSchema, { RAIL_MAX_TPS: '3', RAIL_TYPICAL_LATENCY_MS: '10' }).WORKER_CONCURRENCY,
    ).toBe(1);
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

  it('when REDIS_CLUSTER_NODES is set, then every app keeps its queues in one slot each: the prefix becomes a hash tag', () => {
    const cluster = { NODE_ENV: 'test', REDIS_CLUSTER_NODES: '127.0.0.1:7000,redis-b:7001', QUEUE_PREFIX: 'payouts' };
    for (const schema of [apiConfigSchema, workerConfigSchema, cliConfigSchema]) {
      const config = loadConfig(schema, cluster);
      expect({ prefix: config.QUEUE_PREFIX, nodes: config.REDIS_CLUSTER_NODES }).toEqual({
        prefix: '{payouts}',
        nodes: '127.0.0.1:7000,redis-b:7001',
      });
    }
    // A prefix that already carries a tag is the operator's choice; a single Redis needs none.
    expect(loadConfig(workerConfigSchema, { ...cluster, QUEUE_PREFIX: 'eu:{payouts}' }).QUEUE_PREFIX).toBe(
      'eu:{payouts}',
    );
    expect(loadConfig(workerConfigSchema, { QUEUE_PREFIX: 'payouts' }).QUEUE_PREFIX).toBe('payouts');
  });

  it('when REDIS_CLUSTER_NODES or READ_DATABASE_URL is malformed, then the error names it', () => {
    for (const [name, value] of [
      ['REDIS_CLUSTER_NODES', '127.0.0.1'],
      ['REDIS_CLUSTER_NODES', '127.0.0.1:7000,,127.0.0.1:7001'],
      ['READ_DATABASE_URL', 'mysql://replica/payouts'],
    ] as const) {
      expect(() => loadConfig(apiConfigSchema, { NODE_ENV: 'test', [name]: value }), value).toThrow(new RegExp(name));
    }
    expect(
      loadConfig(apiConfigSchema, { NODE_ENV: 'test', READ_DATABASE_URL: 'postgresql://replica:5432/payouts' })
        .READ_DATABASE_URL,
    ).toBe('postgresql://replica:5432/payouts');
  });

  it('when nothing is set, then the UPI status checks follow NPCI: the first after 90 s, at most 3, all within 2 hours', () => {
    const c = loadConfig(workerConfigSchema, {});
    expect(c.INQUIRY_UPI_FIRST_DELAY_MS).toBeGreaterThanOrEqual(90_000);
    expect(c.INQUIRY_UPI_MAX_CHECKS).toBeLessThanOrEqual(3);
    // Each wait may grow by up to 10 % of jitter (domain's inquiryDelayMs).
    const lastCheckAt =
      1.1 * (c.INQUIRY_UPI_FIRST_DELAY_MS + (c.INQUIRY_UPI_MAX_CHECKS - 1) * c.INQUIRY_UPI_SPACING_MS);
    expect(lastCheckAt).toBeLessThan(2 * 60 * 60 * 1000);
    // A NOT_FOUND becomes trustworthy before the last check, so a refused payout can be failed by one.
    expect(c.RAIL_NOT_FOUND_TRUSTED_AFTER_MS).toBeLessThan(
      c.INQUIRY_UPI_FIRST_DELAY_MS + (c.INQUIRY_UPI_MAX_CHECKS - 1) * c.INQUIRY_UPI_SPACING_MS,
    );
  });
});

describe('placeholder secrets', () => {
  const placeholderError = (env: NodeJS.ProcessEnv) => {
    try {
      loadConfig(apiConfigSchema, env);
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('when NODE_ENV is unset, then the placeholder admin token, callback secret and second-factor key are refused', () => {
    const error = placeholderError({});
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^PAYIN_CALLBACK_SECRET: must be set to a real secret/),
      expect.stringMatching(/^ADMIN_TOKEN: must be set to a real secret/),
      expect.stringMatching(/^SECOND_FACTOR_KEY: must be set to a real key/),
    ]);
  });

  it('when NODE_ENV is production, then the placeholder is refused even when typed out', () => {
    const error = placeholderError({
      NODE_ENV: 'production',
      ADMIN_TOKEN: DEVELOPMENT_SECRET,
      PAYIN_CALLBACK_SECRET: 'a'.repeat(32),
      SECOND_FACTOR_KEY: 'c'.repeat(64),
    });
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^ADMIN_TOKEN: must be set to a real secret/),
    ]);
  });

  it('when NODE_ENV is development or test, then the placeholder is accepted; real secrets always are', () => {
    expect(loadConfig(apiConfigSchema, { NODE_ENV: 'development' }).ADMIN_TOKEN).toBe(DEVELOPMENT_SECRET);
    expect(loadConfig(apiConfigSchema, { NODE_ENV: 'test' }).PAYIN_CALLBACK_SECRET).toBe(DEVELOPMENT_SECRET);
    const real = {
      ADMIN_TOKEN: 'a'.repeat(32),
      PAYIN_CALLBACK_SECRET: 'b'.repeat(32),
      SECOND_FACTOR_KEY: 'c'.repeat(64),
    };
    expect(loadConfig(apiConfigSchema, real).NODE_ENV).toBe('production');
  });

  it('when the local-receiver webhook setting is on in production, then the worker and the CLI refuse to start', () => {
    for (const schema of [workerConfigSchema, cliConfigSchema]) {
      expect(() => loadConfig(schema, { NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' })).toThrow(
        /WEBHOOK_ALLOW_PRIVATE_ADDRESSES: is for tests and development only/,
      );
      expect(
        loadConfig(schema, { NODE_ENV: 'test', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' })
          .WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
      ).toBe(true);
    }
  });
});
