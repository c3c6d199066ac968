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

interface PayoutProducerOptions {
  connection: RedisConnection;
  prefix: string;
  /** Longest wait for Redis before leaving the job to the sweeper. */
  timeoutMs: number;
  /**
   * How long payouts accepted one after another gather before they are queued together (0: those of the
   * same turn of the event loop only). The answer never waits for it; the worker sees a job that much later.
   */
  gatherMs?: number;
  onError?: (error: Error) => void;
}

export function createPayoutProducer(options: PayoutProducerOptions): PayoutProducer {
  const queue = new Queue(PAYOUT_QUEUE, { connection: options.connection, prefix: options.prefix });
  // Without a listener an unreachable Redis would surface as an unhandled 'error' event.
  queue.on('error', (error) => options.onError?.(error));

  // Payouts accepted within `gatherMs` of each other (or in the same turn of the event loop) are queued with
  // one addBulk: one Redis round trip, one write and one MULTI for the lot instead of one per payout. Under
  // load the accept coalescer already answers many payouts in one turn; between bursts, and at a steady
  // moderate rate where each payout is accepted alone, the window is what groups them (docs/performance.md,
  // "The enqueue window": BullMQ's addBulk of one job was 16 % of the API's busy time at half load).
  const gatherMs = options.gatherMs ?? 0;
  let pending: { ids: string[]; done: Promise<boolean>; flushNow: () => void } | undefined;

  function flushSoon(): { ids: string[]; done: Promise<boolean> } {
    if (pending) return pending;
    let release: () => void = () => undefined;
    const gathered = new Promise<void>((resolve) => (release = resolve));
    const timer = gatherMs > 0 ? setTimeout(release, gatherMs) : undefined;
    const immediate = gatherMs > 0 ? undefined : setImmediate(release);
    const flushNow = () => {
      clearTimeout(timer);
      clearImmediate(immediate);
      release();
    };
    const batch = { ids: [] as string[], done: Promise.resolve(true), flushNow };
    batch.done = gathered.then(() => {
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
    async close() {
      // Payouts still gathering are queued before the connection goes, not left to the sweeper.
      if (pending) {
        pending.flushNow();
        await pending.done;
      }
      await queue.close();
    },
  };
}
