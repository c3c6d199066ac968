import type { ApprovalRequestView, PrismaClient, Transaction } from '@payout/db';
import type { ApprovalAction } from '@payout/domain';
import type { PayoutProducer } from '@payout/queue';
import type { PayoutRails } from '../payout-bank.js';
import type { SecondFactorSettings } from '../people/second-factor.js';
import type { Person } from './person.js';

/** What every approval door hands the use cases. */
export interface ApprovalDeps {
  db: PrismaClient;
  /** The banks, each asked (status only) about its own payouts when a manual resolution is requested and approved. */
  rails?: PayoutRails;
  /**
   * Queues the jobs of payouts an approval accepted (an operator's bulk batch), once its transaction has
   * committed. Without it, or if Redis does not take them, the sweeper queues them (apps/worker/src/sweeper.ts).
   */
  producer?: PayoutProducer;
  approvals: ApprovalSettings;
}

export interface ApprovalSettings {
  /** How long a request waits for a decision. */
  ttlMs: number;
  /** Development only (config refuses it elsewhere): a maker may approve their own request. */
  selfApproval: boolean;
  /** Approving asks for the approver's second factor (docs/operations.md, "Second factor"). */
  secondFactor: SecondFactorSettings;
}

/** A money action, checked and described, ready to be stored as a request. */
export interface PlannedRequest {
  action: ApprovalAction;
  merchantId: number | null;
  payoutId?: bigint | null;
  /** What runs on approval. */
  params: Record<string, unknown>;
  /** What the approver is shown: amounts, payouts, balances before and after. */
  preview: Record<string, unknown>;
}

/** Where a request runs: the approver's transaction, with who asked and who approved. */
export interface ExecutionContext {
  tx: Transaction;
  request: ApprovalRequestView;
  approver: Person;
  /** For an action that accepts payouts: what queues their jobs after the commit (see {@link ApprovalDeps}). */
  producer?: PayoutProducer;
}

export type Execution =
  | {
      kind: 'executed';
      /** Stored on the request and shown to both people: what running it did. Never a secret of anyone's. */
      outcome: Record<string, unknown>;
      /**
       * Runs once the approver's transaction has committed, never inside it (queuing the jobs of the payouts
       * it accepted: a job must not reach the worker before its payout is visible). Its failure changes
       * nothing that committed; what it leaves undone is the sweeper's.
       */
      afterCommit?: () => Promise<void>;
    }
  /** The world is no longer as the request said: nothing ran. */
  | { kind: 'refused'; why: string };

/**
 * One kind of money action as the approval flow runs it. `prepare` does what must not happen inside a
 * transaction (asking the rail); `execute` re-checks the request's preconditions and acts, inside the
 * approver's transaction, writing its own audit entry there.
 */
export interface MoneyAction<Prepared = undefined> {
  action: ApprovalAction;
  prepare?(deps: ApprovalDeps, request: ApprovalRequestView): Promise<Prepared>;
  execute(context: ExecutionContext, prepared: Prepared): Promise<Execution>;
}
