import { randomInt } from 'node:crypto';
import type { PayoutInstruction } from '@payout/rails';
import type { BankPayout } from './bank-payout.js';
import { scenarioFor, UNAVAILABLE_SUBMITS } from './magic-values.js';
import type { StateJournal } from './state-journal.js';

export interface BankStats {
  /** References the bank has accepted. */
  references: number;
  /** References whose money moved (SUCCESS); each pays at most once. */
  payments: number;
  /** Every well-formed submit request, refused and repeated ones included. */
  submitRequests: number;
  /** Submits of a reference already accepted with the same details. */
  duplicateSubmits: number;
}

export type SubmitOutcome =
  | { kind: 'accepted'; payout: BankPayout; duplicate: boolean; loseReply: boolean }
  | { kind: 'unavailable' }
  | { kind: 'conflict'; payout: BankPayout };

export interface BankLedgerOptions {
  settleAfterMs: number;
  journal?: StateJournal;
}

/**
 * The simulated bank's book of references. Every method is synchronous, so two concurrent submits of one
 * reference can never both pay. A change is journalled before it is applied in memory, so what the bank
 * answers is always already on disk, and a failed write leaves nothing half-done.
 */
export class BankLedger {
  readonly #payouts = new Map<string, BankPayout>();
  readonly #utrs = new Set<string>();
  readonly #refusedSubmits = new Map<string, number>();
  #payments = 0;
  #submitRequests = 0;
  #duplicateSubmits = 0;

  constructor(private readonly options: BankLedgerOptions) {
    for (const payout of options.journal?.replay() ?? []) this.#apply(payout);
  }

  submit(instruction: PayoutInstruction, now = Date.now()): SubmitOutcome {
    this.#submitRequests++;
    const existing = this.#payouts.get(instruction.reference);
    if (existing) {
      const seen = this.#settleIfDue({ ...existing, submissions: existing.submissions + 1 }, now);
      this.#commit(seen);
      if (!sameDestination(existing, instruction)) return { kind: 'conflict', payout: { ...seen } };
      this.#duplicateSubmits++;
      return { kind: 'accepted', payout: { ...seen }, duplicate: true, loseReply: false };
    }

    const scenario = scenarioFor(instruction);
    const refused = this.#refusedSubmits.get(instruction.reference) ?? 0;
    if (scenario.kind === 'unavailable-twice' && refused < UNAVAILABLE_SUBMITS) {
      this.#refusedSubmits.set(instruction.reference, refused + 1);
      return { kind: 'unavailable' };
    }

    const payout: BankPayout = { ...instruction, status: 'SUCCESS', acceptedAt: now, submissions: refused + 1 };
    switch (scenario.kind) {
      case 'fail':
      case 'fail-but-lose-reply':
        payout.status = 'FAILED';
        payout.reason = scenario.reason;
        break;
      case 'settle-later':
        payout.status = 'PENDING';
        payout.settleAt = now + this.options.settleAfterMs;
        break;
      case 'pending-forever':
        payout.status = 'PENDING';
        break;
      default:
        payout.utr = this.#newUtr();
    }
    this.#commit(payout);
    this.#refusedSubmits.delete(instruction.reference);
    return {
      kind: 'accepted',
      payout: { ...payout },
      duplicate: false,
      loseReply: scenario.kind === 'pay-but-lose-reply' || scenario.kind === 'fail-but-lose-reply',
    };
  }

  /** The bank's current word on a reference; asking is what lets a due `.22` payout settle. */
  lookup(reference: string, now = Date.now()): BankPayout | undefined {
    const existing = this.#payouts.get(reference);
    if (!existing) return undefined;
    const current = this.#settleIfDue(existing, now);
    if (current !== existing) this.#commit(current);
    return { ...current };
  }

  all(): BankPayout[] {
    return [...this.#payouts.values()].map((payout) => ({ ...payout }));
  }

  stats(): BankStats {
    return {
      references: this.#payouts.size,
      payments: this.#payments,
      submitRequests: this.#submitRequests,
      duplicateSubmits: this.#duplicateSubmits,
    };
  }

  #settleIfDue(payout: BankPayout, now: number): BankPayout {
    if (payout.status !== 'PENDING' || payout.settleAt === undefined || now < payout.settleAt) return payout;
    const { settleAt: _settled, ...rest } = payout;
    return { ...rest, status: 'SUCCESS', utr: this.#newUtr() };
  }

  #commit(payout: BankPayout): void {
    this.options.journal?.append(payout);
    this.#apply(payout);
  }

  #apply(payout: BankPayout): void {
    const before = this.#payouts.get(payout.reference);
    if (before?.status !== 'SUCCESS' && payout.status === 'SUCCESS') this.#payments++;
    if (payout.utr !== undefined) this.#utrs.add(payout.utr);
    this.#payouts.set(payout.reference, payout);
  }

  // Random rather than a counter, so UTRs from a restarted simulator without a state file do not repeat
  // the last run's; the set keeps them unique within one ledger.
  #newUtr(): string {
    for (;;) {
      const utr = randomInt(0, 1e12).toString().padStart(12, '0');
      if (!this.#utrs.has(utr)) return utr;
    }
  }
}

function sameDestination(payout: BankPayout, instruction: PayoutInstruction): boolean {
  return (
    payout.mode === instruction.mode &&
    payout.amountPaise === instruction.amountPaise &&
    payout.account === instruction.account &&
    payout.ifsc === instruction.ifsc
  );
}
