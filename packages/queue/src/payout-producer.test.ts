import { afterAll, describe, expect, it } from 'vitest';
import { createPayoutProducer, JOBS_PER_COMMAND } from './payout-producer.js';
import { payoutJobs } from './job-catalog.js';
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
    timeoutMs: 1_000,
    gatherMs,
  });

/** The size of each addBulk the producer sends: how it grouped its payouts into Redis commands. */
function commandsOf(producer: ReturnType<typeof producerWith>): number[] {
  const sizes: number[] = [];
  const addBulk = producer.queue.addBulk.bind(producer.queue);
  producer.queue.addBulk = (jobs) => {
    sizes.push(jobs.length);
    return addBulk(jobs);
  };
  return sizes;
}

const queuedIds = async (producer: ReturnType<typeof producerWith>) =>
  (await producer.queue.getJobs(['wait', 'prioritized', 'delayed'])).map((job) => job.data.payoutId as string).sort();

describe('createPayoutProducer', () => {
  it('when payouts are accepted within the window, then they share one batch and all of them are queued once it ends', async () => {
    const producer = producerWith(40);
    const commands = commandsOf(producer);
    try {
      const first = producer.enqueueExecute([1n]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = producer.enqueueExecute([2n, 3n]);

      expect(await queuedIds(producer)).toEqual([]);
      expect(await first).toEqual({ queued: true });
      expect(await second).toEqual({ queued: true });
      expect(await queuedIds(producer)).toEqual(['1', '2', '3']);
      expect(commands).toEqual([3]);

      // After the window a new payout starts a batch of its own.
      expect(await producer.enqueueExecute([4n])).toEqual({ queued: true });
      expect(await queuedIds(producer)).toEqual(['1', '2', '3', '4']);
      expect(commands).toEqual([3, 1]);
    } finally {
      await producer.close();
    }
  });

  it('when the window is 0, then only the payouts of one turn of the event loop share a batch', async () => {
    const producer = producerWith(0);
    const commands = commandsOf(producer);
    try {
      await Promise.all([producer.enqueueExecute([10n]), producer.enqueueExecute([11n])]);
      await producer.enqueueExecute([12n]);
      expect(await queuedIds(producer)).toEqual(['10', '11', '12']);
      expect(commands).toEqual([2, 1]);
    } finally {
      await producer.close();
    }
  });

  it('when a bulk of thousands is queued, then it goes in pieces no larger than one command should carry, every payout once', async () => {
    const producer = producerWith(0);
    const commands = commandsOf(producer);
    try {
      const ids = Array.from({ length: 2 * JOBS_PER_COMMAND + 7 }, (_, i) => BigInt(1_000 + i));
      expect(await producer.enqueueExecute(ids)).toEqual({ queued: true });
      expect(commands).toEqual([JOBS_PER_COMMAND, JOBS_PER_COMMAND, 7]);
      expect(await queuedIds(producer)).toEqual(ids.map(String).sort());
    } finally {
      await producer.close();
    }
  });

  it('when Redis does not answer a piece in time, then that piece and those after it are left to the sweeper, said to have timed out', async () => {
    const producer = producerWith(0);
    const addBulk = producer.queue.addBulk.bind(producer.queue);
    let pieces = 0;
    // The second piece's answer never comes in time: Redis, loaded, is slow rather than away.
    producer.queue.addBulk = (jobs) => (++pieces === 2 ? new Promise(() => undefined) : addBulk(jobs));
    try {
      const ids = Array.from({ length: 3 * JOBS_PER_COMMAND }, (_, i) => BigInt(5_000 + i));
      const [mine, theirs] = await Promise.all([
        producer.enqueueExecute(ids.slice(0, JOBS_PER_COMMAND + 1)),
        producer.enqueueExecute(ids.slice(JOBS_PER_COMMAND + 1)),
      ]);
      expect(mine).toEqual({ queued: false, left: 1, why: 'timed out' });
      expect(theirs).toEqual({ queued: false, left: 2 * JOBS_PER_COMMAND - 1, why: 'timed out' });
      expect(await queuedIds(producer)).toEqual(ids.slice(0, JOBS_PER_COMMAND).map(String).sort());
    } finally {
      await producer.close();
    }
  });

  it('when the producer is closed while payouts are gathering, then they are queued before it closes', async () => {
    const producer = producerWith(60_000);
    const gathering = producer.enqueueExecute([20n, 21n]);
    await producer.close();

    expect(await gathering).toEqual({ queued: true });
    const reader = createPayoutProducer({ connection: redis, prefix: producer.queue.opts.prefix!, timeoutMs: 2_000 });
    try {
      expect(await queuedIds(reader)).toEqual(['20', '21']);
    } finally {
      await reader.close();
    }
  });
});

describe('enqueueScheduledExecute', () => {
  it('when payouts are scheduled, then each job waits delayed until its own time, and one already due is not delayed', async () => {
    const producer = producerWith(40);
    try {
      const now = Date.now();
      const outcome = await producer.enqueueScheduledExecute([
        { id: 31n, scheduledAt: new Date(now + 60 * 60_000) },
        { id: 32n, scheduledAt: new Date(now + 24 * 60 * 60_000) },
        { id: 33n, scheduledAt: new Date(now - 60_000) },
      ]);

      expect(outcome).toEqual({ queued: true });
      const due = async (id: string) => {
        const job = (await producer.queue.getJob(payoutJobs.execute.jobId(id)))!;
        return { state: await job.getState(), at: job.timestamp + (job.opts.delay ?? 0) };
      };
      const [hour, day, past] = await Promise.all(['31', '32', '33'].map(due));
      expect(hour!.state).toBe('delayed');
      expect(Math.abs(hour!.at - (now + 60 * 60_000))).toBeLessThan(1_000);
      expect(day!.state).toBe('delayed');
      expect(Math.abs(day!.at - (now + 24 * 60 * 60_000))).toBeLessThan(1_000);
      expect(past!.state).not.toBe('delayed');
    } finally {
      await producer.close();
    }
  });
});
