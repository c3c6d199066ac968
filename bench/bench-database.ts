import pg from 'pg';
import {
  acceptPayouts,
  createMerchant,
  creditWallet,
  defaultMigrationsDir,
  migrate,
  type PayoutInstructionRecord,
  type PrismaClient,
} from '@payout/db';
import { hashToken, newAckNo, newApiToken, tokenDisplayPrefix } from '@payout/domain';

export const BENCH_DATABASE_PREFIX = 'payouts_bench_';
/** The application_name of the connection a running bench holds to its own database for as long as it runs. */
const OWNER_APPLICATION = 'payouts-bench-owner';
const KEPT_COMMENT = 'kept by pnpm bench --keep';

/** What a load generator needs to call the API as a merchant. */
export interface BenchMerchant {
  id: number;
  mid: string;
  token: string;
}

export interface BenchMerchants {
  /** The merchants spread-out loads go over; their ids are consecutive (pgbench picks them by range). */
  spread: BenchMerchant[];
  /** The one merchant single-wallet loads hammer. */
  hot: BenchMerchant;
}

/** ₹1,000 crore a wallet: more than any run can pay out, so no payout is refused for balance. */
const OPENING_BALANCE_PAISE = 1_000_000_000_000n;

/** What one bench run owns: its database and its queue prefix, both named by the run's id. */
export interface BenchResources {
  id: string;
  databaseName: string;
  queuePrefix: string;
}

export function benchResources(id: string): BenchResources {
  return { id, databaseName: `${BENCH_DATABASE_PREFIX}${id}`, queuePrefix: `bench-${id}` };
}

