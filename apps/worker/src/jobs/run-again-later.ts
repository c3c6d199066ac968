import { DelayedError, type Job } from 'bullmq';

/**
 * Thrown by a job's work when it has nothing to do yet but must look again after `delayMs` — a payout held
 * while no bank serves its mode, an inquiry at a paused bank (docs/banks.md). Not a failure: the job goes
 * back to the delayed set as it is, its attempts untouched.
 */
export class RunAgainLater extends Error {
  constructor(
    readonly delayMs: number,
    readonly why: string,
  ) {
    super(`again in ${delayMs} ms: ${why}`);
    this.name = 'RunAgainLater';
  }
}

/** Runs `work`; a {@link RunAgainLater} puts the job back, delayed (BullMQ's own way: DelayedError). */
export async function runOrDelay<T>(job: Job, token: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof RunAgainLater)) throw error;
    await job.moveToDelayed(Date.now() + error.delayMs, token);
    throw new DelayedError(error.message);
  }
}
