import { z } from 'zod';

// Building blocks shared by the apps' schemas. Every variable has a default that works on a developer
// machine with the local PostgreSQL and Redis, except secrets, which have none in production.

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
export const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
// In zod 4 a default short-circuits the pipe, so it is given as the parsed value.
export const flag = (fallback: boolean) => booleanFlag.default(fallback);

export const databaseSettings = {
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' })
    .default('postgresql://postgres@127.0.0.1:5432/payouts'),
  /** Connections each process keeps to PostgreSQL. */
  DATABASE_POOL_SIZE: positiveInt(10),
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt(5_000),
};

export const redisSettings = {
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).default('redis://127.0.0.1:6379'),
  /** Prefix of every BullMQ key, so several deployments (or test runs) can share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:{}-]{1,64}$/, 'letters, digits and _ : { } - only')
    .default('payouts'),
};

export const logSettings = {
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

export const nodeEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
};

/**
 * A secret. Development and tests get a fixed placeholder so the service starts out of the box; in
 * production the placeholder is refused, so a real secret must be configured.
 */
export const DEVELOPMENT_SECRET = 'development-only-secret-do-not-use';
export const secret = () => z.string().min(16, 'must be at least 16 characters').default(DEVELOPMENT_SECRET);

/** Refuses the development placeholder for any of `names` when NODE_ENV is production. */
export function refusePlaceholderSecretsInProduction(names: readonly string[]) {
  return (config: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (config.NODE_ENV !== 'production') return;
    for (const name of names) {
      if (config[name] === DEVELOPMENT_SECRET) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'must be set to a real secret in production' });
      }
    }
  };
}
