import { NextTurnFlush } from './next-turn-flush.js';
import { findPayoutsByTransactionIds, type PayoutKey, type PayoutSummary, type PrismaClient } from '@payout/db';

export interface LookupCoalescingOptions {
  /** Most payouts looked up in one statement. */
  maxBatch: number;
  /** Most statements in flight at once (each holds one database connection). */
  maxInFlight: number;
}

interface Waiting {
  key: PayoutKey;
  resolve: (payout: PayoutSummary | null) => void;
  reject: (error: unknown) => void;
}

/**
 * Coalesces concurrent status lookups into few statements, as {@link CoalescingAccepter} does for accepts:
 * while `maxInFlight` statements run, new lookups wait, and each statement that finishes takes everything
 * waiting (up to `maxBatch`) into the next. Under light load a lookup goes alone at once.
 *
 * Why: a lookup's own work in PostgreSQL is an index probe, but every statement costs the API a query
 * object, a socket write and a result parse, and costs PostgreSQL a parse and a plan (unnamed statements,
 * so that PgBouncer in transaction mode works); those costs were most of a lookup's (docs/performance.md,
 * "What changed, and why"). A lookup reads only committed rows, so sharing a statement changes no answer.
 * A failed statement fails the lookups it carried, each with the statement's error, as it would have alone.
 */
export class CoalescingLookup {
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private readonly nextTurn = new NextTurnFlush(() => this.flush());

  constructor(
    private readonly db: PrismaClient,
    private readonly options: LookupCoalescingOptions,
  ) {}

  /** The merchant's payout with this TransactionID, or null. */
  find(merchantId: number, transactionId: string): Promise<PayoutSummary | null> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ key: { merchantId, transactionId }, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.inFlight < this.options.maxInFlight) this.nextTurn.request();
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        if (this.waiting.length > 0) this.schedule();
      });
    }
  }

  private async run(batch: Waiting[]): Promise<void> {
    try {
      const found = await findPayoutsByTransactionIds(
        this.db,
        batch.map((w) => w.key),
      );
      batch.forEach((w, i) => w.resolve(found[i] ?? null));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
