import { Queue } from 'bullmq';
import type { RedisConnection } from './redis-connection.js';
import { jobRequest, PAYOUT_QUEUE, payoutJobs, type JobRequest } from './job-catalog.js';

/**
 * What became of a call's payouts: all queued, or some left to the sweeper — because Redis did not answer a
 * piece within the producer's time-out (`timed out`: slow, or away) or answered it with an error (`refused`).
 */
export type EnqueueOutcome = { queued: true } | { queued: false; left: number; why: 'timed out' | 'refused' };

/**
 * Most jobs sent in one Redis command. A bulk of thousands in one addBulk is one MULTI that a loaded Redis
 * may not finish within the time-out, and then the whole bulk waits for the sweeper; pieces of this size
 * each finish in milliseconds, and a slow one leaves only itself and those after it.
 */
export const JOBS_PER_COMMAND = 500;

type EnqueueOutcomeWhy = Extract<EnqueueOutcome, { queued: false }>['why'];

/** A payout to send at a time of its merchant's choosing, not before. */
export interface ScheduledExecution {
  id: bigint;
  scheduledAt: Date;
}

export interface PayoutProducer {
  /**
   * Queues the execute job of each payout, in pieces of at most {@link JOBS_PER_COMMAND}, each waiting at
   * most the producer's time-out. Says how many were left to the sweeper, and why; never rejects, because
   * the payouts are already safe in PostgreSQL.
   */
  enqueueExecute(payoutIds: readonly bigint[]): Promise<EnqueueOutcome>;
  /**
   * Queues the execute job of each scheduled payout delayed until its time (docs/api.md, "Scheduling a
   * payout"), in pieces as {@link enqueueExecute} does but without its gathering window: scheduled payouts are
   * few, and their jobs are not due now. Never rejects; a job Redis does not take is queued by the sweeper once
   * the payout's time has come.
   */
  enqueueScheduledExecute(payouts: readonly ScheduledExecution[]): Promise<EnqueueOutcome>;
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
  type Batch = { ids: string[]; done: Promise<Set<string>>; flushNow: () => void; why: EnqueueOutcomeWhy };
  let pending: Batch | undefined;

  function flushSoon(): Batch {
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
    const batch: Batch = { ids: [], done: Promise.resolve(new Set()), flushNow, why: 'timed out' };
    batch.done = gathered.then(() => {
      pending = undefined;
      return addInPieces(batch);
    });
    pending = batch;
    return batch;
  }

  /** Queues the batch piece by piece; stops at the first piece Redis does not take, and returns the ids left. */
  async function addInPieces(batch: Batch): Promise<Set<string>> {
    for (let start = 0; start < batch.ids.length; start += JOBS_PER_COMMAND) {
      const piece = batch.ids.slice(start, start + JOBS_PER_COMMAND);
      const failure = await addWithin(piece, options.timeoutMs);
      if (failure) {
        batch.why = failure;
        return new Set(batch.ids.slice(start));
      }
    }
    return new Set();
  }

  function addWithin(ids: readonly string[], timeoutMs: number): Promise<EnqueueOutcomeWhy | null> {
    return addJobsWithin(
      ids.map((payoutId) => jobRequest(payoutJobs.execute, { payoutId })),
      timeoutMs,
    );
  }

  async function addJobsWithin(jobs: JobRequest[], timeoutMs: number): Promise<EnqueueOutcomeWhy | null> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timed out'>((resolve) => {
      timer = setTimeout(() => resolve('timed out'), timeoutMs);
    });
    try {
      return await Promise.race([queue.addBulk(jobs).then(() => null), timedOut]);
    } catch (error) {
      options.onError?.(error as Error);
      // ioredis's own command time-out is an answer that never came, not a refusal.
      return /timed out/i.test((error as Error).message) ? 'timed out' : 'refused';
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async enqueueExecute(payoutIds) {
      if (payoutIds.length === 0) return { queued: true };
      const batch = flushSoon();
      const mine = payoutIds.map(String);
      batch.ids.push(...mine);
      const left = await batch.done;
      const notQueued = left.size === 0 ? 0 : mine.filter((id) => left.has(id)).length;
      return notQueued === 0 ? { queued: true } : { queued: false, left: notQueued, why: batch.why };
    },
    async enqueueScheduledExecute(payouts) {
      for (let start = 0; start < payouts.length; start += JOBS_PER_COMMAND) {
        // The delay is counted when the piece is sent; a time already past is a job due now.
        const now = Date.now();
        const jobs = payouts
          .slice(start, start + JOBS_PER_COMMAND)
          .map((p) =>
            jobRequest(
              payoutJobs.execute,
              { payoutId: p.id.toString() },
              { delay: Math.max(0, p.scheduledAt.getTime() - now) },
            ),
          );
        const failure = await addJobsWithin(jobs, options.timeoutMs);
        if (failure) return { queued: false, left: payouts.length - start, why: failure };
      }
      return { queued: true };
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
