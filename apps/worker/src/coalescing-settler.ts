import {
  isDatabaseUnavailable,
  isRetryableTransactionError,
  settlePayout,
  settlePayouts,
  StatementCoalescer,
  type CoalescingLimits,
  type Pending,
  type PrismaClient,
  type SettlementRequest,
  type SettlementResult,
} from '@payout/db';

/** How a driver settles: one payout at a time, or through a {@link CoalescingSettler}. */
export type Settle = (request: SettlementRequest) => Promise<SettlementResult>;

type PendingSettlement = Pending<SettlementRequest, SettlementResult>;

/**
 * Coalesces the settlements of the jobs a worker runs at once into few statements (packages/db's
 * StatementCoalescer): alone, a settlement goes at once; with many jobs in flight, one round trip and one
 * commit settle many payouts (docs/performance.md, "The worker's statements"). The API does the same with
 * accepts (apps/api/src/payouts/coalescing-accepter.ts).
 *
 * Each settlement is still all-or-nothing on its own rules (packages/db/sql/functions/settle_payouts.sql);
 * `settle_payouts` orders a batch by merchant, so batches lock wallets in one order and cannot deadlock. A
 * batch that fails for any reason but an unavailable database is retried one settlement at a time, so one
 * payout whose settlement the database refuses never fails its neighbours; the job of a settlement that
 * fails is retried by BullMQ and settles once, as before.
 */
export class CoalescingSettler {
  private readonly coalescer: StatementCoalescer<SettlementRequest, SettlementResult>;

  constructor(
    private readonly db: PrismaClient,
    limits: CoalescingLimits,
  ) {
    this.coalescer = new StatementCoalescer(limits, (batch) => this.run(batch));
  }

  readonly settle: Settle = (request) => this.coalescer.submit(request);

  private run(batch: PendingSettlement[]): Promise<void> {
    return inOneStatementOrEachAlone(
      batch,
      (requests) => settlePayouts(this.db, requests),
      (request) => settlePayout(this.db, request),
    );
  }
}

/**
 * Runs a coalesced batch as one statement. A batch that fails for any reason but an unavailable database
 * (or one whose transaction may simply be retried) is made again one request at a time, so one request the
 * database refuses never fails its neighbours; an unavailable database would fail each alone too, after as
 * long again.
 */
export async function inOneStatementOrEachAlone<Request, Result>(
  batch: Pending<Request, Result>[],
  all: (requests: Request[]) => Promise<Result[]>,
  one: (request: Request) => Promise<Result>,
): Promise<void> {
  try {
    const results = await all(batch.map((p) => p.request));
    batch.forEach((p, i) => p.resolve(results[i]!));
  } catch (error) {
    if (batch.length === 1 || isRetryableTransactionError(error) || isDatabaseUnavailable(error)) throw error;
    await Promise.all(batch.map((p) => one(p.request).then(p.resolve, p.reject)));
  }
}
