import type { Queue } from 'bullmq';
import type { PrismaClient } from '@payout/db';
import { createPayoutProducer, type RedisConnection } from '@payout/queue';
import { createMetrics } from '@payout/telemetry';
import { CoalescingAccepter } from './coalescing-accepter.js';
import type { SubmitBulkDeps } from './submit-bulk-payout.js';

/**
 * What an operator's bulk submission (`pnpm cli payout bulk`, the console's upload; docs/operations.md,
 * "Bulk payouts from a file") runs on: the API's own accepter, so the items are coalesced into a few
 * accept_payouts statements as for a merchant, and a producer over the operator's payout queue. One
 * statement in flight, and a patient wait: an operator's batch is not racing merchants for a prompt 503.
 */
export function operatorBulkDeps(db: PrismaClient, payoutQueue: Queue, metricsName: string): SubmitBulkDeps {
  return {
    db,
    accepter: new CoalescingAccepter(db, { maxBatch: 200, maxInFlight: 1, maxWaitMs: 30_000 }),
    producer: createPayoutProducer({
      connection: payoutQueue.opts.connection as RedisConnection,
      prefix: payoutQueue.opts.prefix ?? 'bull',
      timeoutMs: 5_000,
    }),
    metrics: createMetrics(metricsName),
  };
}
