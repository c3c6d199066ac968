import { Cluster } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '@payout/db';
import { deleteKeysMatching } from '@payout/queue';
import { createRailSim, type RailSim, type RailSimServer } from '@payout/rail-sim';
import { AppProcess } from '../support/app-process.js';
import { call, impsBody, upiBody, type ApiResponse } from '../support/api.js';
import { useDistributedTopology } from './use-distributed-topology.js';
import { eventually } from '../support/eventually.js';
import { makeMerchant, type TestMerchant } from '../support/factories.js';
import { expectBooksBalanced } from '../support/ledger-checks.js';
import { freePort } from '../support/private-redis.js';
import { FAST_RAIL, FAST_WORKER } from '../support/stack.js';

// Settlement on the topology past one machine (docs/scaling.md). First the single box's settlement
// journey, unchanged: every magic value end to end, with PostgreSQL reached through PgBouncer in
// transaction pooling mode, lookups on a streaming replica and the queues on a three-master Redis
// Cluster. Then the deployed shape — two API processes and three workers, on a database of their own —
// through a Redis master failing over, a lagging replica, a PgBouncer restart and an API process killed.

const topology = await useDistributedTopology();
const DEPLOYED = 'deployed';
await topology.createDatabase(DEPLOYED);

await import('../worker/magic-values.test.js');

describe('the deployed shape: two API processes and three workers on the distributed topology', () => {
  const pool = new pg.Pool({ connectionString: topology.primaryUrl(DEPLOYED), max: 4 });
  const prisma = createPrismaClient({ url: topology.primaryUrl(DEPLOYED), poolSize: 2, connectTimeoutMs: 5_000 });
  const apis: AppProcess[] = [];
  const apiUrls: string[] = [];
  const workers: AppProcess[] = [];
  let railSim: RailSim;
  let rail: RailSimServer;
  // A database and queue prefix of their own: the magic values' worker never sees these payouts.
  const env = () => ({
    ...topology.appEnv(DEPLOYED),
    QUEUE_PREFIX: `${process.env.QUEUE_PREFIX}-deployed`,
    NODE_ENV: 'test',
  });

  const startApi = async (port: number) => {
    // A minute's window, so the shared count below cannot roll over between two calls.
    const limit = { RATE_LIMIT_POINTS: '100000', RATE_LIMIT_WINDOW_MS: '60000' };
    const api = AppProcess.start('api', { ...env(), ...limit, PORT: String(port), HOST: '127.0.0.1' });
    await api.logged('api listening', 60_000);
    return api;
  };

  beforeAll(async () => {
    railSim = createRailSim(FAST_RAIL);
    rail = await railSim.listen(0);
    const ports = await Promise.all([freePort(), freePort()]);
    apiUrls.push(...ports.map((p) => `http://127.0.0.1:${p}`));
    for (let i = 0; i < 3; i++) {
      workers.push(AppProcess.start('worker', { ...env(), ...FAST_WORKER, RAIL_BASE_URL: rail.url }));
    }
    apis.push(...(await Promise.all(ports.map(startApi))));
    await Promise.all(workers.map((w) => w.logged('worker started', 60_000)));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...apis, ...workers].map((p) => p.stop()));
    await rail.close();
    await prisma.$disconnect();
    await pool.end();
  });

  const on = (i: number) => ({ url: apiUrls[i % apiUrls.length]! });
  const status = (i: number, merchant: TestMerchant, transactionId: string) =>
    call(on(i), `/api/check_payout_status?TransactionID=${transactionId}`, { merchant });
  const wallet = (i: number, merchant: TestMerchant) =>
    call(on(i), '/api/checkMainWallet?PayoutType=Main_Wallet_Balance', { merchant });
  const settled = (merchant: TestMerchant, transactionId: string) =>
    eventually(
      () => status(1, merchant, transactionId),
      (res: ApiResponse) => res.json.status === 'Success' || res.json.status === 'Failed',
      { what: `payout ${transactionId} to settle`, timeoutMs: 40_000, intervalMs: 100 },
    );

  // First, while both API processes are as started: a process whose Redis command fails (a restart racing its
  // cluster connection, a failover) counts in its own memory for a few seconds by design (auth/rate-limit.ts),
  // which is not what this shows. Each API's cluster connection is up before the first counted call.
  it('when merchants call both APIs, then the rate limit is counted once, in the cluster, under the hash-tagged prefix', async () => {
    for (let i = 0; i < apiUrls.length; i++) {
      await eventually(
        () => call(on(i), '/readyz'),
        (res: ApiResponse) => (res.json.checks as { redis?: string } | undefined)?.redis === 'ok',
        { what: `API ${i} connected to the Redis cluster`, timeoutMs: 30_000 },
      );
    }
    const merchant = await makeMerchant(prisma, { balance: '1.00' });
    const remaining = [];
    for (let i = 0; i < 4; i++) remaining.push((await wallet(i, merchant)).headers.get('x-ratelimit-remaining'));
    // One allowance shared by both processes: the count goes on from one API to the other.
    expect(remaining).toEqual(['99999', '99998', '99997', '99996']);
    const cluster = new Cluster([
      { host: '127.0.0.1', port: Number(topology.redis.nodeList.split(',')[0]!.split(':')[1]) },
    ]);
    try {
      expect(await cluster.exists(`{${process.env.QUEUE_PREFIX}-deployed}:ratelimit:${merchant.mid}`)).toBe(1);
    } finally {
      cluster.disconnect();
    }
  });

  it('when a Redis master fails over while payouts are sent to both APIs, then every payout settles exactly once', async () => {
    const merchant = await makeMerchant(prisma, { balance: '100000.00' });
    const bodies = Array.from({ length: 24 }, (_, i) => (i % 2 ? upiBody : impsBody)({ Amount: `${100 + i}.00` }));
    const first = await Promise.all(
      bodies.slice(0, 12).map((body, i) => call(on(i), pathOf(body), { merchant, body })),
    );
    const failover = topology.failOverRedisMaster(0, 300);
    const second = await Promise.all(bodies.slice(12).map((body, i) => call(on(i), pathOf(body), { merchant, body })));
    await failover;
    expect([...first, ...second].map((r) => r.status)).toEqual(bodies.map(() => 202));

    const results = await Promise.all(bodies.map((b) => settled(merchant, b.TransactionID)));
    expect(results.map((r) => r.json.status)).toEqual(bodies.map(() => 'Success'));
    const { rows } = await pool.query<{ ack_no: string }>('SELECT ack_no FROM payouts WHERE merchant_id = $1', [
      merchant.merchant.id,
    ]);
    // Paid once each. A job lost with the dead master is queued again by the sweeper, so a reference may be
    // submitted twice; the bank answers a repeat with the payment it already made.
    expect(rows.map((r) => railSim.payout(r.ack_no)?.status)).toEqual(rows.map(() => 'SUCCESS'));
    expect(railSim.payouts().filter((p) => rows.some((r) => r.ack_no === p.reference))).toHaveLength(rows.length);
    const books = await expectBooksBalanced(pool, merchant.merchant.id);
    const paid = bodies.reduce((sum, b) => sum + BigInt(b.Amount.replace('.', '')), 0n);
    expect(books.ledgerPaidOut).toBe(paid);
  }, 90_000);

  it('when the replica is behind, then a payout just accepted on one API is PENDING (never not found) on the other, and its wallet already shows the payout', async () => {
    const merchant = await makeMerchant(prisma, { balance: '1000.00' });
    // The opening credit is on the replica before it stops replaying, so what follows is what it lacks.
    await eventually(
      () => wallet(1, merchant),
      (res) => res.json.mainwallet === '1000.00',
      { what: 'the credit' },
    );
    await topology.pauseReplica();
    try {
      const body = impsBody({ Amount: '250.22' }); // .22: the bank keeps it PENDING for a while
      const accepted = await call(on(0), '/api/impspayout', { merchant, body });
      expect(accepted.status).toBe(202);
      const lookup = await status(1, merchant, body.TransactionID);
      expect(lookup.json.TransactionID, lookup.text).toBe(body.TransactionID);
      expect([200, 202], lookup.text).toContain(lookup.status);
      expect((await wallet(1, merchant)).json.mainwallet).toBe('749.78');
      // The replica still has neither: the answers above came from the primary.
      const replica = new pg.Client({ connectionString: topology.appEnv(DEPLOYED).READ_DATABASE_URL });
      await replica.connect();
      const { rows } = await replica.query('SELECT 1 FROM payouts WHERE transaction_id = $1', [body.TransactionID]);
      await replica.end();
      expect(rows).toEqual([]);
    } finally {
      await topology.resumeReplica();
    }
  }, 30_000);

  it('when PgBouncer restarts and an API process is killed, then the other API answers and every accepted payout settles', async () => {
    const merchant = await makeMerchant(prisma, { balance: '10000.00' });
    await topology.restartPgBouncer(300);
    apis[0]!.kill('SIGKILL');
    await apis[0]!.exited;
    const bodies = Array.from({ length: 6 }, () => impsBody({ Amount: '10.00' }));
    const answers = await Promise.all(bodies.map((body) => call(on(1), '/api/impspayout', { merchant, body })));
    expect(answers.map((r) => r.status)).toEqual(bodies.map(() => 202));
    apis[0] = await startApi(Number(new URL(apiUrls[0]!).port));
    const results = await Promise.all(bodies.map((b) => settled(merchant, b.TransactionID)));
    expect(results.map((r) => r.json.status)).toEqual(bodies.map(() => 'Success'));
    expect((await wallet(0, merchant)).json.mainwallet).toBe('9940.00');
    await expectBooksBalanced(pool, merchant.merchant.id);
  }, 90_000);
});

