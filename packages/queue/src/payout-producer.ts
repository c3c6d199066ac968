import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { PAYOUT_QUEUE, payoutJobs } from './job-catalog.js';

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
  connection: Redis;
  prefix: string;
  /** Longest wait for Redis before leaving the job to the sweeper. */
  timeoutMs: number;
  onError?: (error: Error) => void;
}

export function createPayoutProducer(options: PayoutProducerOptions): PayoutProducer {
  const queue = new Queue(PAYOUT_QUEUE, { connection: options.connection, prefix: options.prefix });
  // Without a listener an unreachable Redis would surface as an unhandled 'error' event.
  queue.on('error', (error) => options.onError?.(error));

  async function enqueueExecute(payoutIds: readonly bigint[]): Promise<boolean> {
    if (payoutIds.length === 0) return true;
    const jobs = payoutIds.map((id) => {
      const payoutId = id.toString();
      return {
        name: payoutJobs.execute.name,
        data: { payoutId },
        opts: { ...payoutJobs.execute.options, jobId: payoutJobs.execute.jobId(payoutId) },
      };
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), options.timeoutMs);
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
    enqueueExecute,
    queue,
    close: () => queue.close(),
  };
}
