import {
  findPayoutsByTransactionIds,
  StatementCoalescer,
  type CoalescingLimits,
  type MerchantPayoutKey,
  type PayoutLookup,
  type PrismaClient,
} from '@payout/db';

/**
 * Coalesces concurrent status lookups into few statements (packages/db's StatementCoalescer), as
 * {@link CoalescingAccepter} does for accepts. Under light load a lookup goes alone at once.
 *
 * Why: a lookup's own work in PostgreSQL is an index probe, but every statement costs the API a query
 * object, a socket write and a result parse, and costs PostgreSQL a parse and a plan (unnamed statements,
 * so that PgBouncer in transaction mode works); those costs were most of a lookup's (docs/performance.md,
 * "Accepts: coalescing"). A lookup reads only committed rows, so sharing a statement changes no answer.
 * A failed statement fails the lookups it carried, each with the statement's error, as it would have alone.
 */
export class CoalescingLookup {
  private readonly coalescer: StatementCoalescer<MerchantPayoutKey, PayoutLookup | null>;

  constructor(
    private readonly db: PrismaClient,
    limits: CoalescingLimits,
  ) {
    this.coalescer = new StatementCoalescer(limits, async (batch) => {
      const found = await findPayoutsByTransactionIds(
        this.db,
        batch.map((p) => p.request),
      );
      batch.forEach((p, i) => p.resolve(found[i] ?? null));
    });
  }

  /** The merchant's payout with this TransactionID, or null. */
  find(merchantId: number, transactionId: string): Promise<PayoutLookup | null> {
    return this.coalescer.submit({ merchantId, transactionId });
  }
}
