import {
  claimPayoutForBank,
  claimPayoutsForBank,
  StatementCoalescer,
  type BankClaim,
  type BankClaimRequest,
  type CoalescingLimits,
  type PrismaClient,
} from '@payout/db';
import { inOneStatementOrEachAlone } from './coalescing-settler.js';

/** How a driver claims a payout for a bank: one statement each, or through a {@link CoalescingClaimer}. */
export type ClaimForBank = (request: BankClaimRequest) => Promise<BankClaim>;

/**
 * Coalesces the claims of the jobs a worker starts at once into few statements, as the
 * {@link CoalescingSettler} does their settlements: alone, a claim goes at once; with many jobs starting
 * together, one round trip and one commit claim many payouts (docs/performance.md, "The worker's
 * statements"). Each claim keeps its own rules — `claim_payout_for_bank` under the payout's row lock — and
 * `claimPayoutsForBank` takes a batch's payouts in id order, so two batches cannot deadlock.
 */
export class CoalescingClaimer {
  private readonly coalescer: StatementCoalescer<BankClaimRequest, BankClaim>;

  constructor(db: PrismaClient, limits: CoalescingLimits) {
    this.coalescer = new StatementCoalescer(limits, (batch) =>
      inOneStatementOrEachAlone(
        batch,
        (requests) => claimPayoutsForBank(db, requests),
        ({ payoutId, ...claim }) => claimPayoutForBank(db, payoutId, claim),
      ),
    );
  }

  readonly claim: ClaimForBank = (request) => this.coalescer.submit(request);
}
