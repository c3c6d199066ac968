import { Queue } from 'bullmq';
import type { RedisConnection } from './redis-connection.js';
import { jobRequest, PAYOUT_QUEUE, payoutJobs } from './job-catalog.js';

export interface PayoutProducer {
  /**
   * Queues the execute job of each payout, waiting at most the producer's time-out. Resolves true when
   * Redis took them, false when it could not be reached in time (the sweeper will queue them); never
   * rejects, because the payouts are already safe in PostgreSQL.
   */
  enqueueExecute(payoutIds: readonly bigint[]): Promise<boolean>;
  readonly queue: Queue;
  close(): Promise<void>;
}

export interface PayoutProducerOptions {
  connection: RedisConnection;
  prefix: string;
  /** Longest wait for Redis before leaving the job to the sweeper. */
  timeoutMs: number;
  onError?: (error: Error) => void;
}

export function createPayoutProducer(options: PayoutProducerOptions): PayoutProducer {
  const queue = new Queue(PAYOUT_QUEUE, { connection: options.connection, prefix: options.prefix });
  // Without a listener an unreachable Redis would surface as an unhandled 'error' event.
  queue.on('error', (error) => options.onError?.(error));

  // Payouts accepted in the same turn of the event loop are queued with one addBulk: one Redis round trip
  // (and one write) for the lot instead of one per payout.
  let pending: { ids: string[]; done: Promise<boolean> } | undefined;

  function flushSoon(): { ids: string[]; done: Promise<boolean> } {
    if (pending) return pending;
    const batch = { ids: [] as string[], done: Promise.resolve(true) };
    batch.done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      pending = undefined;
      return addWithin(batch.ids, options.timeoutMs);
    });
    pending = batch;
    return batch;
  }

  async function addWithin(ids: readonly string[], timeoutMs: number): Promise<boolean> {
    const jobs = ids.map((payoutId) => jobRequest(payoutJobs.execute, { payoutId }));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([queue.addBulk(jobs).then(() => true as const), timedOut]);
    } catch (error) {
      options.onError?.(error as Error);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    enqueueExecute(payoutIds) {
      if (payoutIds.length === 0) return Promise.resolve(true);
      const batch = flushSoon();
      for (const id of payoutIds) batch.ids.push(id.toString());
      return batch.done;
    },
    queue,
    close: () => queue.close(),
  };
}
