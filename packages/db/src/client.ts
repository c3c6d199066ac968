import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
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

// The pg pool under each client createPrismaClient made, for the hot path's statements (see sqlRows).
const pools = new WeakMap<object, pg.Pool>();

/**
 * A Prisma client talking to PostgreSQL through the pg driver adapter (no native engine). The adapter is
 * handed a pool built here, and the same pool carries the hot path's statements straight over pg
 * ({@link sqlRows}): one set of connections, one pool size, one set of time-outs for both.
 */
export function createPrismaClient(options: DatabaseOptions): PrismaClient {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    // A connection once opened stays open: a new PostgreSQL backend's first statements load the catalogue entries
    // of every table and index they touch and compile each PL/pgSQL function they call, so closing idle ones
    // (pg's default, after 10 s) made every burst after a quiet spell pay that on many connections at once
    // (docs/performance.md, "Connections stay open"). Idle connections let a process exit, as the time-out did.
    idleTimeoutMillis: 0,
    allowExitOnIdle: true,
    application_name: options.applicationName ?? 'payout-gateway',
    ...(sessionOptions(options) && { options: sessionOptions(options) }),
  });
  // An idle connection that breaks (PostgreSQL restarted, a pooler closed it) is dropped by the pool and
  // replaced at the next checkout; without a listener its 'error' would end the process.
  pool.on('error', () => undefined);
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(client, pool);
  return client;
}

/**
 * Either the client or an interactive transaction's client, so a repository function can run on its own
 * or inside a caller's transaction.
 */
export type PrismaClientOrTransaction = PrismaClient | Prisma.TransactionClient;

/** An interactive transaction's client: for the steps that must run inside a caller's transaction. */
export type Transaction = Prisma.TransactionClient;

export type { PrismaClient };

// pg's own parsers, except: int8 as bigint (what Prisma gives, and paise must stay exact).
const INT8_OID = 20;
const parseInt8 = (value: string): bigint => BigInt(value);
const builtinParser = pg.types.getTypeParser as (oid: number, format?: 'text' | 'binary') => unknown;
const rowTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? parseInt8 : builtinParser(oid, format),
};

/** A statement written as a tagged template (`sql\`SELECT … ${value}\``): its text and its parameters apart. */
export interface SqlStatement {
  strings: TemplateStringsArray;
  values: unknown[];
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlStatement {
  return { strings, values };
}

/**
 * Runs one statement exactly as `db.$queryRaw` would, and returns its rows. On a client from
 * {@link createPrismaClient} it goes straight over pg on the client's pool: Prisma's request pipeline costs
 * several times the statement's own client-side work, which is most of a lookup (docs/performance.md,
 * "The hot path's statements over pg"). Inside a caller's transaction it goes through Prisma, so it joins that
 * transaction. Over pg the statement is unnamed (no `name:`): PgBouncer in transaction mode (1.18) keeps no prepared statement from
 * one transaction to the next, and no session state is set. int8 columns come back as bigint and
 * timestamptz as Date either way.
 */
export function sqlRows<T>(db: PrismaClientOrTransaction, statement: SqlStatement): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool || pool.ending) return db.$queryRaw<T[]>(statement.strings, ...statement.values);
  const { strings, values } = statement;
  let text = strings[0]!;
  for (let i = 1; i < strings.length; i++) text += `$${i}${strings[i]}`;
  return pool
    .query<T & pg.QueryResultRow>({ text, values: values.map(toParameter), types: rowTypes })
    .then((result) => result.rows);
}

// pg sends a bigint as its decimal text; everything else (strings, numbers, null, Dates, arrays) as pg does.
function toParameter(value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

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

/**
 * A connection of its own, beside the client's pool, for a session of several statements that must share
 * one connection (temporary tables, COPY): made with the pool's settings, closed when `work` ends. Not
 * taken from the pool, so the caller's other statements (on the pool) can run meanwhile, even on a pool of one.
 */
export async function withConnection<T>(db: PrismaClient, work: (connection: pg.ClientBase) => Promise<T>): Promise<T> {
  const pool = pools.get(db);
  if (!pool) throw new Error('withConnection needs a client made by createPrismaClient');
  const connection = new pg.Client(pool.options);
  connection.on('error', () => undefined);
  await connection.connect();
  try {
    return await work(connection);
  } finally {
    await connection.end().catch(() => undefined);
  }
}
