import { randomInt } from 'node:crypto';
import type { PayoutInstruction } from '@payout/rails';
import type { BankPayout } from './bank-payout.js';
import { scenarioFor, UNAVAILABLE_SUBMITS, type Garbage } from './magic-values.js';
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
  /** References paid whose money came back (REVERSED); each at most once. */
  reversals: number;
}

/** How the reply to an accepted submit travels: as it is, held back (lost), or garbled. */
export type ReplyManner = 'normal' | 'lose' | Garbage;

export type SubmitOutcome =
  | { kind: 'accepted'; payout: BankPayout; duplicate: boolean; reply: ReplyManner }
  | { kind: 'unavailable' }
  | { kind: 'conflict'; payout: BankPayout }
  /** A known reference submitted again to a strict bank (or a `.88` one): 400 DUPLICATE_REFERENCE. */
  | { kind: 'duplicate-refused'; payout: BankPayout };

/** How a strict bank and a lenient one treat a reference they already hold, submitted again. */
export type DuplicateManner = 'echo' | 'refuse';

export interface BankLedgerOptions {
  settleAfterMs: number;
  /** `.66`: how long a deemed-successful payout stays PENDING. */
  deemedSuccessMs?: number;
  /** `.99`: how long after its payment the money comes back. */
  reverseAfterMs?: number;
  /** `.88`: how long the status API says NOT_FOUND after the payment. */
  statusLagMs?: number;
  /** Default `echo`: a repeated submit answers the reference's current state. */
  duplicates?: DuplicateManner;
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
  #reversals = 0;

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
      if (this.options.duplicates === 'refuse' || seen.refuseDuplicates) {
        return { kind: 'duplicate-refused', payout: { ...seen } };
      }
      return { kind: 'accepted', payout: { ...seen }, duplicate: true, reply: 'normal' };
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
      case 'deemed-success':
        payout.status = 'PENDING';
        payout.settleAt = now + (this.options.deemedSuccessMs ?? 300_000);
        break;
      case 'lost-reply-lagging-status':
        payout.utr = this.#newUtr();
        payout.visibleAt = now + (this.options.statusLagMs ?? 30_000);
        payout.refuseDuplicates = true;
        break;
      case 'pay-then-reverse':
        payout.utr = this.#newUtr();
        payout.reverseAt = now + (this.options.reverseAfterMs ?? 60_000);
        break;
      default:
        payout.utr = this.#newUtr();
    }
    this.#commit(payout);
    this.#refusedSubmits.delete(instruction.reference);
    return { kind: 'accepted', payout: { ...payout }, duplicate: false, reply: replyManner(scenario) };
  }

  /** The bank's current word on a reference; asking is what lets a due `.22`, `.66` or `.99` payout move. */
  lookup(reference: string, now = Date.now()): BankPayout | undefined {
    const existing = this.#payouts.get(reference);
    if (!existing) return undefined;
    const current = this.#settleIfDue(existing, now);
    if (current !== existing) this.#commit(current);
    return { ...current };
  }

  /** What the status API shows: the bank's word, except while it lags behind a `.88` payment. */
  statusOf(reference: string, now = Date.now()): BankPayout | undefined {
    const payout = this.lookup(reference, now);
    if (payout?.visibleAt !== undefined && now < payout.visibleAt) return undefined;
    return payout;
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
      reversals: this.#reversals,
    };
  }

  #settleIfDue(payout: BankPayout, now: number): BankPayout {
    if (payout.status === 'SUCCESS' && payout.reverseAt !== undefined && now >= payout.reverseAt) {
      const { reverseAt, ...rest } = payout;
      return { ...rest, status: 'REVERSED', reversedAt: reverseAt };
    }
    if (payout.status !== 'PENDING' || payout.settleAt === undefined || now < payout.settleAt) return payout;
    const { settleAt, ...rest } = payout;
    return { ...rest, status: 'SUCCESS', utr: this.#newUtr(), paidAt: settleAt };
  }

  #commit(payout: BankPayout): void {
    this.options.journal?.append(payout);
    this.#apply(payout);
  }

  #apply(payout: BankPayout): void {
    const before = this.#payouts.get(payout.reference);
    // A reversed payout was paid first: replaying a journal whose last line is REVERSED counts both.
    if (!paid(before?.status) && paid(payout.status)) this.#payments++;
    if (before?.status !== 'REVERSED' && payout.status === 'REVERSED') this.#reversals++;
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

function paid(status: BankPayout['status'] | undefined): boolean {
  return status === 'SUCCESS' || status === 'REVERSED';
}

function replyManner(scenario: ReturnType<typeof scenarioFor>): ReplyManner {
  switch (scenario.kind) {
    case 'pay-but-lose-reply':
    case 'fail-but-lose-reply':
    case 'lost-reply-lagging-status':
      return 'lose';
    case 'pay-but-garble-reply':
      return scenario.garbage;
    default:
      return 'normal';
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