export function databaseUrlFor(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withServer<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrlFor(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates and migrates the bench's own database, and opens the connection that marks it as in use until
 * `release` (a bench killed outright leaves a database nobody holds, which the next bench drops).
 */
export async function createBenchDatabase(
  serverUrl: string,
  name: string,
): Promise<{ databaseUrl: string; release: () => Promise<void> }> {
  const databaseUrl = databaseUrlFor(serverUrl, name);
  await migrate({ databaseUrl, migrationsDir: defaultMigrationsDir() });
  const owner = new pg.Client({ connectionString: databaseUrl, application_name: OWNER_APPLICATION });
  owner.on('error', () => undefined); // Dropped with the database at the end: expected.
  await owner.connect();
  return { databaseUrl, release: () => owner.end() };
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withServer(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
}

export async function markKept(serverUrl: string, name: string): Promise<void> {
  await withServer(serverUrl, (c) =>
    c.query(`COMMENT ON DATABASE ${pg.escapeIdentifier(name)} IS ${pg.escapeLiteral(KEPT_COMMENT)}`),
  );
}

/**
 * The runs whose database nobody holds any more (a bench killed before its cleanup), at least a minute
 * old; a database kept with --keep counts once it is a day old.
 */
export async function abandonedBenchRuns(serverUrl: string): Promise<BenchResources[]> {
  const { rows } = await withServer(serverUrl, (c) =>
    c.query<{ datname: string; comment: string | null; held: boolean }>(
      `SELECT d.datname, shobj_description(d.oid, 'pg_database') AS comment,
              EXISTS (SELECT 1 FROM pg_stat_activity a
                       WHERE a.datname = d.datname AND a.application_name = $2) AS held
         FROM pg_database d WHERE d.datname LIKE $1`,
      [`${BENCH_DATABASE_PREFIX}%`, OWNER_APPLICATION],
    ),
  );
  const now = Date.now();
  return rows
    .filter(({ datname, comment, held }) => {
      const created = parseInt(datname.slice(BENCH_DATABASE_PREFIX.length).slice(0, -6), 36);
      if (!Number.isFinite(created) || held) return false;
      return now - created > (comment === KEPT_COMMENT ? 24 * 60 * 60 * 1000 : 60 * 1000);
    })
    .map(({ datname }) => benchResources(datname.slice(BENCH_DATABASE_PREFIX.length)));
}

async function makeMerchant(db: PrismaClient, mid: string): Promise<BenchMerchant> {
  const token = newApiToken();
  const merchant = await createMerchant(db, {
    mid,
    name: `Bench merchant ${mid}`,
    firstTokenHash: hashToken(token),
    firstTokenPrefix: tokenDisplayPrefix(token),
  });
  await creditWallet(db, merchant.id, OPENING_BALANCE_PAISE, `bench-opening-${mid}`);
  return { id: merchant.id, mid, token };
}

/**
 * Creates the hot merchant and `count` spread-out merchants, each with a token and a funded wallet, through
 * the same repository functions the CLI uses (so the ledger agrees with the wallets).
 */
export async function seedMerchants(db: PrismaClient, count: number): Promise<BenchMerchants> {
  const hot = await makeMerchant(db, 'BENCHHOT');
  const spread: BenchMerchant[] = [];
  for (let i = 0; i < count; i += 16) {
    const chunk = Array.from(
      { length: Math.min(16, count - i) },
      (_, j) => `BENCH${String(i + j + 1).padStart(5, '0')}`,
    );
    spread.push(...(await Promise.all(chunk.map((mid) => makeMerchant(db, mid)))));
  }
  // Nothing else inserts merchants into this database, so the ids form one range (pgbench picks from it).
  spread.sort((a, b) => a.id - b.id);
  if (spread.at(-1)!.id - spread[0]!.id + 1 !== count) throw new Error('bench merchants did not get consecutive ids');
  return { spread, hot };
}

/**
 * Seeds `perMerchant` accepted payouts (TransactionIDs "1" … "n") for each merchant, through the accept
 * path's own statement, for the lookups to find.
 */
export async function seedLookupPayouts(
  db: PrismaClient,
  merchants: BenchMerchant[],
  perMerchant: number,
): Promise<void> {
  const instructions: PayoutInstructionRecord[] = [];
  for (const m of merchants) {
    for (let k = 1; k <= perMerchant; k++) {
      instructions.push({
        merchantId: m.id,
        transactionId: String(k),
        mode: 'IMPS',
        amountPaise: 10_100n,
        ackNo: newAckNo(),
        account: '123456789012',
        ifsc: 'HDFC0001234',
        name: 'Asha Kumar',
        bankName: 'HDFC Bank',
        mobile: '9876543210',
        email: 'asha@example.com',
        description: 'Salary',
        scheduledAt: null,
      });
    }
  }
  for (let i = 0; i < instructions.length; i += 500) {
    const results = await acceptPayouts(db, instructions.slice(i, i + 500));
    const refused = results.filter((r) => r.outcome !== 'accepted');
    if (refused.length > 0) throw new Error(`seeding lookups: ${refused.length} payouts not accepted`);
  }
}

/**
 * Payouts recorded within [from, to) (every one accepted: the bench's wallets never run short): the accept
 * rate of an end-to-end window, on the same clock and over the same seconds as the settlements counted.
 */
export async function countAccepted(db: PrismaClient, from: Date, to: Date): Promise<number> {
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM payouts WHERE created_at >= ${from} AND created_at < ${to}`;
  return Number(row!.n);
}

/** The database's own clock, so a measurement window and settled_at are read on the same clock. */
export async function databaseNow(db: PrismaClient): Promise<Date> {
  const [row] = await db.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS now`;
  return row!.now;
}

/**
 * Payouts settled SUCCESS within [from, to), of those accepted since `acceptedSince`: an end-to-end run
 * counts only its own stream's payouts, never jobs an earlier phase queued late (a bulk batch's enqueue can
 * land after the queue was emptied on a loaded machine).
 */
export async function countSettled(db: PrismaClient, from: Date, to: Date, acceptedSince: Date): Promise<number> {
  const [row] = await db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM payouts
     WHERE state = 'SUCCESS' AND settled_at >= ${from} AND settled_at < ${to} AND created_at >= ${acceptedSince}`;
  return Number(row!.n);
}

/** Writes dirty pages out before a measurement, so no run pays for the checkpoint of the one before. */
export async function checkpoint(db: PrismaClient): Promise<void> {
  await db.$executeRawUnsafe('CHECKPOINT');
}

export async function postgresVersion(db: PrismaClient): Promise<string> {
  const [row] = await db.$queryRaw<{ v: string }[]>`SELECT current_setting('server_version') AS v`;
  return row!.v;
}
