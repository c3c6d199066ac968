import { afterAll, expect } from 'vitest';
import { createPrismaClient, checkInvariants } from '@payout/db';
import { DistributedTopology } from '../support/distributed-topology.js';

/**
 * Starts a topology for one test file and points this process's environment at it (so the apps a test
 * starts, and the shared test helpers, use it); after the file, checks every money invariant on the
 * primary, restores the environment and removes everything. Call it with top-level await, before
 * importing the tests that should run there.
 */
export async function useDistributedTopology(): Promise<DistributedTopology> {
  const topology = await DistributedTopology.start();
  const singleBox = Object.keys(topology.appEnv()).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, topology.appEnv());
  afterAll(async () => {
    const db = createPrismaClient({ url: topology.primaryUrl(), poolSize: 1, connectTimeoutMs: 5_000 });
    try {
      const report = await checkInvariants(db, { stuckAfterMs: 60_000, skip: ['no-stuck-payouts'] });
      expect(report.checks.filter((c) => c.breaches > 0)).toEqual([]);
    } finally {
      await db.$disconnect();
      for (const [name, value] of singleBox) {
        if (value === undefined) Reflect.deleteProperty(process.env, name);
        else process.env[name] = value;
      }
      await topology.destroy();
    }
  }, 60_000);
  return topology;
}
