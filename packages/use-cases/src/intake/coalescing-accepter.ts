import {
  acceptPayouts,
  findPayoutByTransactionId,
  isDatabaseUnavailable,
  isRetryableTransactionError,
  type AcceptResult,
  type CoalescingLimits,
  type PayoutInstructionRecord,
  type PayoutSummary,
  type PrismaClient,
  NextTurnFlush,
} from '@payout/db';
import { AppError } from '@payout/domain';
import type { PayoutAccepter } from './payout-accepter.js';

export interface CoalescingOptions extends CoalescingLimits {
  /**
   * Longest an instruction waits for a statement to carry it. If the statements in flight are stuck (a lock,
   * a database that stopped answering), waiting requests get a prompt 503 instead of hanging; nothing was
   * recorded for them, so the merchant's retry with the same TransactionID is safe.
   */
  maxWaitMs: number;
}

interface Waiting {
  instruction: PayoutInstructionRecord;
  resolve: (result: AcceptResult) => void;
  reject: (error: unknown) => void;
  /** When it stops waiting (performance.now()): past it, the request is answered 503. */
  deadline: number;
}

/**
 * Coalesces concurrent accepts into few database round trips. While `maxInFlight` statements are running,
 * new instructions wait; each statement that finishes takes everything waiting (up to `maxBatch`) into the
 * next. Under light load an instruction goes alone at once; under heavy load batches grow by themselves.
 *
 * Why: reserving from one wallet serialises on its row lock, and every statement pays a commit (a WAL
 * flush), so one transaction per payout caps a hot merchant at one lock hand-over and one flush per
 * payout. In one statement, a batch takes the lock once and commits once. For the same reason a merchant
 * is never in two statements at once: its instructions wait for its statement in flight and all go in the
 * next one, instead of queuing on the lock in several small ones. Other merchants' instructions are not
 * held up by it.
 *
 * Each batch is ordered by merchant (arrival order kept within a merchant), so concurrent batches lock
 * wallets in the same order and cannot deadlock on them; a batch that fails for any other reason is
 * retried one instruction at a time, so one bad instruction never fails its neighbours.
 */
export class CoalescingAccepter implements PayoutAccepter {
  private waiting: Waiting[] = [];
  /** Merchants with a statement in flight. */
  private readonly busy = new Set<number>();
  private inFlight = 0;
  /** Set while instructions wait: fires at the oldest one's deadline. */
  private deadlineTimer: NodeJS.Timeout | undefined;
  private readonly nextTurn = new NextTurnFlush(() => this.flush());

  constructor(
    private readonly db: PrismaClient,
    private readonly options: CoalescingOptions,
  ) {}

