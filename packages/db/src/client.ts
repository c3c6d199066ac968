import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from './generated/prisma/client.js';

export interface DatabaseOptions {
  url: string;
  /** Connections this process keeps open. */
  poolSize: number;
  connectTimeoutMs: number;
  /** Shown in pg_stat_activity, so an operator can tell the API's connections from the worker's. */
  applicationName?: string;
  /** PostgreSQL's statement_timeout for this process's connections: a statement running longer is cancelled. */
  statementTimeoutMs?: number;
  /** PostgreSQL's lock_timeout: a statement waiting longer for a row or table lock is cancelled. */
  lockTimeoutMs?: number;
}

/** A Prisma client talking to PostgreSQL through the pg driver adapter (no native engine). */
export function createPrismaClient(options: DatabaseOptions): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    application_name: options.applicationName ?? 'payout-gateway',
    ...(sessionOptions(options) && { options: sessionOptions(options) }),
  });
  return new PrismaClient({ adapter });
}

/**
 * Either the client or an interactive transaction's client, so a repository function can run on its own
 * or inside a caller's transaction.
 */
export type PrismaClientOrTransaction = PrismaClient | Prisma.TransactionClient;

export type { PrismaClient };

// The time-outs travel as startup `options` of each connection, so they hold for every statement on it with
// no extra round trip. Behind PgBouncer in transaction mode the pooler must pass them on or ignore them
// (`ignore_startup_parameters = options`, then set them on the database role) — docs/operations.md.
function sessionOptions(options: DatabaseOptions): string | undefined {
  const settings = [
    options.statementTimeoutMs !== undefined && `-c statement_timeout=${options.statementTimeoutMs}`,
    options.lockTimeoutMs !== undefined && `-c lock_timeout=${options.lockTimeoutMs}`,
  ].filter((s): s is string => typeof s === 'string');
  return settings.length > 0 ? settings.join(' ') : undefined;
}
