// `pnpm capacity`: what each topology holds, measured back to back in one run on this machine — the
// single box (one PostgreSQL, one Redis) and the distributed topology (a Redis Cluster, PgBouncer before
// the primary, a streaming replica for lookups) — each with the same apps: two APIs, three workers and
// the rail simulator. No faults: accepts/s with their p50/p99, settled/s, and status lookups/s with their
// p50/p99 (most answered by the replica on the distributed topology). docs/scaling.md shows the figures.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPrismaClient, type PrismaClient } from '@payout/db';
import { makeMerchant, type TestMerchant } from '../test/support/factories.js';
import { SoakCluster } from './soak/soak-cluster.js';
import { DistributedServices, SingleBoxServices, type SoakServices } from './soak/soak-services.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '32' },
    json: { type: 'boolean', default: false },
  },
  strict: true,
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
if (!(seconds > 0) || !(concurrency > 0)) {
  console.error('usage: pnpm capacity [--seconds N] [--concurrency N] [--json]');
  process.exit(2);
}
const progress = (line: string) => console.error(line);

interface Figures {
  topology: 'single' | 'distributed';
  acceptsPerSecond: number;
  acceptP50Ms: number;
  acceptP99Ms: number;
  settledPerSecond: number;
  lookupsPerSecond: number;
  lookupP50Ms: number;
  lookupP99Ms: number;
  /** Answers other than the expected 202 (accepts) and 200 (lookups), by status ("network": none). */
  otherAnswers: Record<string, number>;
}

const results: Figures[] = [];
for (const topology of ['single', 'distributed'] as const) {
  results.push(await measure(topology));
}
if (values.json) console.log(JSON.stringify(results, null, 2));
else {
  console.log('| topology | accepts/s | accept p50 / p99 | settled/s | lookups/s | lookup p50 / p99 | other answers |');
  console.log('| -------- | --------- | ---------------- | --------- | --------- | ---------------- | ------------- |');
  for (const r of results) {
    console.log(
      `| ${r.topology} | ${r.acceptsPerSecond.toFixed(0)} | ${r.acceptP50Ms.toFixed(1)} / ${r.acceptP99Ms.toFixed(1)} ms | ` +
        `${r.settledPerSecond.toFixed(0)} | ${r.lookupsPerSecond.toFixed(0)} | ${r.lookupP50Ms.toFixed(1)} / ${r.lookupP99Ms.toFixed(1)} ms | ` +
        `${
          Object.entries(r.otherAnswers)
            .map(([answer, n]) => `${answer} ×${n}`)
            .join(', ') || 'none'
        } |`,
    );
  }
}

async function measure(topology: 'single' | 'distributed'): Promise<Figures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'capacity-'));
  let cluster: SoakCluster | undefined;
  let services: SoakServices | undefined;
  try {
    services = await (topology === 'distributed' ? DistributedServices.start() : SingleBoxServices.start());
    cluster = await SoakCluster.start({ workers: 3, apis: 2, dir, log: progress, services });
    progress(`${topology}: ${services.describe()}`);
    const db = createPrismaClient({ url: services.databaseUrl, poolSize: 4, connectTimeoutMs: 5_000 });
    try {
      const merchants = await Promise.all(
        Array.from({ length: 20 }, () => makeMerchant(db, { balance: '100000000.00' })),
      );
      const apiUrls = cluster.apiUrls;
      const accepted: { merchant: TestMerchant; transactionId: string }[] = [];
      const other: Record<string, number> = {};
      const count = (answer: number | 'network') => (other[answer] = (other[answer] ?? 0) + 1);

      // Accepts: `concurrency` merchants' clients, each sending its next payout as soon as the last is answered.
      const acceptLatencies = await closedLoop(seconds * 1000, async (n) => {
        const merchant = merchants[n % merchants.length]!;
        const transactionId = `${Date.now()}${randomBytes(4).readUInt32BE(0)}`.slice(0, 30);
        const status = await post(apiUrls[n % apiUrls.length]!, merchant, transactionId).catch(
          () => 'network' as const,
        );
        if (status === 202) accepted.push({ merchant, transactionId });
        else count(status);
      });
      const acceptsPerSecond = accepted.length / seconds;
      const settledPerSecond = await settleRate(db, accepted.length);

      // Lookups of settled payouts, as merchants poll them.
      let lookups = 0;
      const lookupLatencies = await closedLoop(seconds * 1000, async (n) => {
        const { merchant, transactionId } = accepted[(n * 7919) % accepted.length]!;
        const status = await fetch(
          `${apiUrls[n % apiUrls.length]!}/api/check_payout_status?TransactionID=${transactionId}`,
          { headers: { MID: merchant.mid, Token: merchant.token } },
        ).then(
          async (response) => (await response.arrayBuffer(), response.status),
          () => 'network' as const,
        );
        if (status === 200) lookups++;
        else count(status);
      });
      const figures: Figures = {
        topology,
        acceptsPerSecond,
        acceptP50Ms: percentile(acceptLatencies, 0.5),
        acceptP99Ms: percentile(acceptLatencies, 0.99),
        settledPerSecond,
        lookupsPerSecond: lookups / seconds,
        lookupP50Ms: percentile(lookupLatencies, 0.5),
        lookupP99Ms: percentile(lookupLatencies, 0.99),
        otherAnswers: other,
      };
      progress(`${topology}: ${JSON.stringify(figures)}`);
      return figures;
    } finally {
      await db.$disconnect();
    }
  } finally {
    if (cluster) await cluster.stop();
    else await services?.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `once` in `concurrency` lanes, each starting again as soon as it finishes, for `ms`; their latencies. */
async function closedLoop(ms: number, once: (n: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  const until = Date.now() + ms;
  let n = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        const started = performance.now();
        await once(n++).catch(() => undefined);
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

async function post(apiUrl: string, merchant: TestMerchant, transactionId: string): Promise<number> {
  const response = await fetch(`${apiUrl}/api/impspayout`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', MID: merchant.mid, Token: merchant.token },
    body: JSON.stringify({
      BankName: 'HDFC Bank',
      Account: '123456789012',
      Ifsc: 'HDFC0001234',
      Name: 'Asha Kumar',
      Amount: '101.00',
      TransactionID: transactionId,
    }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Settled per second: every accepted payout settled, over the time from the first accept to the last settlement. */
async function settleRate(db: PrismaClient, expected: number): Promise<number> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const [row] = await db.$queryRaw<{ settled: number; seconds: number | null }[]>`
      SELECT count(settled_at)::int AS settled,
             extract(epoch FROM max(settled_at) - min(created_at))::float8 AS seconds
        FROM payouts`;
    if ((row!.settled >= expected || Date.now() > deadline) && row!.seconds) return row!.settled / row!.seconds;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}
