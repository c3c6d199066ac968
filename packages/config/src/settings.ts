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

/** A streaming replica that answers lookups (docs/scaling.md "Read replica"); unset, they go to DATABASE_URL. */
export const readReplicaSettings = {
  READ_DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' }).optional(),
};

export const redisSettings = {
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' }).default('redis://127.0.0.1:6379'),
  /** Prefix of every BullMQ key, so several deployments (or test runs) can share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:{}-]{1,64}$/, 'letters, digits and _ : { } - only')
    .default('payouts'),
  /**
   * Some nodes of a Redis Cluster (`host:port,host:port,…`). When set, every Redis user connects to the
   * cluster instead of REDIS_URL, and QUEUE_PREFIX becomes a hash tag (see {@link hashTagQueuePrefix}).
   */
  REDIS_CLUSTER_NODES: z
    .string()
    .regex(/^[^\s,:]+:[0-9]{1,5}(,[^\s,:]+:[0-9]{1,5})*$/, 'must be host:port,host:port,…')
    .optional(),
};

/**
 * On a Redis Cluster the queue prefix is wrapped in a hash tag (`payouts` → `{payouts}`): BullMQ's
 * scripts touch several keys of a queue at once, and a cluster runs a script only when all its keys live
 * in one slot, which a hash tag guarantees (docs/scaling.md). A prefix that already has a tag is kept.
 */
export function hashTagQueuePrefix<C extends { QUEUE_PREFIX: string; REDIS_CLUSTER_NODES?: string | undefined }>(
  config: C,
): C {
  if (!config.REDIS_CLUSTER_NODES || /\{[^}]+\}/.test(config.QUEUE_PREFIX)) return config;
  return { ...config, QUEUE_PREFIX: `{${config.QUEUE_PREFIX}}` };
}

export const logSettings = {
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

/**
 * Unset means production: a deployment that forgets to say what it is gets the strict behaviour (real secrets,
 * https-only webhooks), never the developer conveniences. `pnpm start` and the tests set it themselves.
 */
export const nodeEnv = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
};

/** NODE_ENV alone, read as every app reads it: for a door that exists only on a developer machine. */
export const nodeEnvSchema = z.object(nodeEnv);

/** Whether `nodeEnv` is a developer machine or a test run, where placeholders and plain http are allowed. */
export function isDevelopmentOrTest(nodeEnv: string | undefined): boolean {
  return nodeEnv === 'development' || nodeEnv === 'test';
}

/**
 * A secret. Development and tests get a fixed placeholder so the service starts out of the box; anywhere
 * else (NODE_ENV production or unset) the placeholder is refused, so a real secret must be configured.
 */
export const DEVELOPMENT_SECRET = 'development-only-secret-do-not-use';
export const secret = () => z.string().min(16, 'must be at least 16 characters').default(DEVELOPMENT_SECRET);

/** Refuses the development placeholder for any of `names` unless NODE_ENV is development or test. */
export function refusePlaceholderSecretsOutsideDevelopment(names: readonly string[]) {
  return (config: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (isDevelopmentOrTest(config.NODE_ENV as string | undefined)) return;
    for (const name of names) {
      if (config[name] === DEVELOPMENT_SECRET) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `must be set to a real secret (the development placeholder is only accepted with NODE_ENV=development or test; NODE_ENV is ${String(config.NODE_ENV)})`,
        });
      }
    }
  };
}

/**
 * Where merchant webhooks may point, from an app's configuration: https only in production; loopback and
 * private addresses only when WEBHOOK_ALLOW_PRIVATE_ADDRESSES is on (tests and development, see
 * app-configs.ts). The same for `merchant webhook` (registration) and the worker (every connection).
 */
export function webhookDestinationPolicy(config: { NODE_ENV: string; WEBHOOK_ALLOW_PRIVATE_ADDRESSES: boolean }): {
  requireHttps: boolean;
  allowPrivateAddresses: boolean;
} {
  return {
    requireHttps: !isDevelopmentOrTest(config.NODE_ENV),
    allowPrivateAddresses: config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
  };
}