describe('cleaning up a prefix on the cluster', () => {
  it('when a prefix is cleaned up, then its keys are gone from every master and other prefixes keep theirs', async () => {
    const cluster = new Cluster(
      topology.redis.nodeList.split(',').map((node) => ({ host: '127.0.0.1', port: Number(node.split(':')[1]) })),
    );
    const prefix = `cleanup-${Date.now()}`;
    try {
      // Plain keys spread over all three masters by their own slots, and one in another prefix.
      const keys = Array.from({ length: 30 }, (_, i) => `${prefix}:key-${i}`);
      for (const key of keys) await cluster.set(key, '1');
      await cluster.set(`kept-${prefix}`, '1');
      const deleted = await deleteKeysMatching(
        { REDIS_URL: 'redis://127.0.0.1:1', REDIS_CLUSTER_NODES: topology.redis.nodeList },
        `${prefix}:*`,
      );
      expect(deleted).toBe(keys.length);
      expect(await Promise.all(keys.map((key) => cluster.exists(key)))).toEqual(keys.map(() => 0));
      expect(await cluster.exists(`kept-${prefix}`)).toBe(1);
    } finally {
      cluster.disconnect();
    }
  });
});

function pathOf(body: Record<string, unknown>): string {
  return 'Upi' in body ? '/api/payout' : '/api/impspayout';
}