  accept(instruction: PayoutInstructionRecord): Promise<AcceptResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ instruction, resolve, reject, deadline: performance.now() + this.options.maxWaitMs });
      // One timer for the whole queue, at its oldest instruction's deadline, instead of a timer per accept.
      this.deadlineTimer ??= setTimeout(() => this.giveUpOverdue(), this.options.maxWaitMs).unref();
      this.schedule();
    });
  }

  /** Not coalesced: asked only for the rare request that may be recorded only as a replay. */
  findRecorded(merchantId: number, transactionId: string): Promise<PayoutSummary | null> {
    return findPayoutByTransactionId(this.db, merchantId, transactionId);
  }

  /**
   * Answers every instruction past its deadline with a 503 (nothing was recorded for it), and sets the timer
   * again for the oldest still waiting. Instructions keep their arrival order in the queue, so the oldest is
   * the first.
   */
  private giveUpOverdue(): void {
    this.deadlineTimer = undefined;
    const now = performance.now();
    const overdue: Waiting[] = [];
    const left: Waiting[] = [];
    for (const w of this.waiting) (w.deadline <= now ? overdue : left).push(w);
    this.waiting = left;
    for (const w of overdue) {
      w.reject(
        new AppError(
          'DEPENDENCY_UNAVAILABLE',
          'The service is temporarily unavailable. Please retry with the same TransactionID.',
          { details: { waitedMs: this.options.maxWaitMs } },
        ),
      );
    }
    const oldest = this.waiting[0];
    if (oldest) this.deadlineTimer = setTimeout(() => this.giveUpOverdue(), Math.max(0, oldest.deadline - now)).unref();
  }

  private schedule(): void {
    if (this.inFlight < this.options.maxInFlight) this.nextTurn.request();
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight) {
      const batch = this.takeBatch();
      if (batch.length === 0) return;
      const merchants = new Set(batch.map((w) => w.instruction.merchantId));
      for (const merchant of merchants) this.busy.add(merchant);
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        for (const merchant of merchants) this.busy.delete(merchant);
        if (this.waiting.length > 0) this.schedule();
      });
    }
  }

  /** The next batch: waiting instructions of merchants with no statement in flight, oldest first. */
  private takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const left: Waiting[] = [];
    for (const w of this.waiting) {
      if (batch.length < this.options.maxBatch && !this.busy.has(w.instruction.merchantId)) batch.push(w);
      else left.push(w);
    }
    this.waiting = left;
    return batch;
  }

  private async run(batch: Waiting[]): Promise<void> {
    // Stable: instructions of one merchant keep their arrival order.
    const ordered = [...batch].sort((a, b) => a.instruction.merchantId - b.instruction.merchantId);
    try {
      const results = await acceptPayouts(
        this.db,
        ordered.map((w) => w.instruction),
      );
      const matched = matchResults(
        ordered.map((w) => w.instruction),
        results,
      );
      ordered.forEach((w, i) => {
        const result = matched[i];
        if (result) w.resolve(result);
        else w.reject(new Error(`accept_payouts returned no row for TransactionID ${w.instruction.transactionId}`));
      });
    } catch (error) {
      // A database that is away or timed out (statement or lock time-out) would fail each instruction alone
      // too, after as long again: answer them all now.
      if (ordered.length === 1 || isRetryableTransactionError(error) || isDatabaseUnavailable(error)) {
        for (const w of ordered) w.reject(error);
        return;
      }
      await Promise.all(ordered.map((w) => this.runAlone(w)));
    }
  }

  private async runAlone(w: Waiting): Promise<void> {
    try {
      const [result] = await acceptPayouts(this.db, [w.instruction]);
      if (result) w.resolve(result);
      else w.reject(new Error('accept_payouts returned no row'));
    } catch (error) {
      w.reject(error);
    }
  }
}

/**
 * Pairs each instruction with its own row of a batch's results by what the row is about, never by position,
 * so that rows coming back in another order can never hand one merchant's payout to another request. A row
 * for a payout the instruction recorded carries the instruction's own Ack_no; a row for a TransactionID
 * already taken (outcome `existing`, possibly by an earlier instruction of the same batch) is matched by
 * merchant and TransactionID, in order. An instruction with no row of its own gets undefined.
 */
export function matchResults(
  instructions: readonly PayoutInstructionRecord[],
  results: readonly AcceptResult[],
): (AcceptResult | undefined)[] {
  const key = (merchantId: number, transactionId: string) => `${merchantId}:${transactionId}`;
  const byAckNo = new Map<string, AcceptResult>();
  const existingByKey = new Map<string, AcceptResult[]>();
  for (const result of results) {
    if (result.outcome === 'existing') {
      const k = key(result.payout.merchantId, result.payout.transactionId);
      existingByKey.set(k, [...(existingByKey.get(k) ?? []), result]);
    } else {
      byAckNo.set(result.payout.ackNo, result);
    }
  }
  return instructions.map((instruction) => {
    const own = byAckNo.get(instruction.ackNo);
    const ownKey = key(instruction.merchantId, instruction.transactionId);
    if (own && key(own.payout.merchantId, own.payout.transactionId) === ownKey) return own;
    return existingByKey.get(ownKey)?.shift();
  });
}
