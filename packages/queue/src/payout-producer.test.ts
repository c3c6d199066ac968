import { afterAll, describe, expect, it } from 'vitest';
import { createPayoutProducer } from './payout-producer.js';
import { createProducerConnection } from './redis-connection.js';

// The producer's gathering window (docs/performance.md, "The enqueue window"), against this file's own
// queue prefix on the real Redis: payouts accepted close together are queued in one addBulk, the window
// never loses a job, and a producer closed while payouts are gathering queues them first.
const redis = createProducerConnection(process.env.REDIS_URL!);
afterAll(() => redis.disconnect());

let nextPrefix = 0;
const producerWith = (gatherMs: number) =>
  createPayoutProducer({
    connection: redis,
    prefix: `${process.env.QUEUE_PREFIX!}-p${nextPrefix++}`,
    timeoutMs: 2_000,
    gatherMs,
  });

const queuedIds = async (producer: ReturnType<typeof producerWith>) =>
  (await producer.queue.getJobs(['wait', 'prioritized', 'delayed'])).map((job) => job.data.payoutId as string).sort();

describe('createPayoutProducer', () => {
  it('when payouts are accepted within the window, then they share one batch and all of them are queued once it ends', async () => {
    const producer = producerWith(40);
    try {
      const first = producer.enqueueExecute([1n]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = producer.enqueueExecute([2n, 3n]);

      expect(second).toBe(first);
      expect(await queuedIds(producer)).toEqual([]);
      expect(await first).toBe(true);
      expect(await queuedIds(producer)).toEqual(['1', '2', '3']);

      // After the window a new payout starts a batch of its own.
      const third = producer.enqueueExecute([4n]);
      expect(third).not.toBe(first);
      expect(await third).toBe(true);
      expect(await queuedIds(producer)).toEqual(['1', '2', '3', '4']);
    } finally {
      await producer.close();
    }
  });

  it('when the window is 0, then only the payouts of one turn of the event loop share a batch', async () => {
    const producer = producerWith(0);
    try {
      const first = producer.enqueueExecute([10n]);
      expect(producer.enqueueExecute([11n])).toBe(first);
      await first;
      const next = producer.enqueueExecute([12n]);
      expect(next).not.toBe(first);
      await next;
      expect(await queuedIds(producer)).toEqual(['10', '11', '12']);
    } finally {
      await producer.close();
    }
  });

  it('when the producer is closed while payouts are gathering, then they are queued before it closes', async () => {
    const producer = producerWith(60_000);
    const gathering = producer.enqueueExecute([20n, 21n]);
    await producer.close();

    expect(await gathering).toBe(true);
    const reader = createPayoutProducer({ connection: redis, prefix: producer.queue.opts.prefix!, timeoutMs: 2_000 });
    try {
      expect(await queuedIds(reader)).toEqual(['20', '21']);
    } finally {
      await reader.close();
    }
  });
});
