import { NextTurnFlush } from './next-turn-flush.js';

/** How far a coalescer batches. */
export interface CoalescingLimits {
  /** Most requests carried by one statement. */
  maxBatch: number;
  /** Most statements in flight at once (each holds one database connection). */
  maxInFlight: number;
}

/** A request waiting for its statement, and how to answer it. */
export interface Pending<Request, Result> {
  request: Request;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

/**
 * The queue every simple coalescer shares (the API's status lookups, the worker's settlements): while
 * `maxInFlight` statements run, new requests wait, and each statement that finishes takes everything waiting
 * (up to `maxBatch`) into the next. Alone, a request goes at once, on the next turn of the event loop; under
 * load, batches grow by themselves. `runBatch` makes one statement of a batch and answers every request in
 * it, each with its own result or error. (The API's accept coalescer also keeps each merchant to one
 * statement at a time, so it schedules for itself: apps/api/src/payouts/coalescing-accepter.ts.)
 */
export class StatementCoalescer<Request, Result> {
  private waiting: Pending<Request, Result>[] = [];
  private inFlight = 0;
  private readonly nextTurn = new NextTurnFlush(() => this.flush());

  constructor(
    private readonly limits: CoalescingLimits,
    private readonly runBatch: (batch: Pending<Request, Result>[]) => Promise<void>,
  ) {}

  submit(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      if (this.inFlight < this.limits.maxInFlight) this.nextTurn.request();
    });
  }

  private flush(): void {
    while (this.inFlight < this.limits.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.limits.maxBatch);
      this.inFlight++;
      void this.runBatch(batch)
        .catch((error: unknown) => {
          for (const pending of batch) pending.reject(error);
        })
        .finally(() => {
          this.inFlight--;
          if (this.waiting.length > 0 && this.inFlight < this.limits.maxInFlight) this.nextTurn.request();
        });
    }
  }
}