/**
 * Four eyes on money (docs/operations.md, "Approvals"): how long a request waits for a second person, and
 * whether its maker may approve it — development only, off by default, and refused anywhere else.
 */
export const approvalSettings = {
  APPROVAL_TTL_MS: positiveInt(24 * 60 * 60 * 1000),
  APPROVALS_ALLOW_SELF_APPROVAL: flag(false),
};

/**
 * The second factor (docs/operations.md, "Second factor"): TOTP seeds are sealed at rest under
 * SECOND_FACTOR_KEY (64 hex digits: `openssl rand -hex 32`); while it is rotated, the keys it replaces stay in
 * SECOND_FACTOR_PREVIOUS_KEYS (comma-separated) until `pnpm cli console second-factor reseal` has run.
 * Development and tests get a fixed key, refused anywhere else.
 */
export const DEVELOPMENT_SECOND_FACTOR_KEY = 'e2eda0507be93b604771da578f736df15211af5ef1a7fd975d3fa9f0fc883dc3';
const sealingKey = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{64}$/, { error: 'must be 64 hex digits (openssl rand -hex 32)' });
export const secondFactorSettings = {
  SECOND_FACTOR_KEY: sealingKey.default(DEVELOPMENT_SECOND_FACTOR_KEY),
  SECOND_FACTOR_PREVIOUS_KEYS: z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    )
    .pipe(z.array(sealingKey)),
  /** The name authenticator apps show beside a person's account. */
  SECOND_FACTOR_ISSUER: z.string().trim().min(1).max(40).default('Payout gateway'),
};

/**
 * The same for the CLI, where only `console second-factor reseal` reads them: unset, that command refuses, and
 * every other command (a statement CronJob, say) needs no key at all.
 */
export const cliSecondFactorSettings = {
  SECOND_FACTOR_KEY: sealingKey.optional(),
  SECOND_FACTOR_PREVIOUS_KEYS: secondFactorSettings.SECOND_FACTOR_PREVIOUS_KEYS,
};

export function refuseDevelopmentSecondFactorKeyOutsideDevelopment(
  config: { NODE_ENV: string; SECOND_FACTOR_KEY?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (
    !isDevelopmentOrTest(config.NODE_ENV) &&
    config.SECOND_FACTOR_KEY?.toLowerCase() === DEVELOPMENT_SECOND_FACTOR_KEY
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['SECOND_FACTOR_KEY'],
      message: `must be set to a real key (openssl rand -hex 32); the development key is only accepted with NODE_ENV=development or test; NODE_ENV is ${config.NODE_ENV}`,
    });
  }
}

/**
 * The second-factor settings an app hands the use cases: the sealing keys as bytes, the issuer, and whether
 * every sign-in asks for a code (production; elsewhere an approver's still does).
 */
export function secondFactorOf(config: {
  NODE_ENV: string;
  SECOND_FACTOR_KEY: string;
  SECOND_FACTOR_PREVIOUS_KEYS: string[];
  SECOND_FACTOR_ISSUER: string;
}): { keys: { current: Buffer; previous: Buffer[] }; issuer: string; everySignIn: boolean } {
  return {
    keys: {
      current: Buffer.from(config.SECOND_FACTOR_KEY, 'hex'),
      previous: config.SECOND_FACTOR_PREVIOUS_KEYS.map((k) => Buffer.from(k, 'hex')),
    },
    issuer: config.SECOND_FACTOR_ISSUER,
    everySignIn: config.NODE_ENV === 'production',
  };
}

export function allowSelfApprovalOnlyInDevelopment(
  config: { NODE_ENV: string; APPROVALS_ALLOW_SELF_APPROVAL: boolean },
  ctx: z.RefinementCtx,
): void {
  if (config.APPROVALS_ALLOW_SELF_APPROVAL && config.NODE_ENV !== 'development') {
    ctx.addIssue({
      code: 'custom',
      path: ['APPROVALS_ALLOW_SELF_APPROVAL'],
      message: `is for development only: nobody approves their own money action (NODE_ENV is ${config.NODE_ENV})`,
    });
  }
}
