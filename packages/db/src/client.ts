import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient, type Prisma } from './generated/prisma/client.js';

export interface DatabaseOptions {
  url: string;
  /** Connections this process keeps open. */
  poolSize: number;
  connectTimeoutMs: number;
  /** Shown in pg_stat_activity, so an operator can tell the API's connections from the worker's. */
  applicationName?: string;
}

/** A Prisma client talking to PostgreSQL through the pg driver adapter (no native engine). */
export function createPrismaClient(options: DatabaseOptions): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    application_name: options.applicationName ?? 'payout-gateway',
  });
  return new PrismaClient({ adapter });
}

/**
 * Either the client or an interactive transaction's client, so a repository function can run on its own
 * or inside a caller's transaction.
 */
export type PrismaClientOrTransaction = PrismaClient | Prisma.TransactionClient;

export type { PrismaClient };
