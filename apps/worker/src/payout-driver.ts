import { UnrecoverableError } from 'bullmq';
import {
  bankExchanges,
  claimPayoutForBank,
  expireHeldPayouts,
  findPayoutForWork,
  firstRefusalAtBank,
  postponeNextCheck,
  recordDiscrepancy,
  reversePayout,
  failureOf,
  settlePayout,
  successOf,
  transitionPayout,
  type PayoutDiscrepancyKind,
  type PayoutForWork,
  type PrismaClient,
  type SettlementResult,
  type TransitionNote,
} from '@payout/db';
import {
  bankStep,
  describeRouting,
  inquiryDelayMs,
  isTerminal,
  needsExchanges,
  nextStep,
  type BankExchange,
  type BankName,
  type BankStep,
  type Circumstances,
  type InquirySchedules,
  type PayoutState,
} from '@payout/domain';
import type { PayoutInstruction, RailAdapter, RailAnswer } from '@payout/rails';
import { maskAccount, type Logger, type ServiceMetrics } from '@payout/telemetry';
import { oneBank, sendingNote, type DriverBanks } from './banks/driver-banks.js';
import type { ClaimForBank } from './coalescing-claimer.js';
import type { Settle } from './coalescing-settler.js';
import type { InquiryScheduler } from './inquiry-scheduler.js';
import { RunAgainLater } from './jobs/run-again-later.js';

export interface PayoutDriverOptions {
  db: PrismaClient;
  /** The banks: each one's rail and routing among them (docs/banks.md). */
  banks?: DriverBanks;
  /** Or one rail: a driver built by hand for one bank, routing as a one-bank deployment does. */
  rail?: RailAdapter;
  /** How often a payout held for want of a bank looks for one again. */
  holdRetryMs?: number;
  inquiries: InquiryScheduler;
  logger: Logger;
  /** Recorded as the actor of every event this driver writes. */
  actor: string;
  /** When, how often and how many times each mode's payouts may be asked about. */
  schedules: InquirySchedules;
  /** After this long since acceptance an undecided payout goes to manual review. */
  deadlineMs: number;
  /** A NOT_FOUND is believed only this long after the rail refused the payout's submit. */
  notFoundTrustedAfterMs: number;
  /** How long a submit or an inquiry may take, rail time-out included: the payout's next check is after it. */
  railWindowMs: number;
  metrics?: ServiceMetrics;
  /** How settlements are made: through the worker's CoalescingSettler, or (by default) one statement each. */
  settle?: Settle;
  /** How an accepted payout is claimed for its bank: through the worker's CoalescingClaimer, or (by default) one statement each. */
  claim?: ClaimForBank;
  /** Called after this driver settled or reversed a payout, with the webhook delivery it recorded (if any). */
  onSettled?: (payoutId: bigint, webhookDeliveryId: bigint | null) => void;
  now?: () => number;
}

/** Who asked the rail: the answer to a submit acts only on a payout still being submitted. */
interface Asked {
  by: 'submit' | 'inquiry';
  /** For the event log: "submit 2", "inquiry 3". */
  label: string;
}

const SUBMITTING_ONLY: PayoutState[] = ['SUBMITTING'];
const DEFAULT_HOLD_RETRY_MS = 5_000;
/**
 * The shortest wait for a scheduled payout's time: the claim compares with the database's clock, so a worker
 * whose clock runs ahead of it looks again shortly rather than at once.
 */
const SCHEDULE_RECHECK_MS = 1_000;

const MOVE_BECAUSE = {
  'refused-before-acceptance': 'refused the only submit it was sent',
  'not-found-long-after-submit': 'has no record of it long after the last submit',
} as const;

/**
 * Drives a payout from ACCEPTED to SUCCESS or FAILED (and a paid one to REVERSED if the rail says it came
 * back). Every step starts from what PostgreSQL says and changes it with a guarded statement, so a job
 * delivered twice, or run by two workers at once, finds nothing to do the second time; and the rail is only
 * ever sent the payout's own Ack_no, so sending it again never pays twice. What the rail says is believed
 * only when it is its definite word (domain's nextStep), and a word that contradicts a settled payout is
 * recorded as a discrepancy for an operator, never dropped (docs/bank-boundary.md).
 */
export class PayoutDriver {
  private readonly now: () => number;
  private readonly settle: Settle;
  private readonly claim: ClaimForBank;
  private readonly banks: DriverBanks;
  private readonly holdRetryMs: number;

  constructor(private readonly options: PayoutDriverOptions) {
    this.now = options.now ?? Date.now;
    this.settle = options.settle ?? ((request) => settlePayout(options.db, request));
    this.claim = options.claim ?? (({ payoutId, ...claim }) => claimPayoutForBank(options.db, payoutId, claim));
    if (options.banks) this.banks = options.banks;
    else if (options.rail) this.banks = oneBank(options.rail);
    else throw new Error('a payout driver needs its banks (or one rail)');
    this.holdRetryMs = options.holdRetryMs ?? DEFAULT_HOLD_RETRY_MS;
  }

  /**
   * The execute job: route an accepted payout to a bank and claim it, send it, act on the answer. Routing is
   * decided from the worker's cached view of the banks and recorded by the claim itself, which comes first
   * and returns the payout as it stands, so the common case — an ACCEPTED payout — takes one statement before
   * the bank, not a read and then a claim. When no bank serves its mode, the payout is held, reserved and
   * unsent, and looks again shortly; past its merchant's hold window it fails with BANK_DOWNTIME
   * (docs/banks.md, "Holding"). A payout scheduled for later is refused by the claim, and the job waits until
   * its time (docs/api.md, "Scheduling a payout").
   */
  async execute(payoutId: bigint): Promise<string> {
    await this.banks.ready;
    const now = this.now();
    const claim = await this.claim({
      payoutId,
      onlyFrom: ['ACCEPTED'],
      nextCheckAt: this.checkAfterRailCall(),
      routes: this.banks.routes(new Date(now)),
      // Looked at again by this job after the hold delay; the sweeper's grace covers a lost job.
      holdNextCheckAt: new Date(now + this.holdRetryMs),
      actor: this.options.actor,
    });
    const payout = claim.payout;
    if (!payout) throw new UnrecoverableError(`payout ${payoutId} does not exist`);
    if (claim.moved) return this.submit(payout);
    if (claim.held) {
      if (claim.holdExpired) return this.expireHold(payout);
      this.options.logger.debug({ ackNo: payout.ackNo, mode: payout.mode }, 'payout held: no bank serves its mode');
      throw new RunAgainLater(this.holdRetryMs, `held: no bank serves ${payout.mode}`);
    }
    if (payout.state === 'ACCEPTED' && claim.scheduledAt) {
      // Neither claimed nor held: its time is still ahead by the database's clock. The job waits for it; the
      // sweeper finds the payout by its next check, the same time, should the job be lost.
      const waitMs = Math.max(claim.scheduledAt.getTime() - now, SCHEDULE_RECHECK_MS);
      throw new RunAgainLater(waitMs, `scheduled for ${claim.scheduledAt.toISOString()}`);
    }
    if (isTerminal(payout.state)) return `already ${payout.state}`;
    // Another worker has it (or had it and died): the inquiry due at next_check_at finds out what happened.
    await this.options.inquiries.scheduleInquiry(payout.id, payout.inquiryAttempts + 1, this.msUntilCheck(payout));
    return `already ${payout.state}; inquiry ${payout.inquiryAttempts + 1} scheduled`;
  }

  /** Inquiry number `attempt`: ask the rail what became of an undecided payout, and act on the answer. */
  async inquire(payoutId: bigint, attempt: number): Promise<string> {
    await this.banks.ready;
    const payout = await this.load(payoutId);
    if (isTerminal(payout.state) || payout.state === 'MANUAL_REVIEW') return `nothing to ask: ${payout.state}`;
    if (payout.state === 'ACCEPTED') return 'not sent yet: the execute job sends it';
    if (payout.inquiryAttempts !== attempt - 1) return `inquiry ${attempt} is stale (${payout.inquiryAttempts} made)`;
    const { maxChecks, firstDelayMs } = this.options.schedules[payout.mode];
    const bank = this.bankOf(payout);
    if (!this.banks.callable(bank)) {
      // Paused by an operator: no call to it at all. The check waits without being used up, and without a
      // step of its own; its next_check_at moves so the sweeper does not take it for lost.
      await postponeNextCheck(this.options.db, payout, new Date(this.now() + firstDelayMs));
      throw new RunAgainLater(firstDelayMs, `bank ${bank} is paused`);
    }
    if (attempt > maxChecks) {
      // Only a lost step can get here (the last check's answer hands the payout over itself).
      return this.handOver(payout, `all ${maxChecks} status checks the ${payout.mode} rules allow are made`, {
        by: 'inquiry',
        label: `inquiry ${attempt}`,
      });
    }

    // Claiming the inquiry number makes a duplicate delivery of this job a no-op.
    const claim = await transitionPayout(
      this.options.db,
      payout.id,
      payout.state,
      { claimInquiry: attempt, nextCheckAt: this.checkAfterRailCall() },
      this.note(`asking the rail (inquiry ${attempt} of at most ${maxChecks})`, payout.submitAttempts),
    );
    if (!claim.moved) return `inquiry ${attempt} claimed elsewhere`;
    const answer = await this.banks.rail(bank).status(payout.ackNo);
    return this.apply({ ...payout, inquiryAttempts: attempt }, answer, { by: 'inquiry', label: `inquiry ${attempt}` });
  }

  private async submit(payout: PayoutForWork): Promise<string> {
    const bank = this.bankOf(payout);
    this.options.logger.info(
      {
        ackNo: payout.ackNo,
        mode: payout.mode,
        bank,
        account: maskAccount(payout.account),
        attempt: payout.submitAttempts,
      },
      'submitting payout to the rail',
    );
    const answer = await this.banks.rail(bank).submit(instructionOf(payout));
    return this.apply(payout, answer, { by: 'submit', label: `submit ${payout.submitAttempts}` });
  }

  /**
   * Acts on what the rail said: settle, reverse, wait and ask again, send again, move to another bank (only
   * after the bank's definitive no, and only if it no longer serves: docs/banks.md, "Never two banks"), or
   * hand over to a person.
   */
  private async apply(payout: PayoutForWork, answer: RailAnswer, asked: Asked): Promise<string> {
    const bank = this.bankOf(payout);
    let serving = this.banks.serving(bank, payout.mode);
    const circumstances = await this.circumstances(payout, answer);
    let step: BankStep;
    let pinnedBank: BankName | null = null;
    // The rare path decides whether a payout may leave its bank, so routing's word is read afresh rather
    // than from a view up to ROUTING_REFRESH_MS old: a bank just back (whose caught payouts are being asked
    // about now) must not be taken for one that no longer serves.
    if (needsExchanges(answer, { serving })) serving = await this.banks.servingNow(bank, payout.mode);
    if (needsExchanges(answer, { serving })) {
      // The rare path: a refusal or a NOT_FOUND from a bank routing has left. Its exchanges decide.
      const read = await bankExchanges(this.options.db, payout.id);
      pinnedBank = read.pinnedBank;
      const exchanges: BankExchange[] = [
        ...read.exchanges,
        { kind: 'answer', outcome: answer.outcome, at: this.now() },
      ];
      step = bankStep(answer, circumstances, { serving, exchanges }, this.options.notFoundTrustedAfterMs);
    } else {
      step = nextStep(answer, circumstances);
    }
    if (step.kind === 'move-to-another-bank') {
      const moved = await this.moveToAnotherBank(payout, answer, asked, step.because, pinnedBank);
      if (moved !== null) return moved;
      // No other bank takes it now: the rule book of one bank decides, as if there were no other.
      step = nextStep(answer, circumstances);
    }
    if (step.kind === 'resubmit' && !this.banks.callable(bank))
      step = { kind: 'inquire-later', state: 'OUTCOME_UNKNOWN' };
    const attempt = payout.submitAttempts;
    // The answer to a submit settles only a payout still being submitted: if an inquiry (a sweeper's, while
    // this submit was slow) or an operator has moved it on, their word stands and this answer is only
    // compared with it.
    const onlyFrom = asked.by === 'submit' ? SUBMITTING_ONLY : undefined;
    const log = { ackNo: payout.ackNo, asked: asked.label, outcome: answer.outcome };

    switch (step.kind) {
      case 'settle-success': {
        const note = this.note(`rail: SUCCESS (${asked.label})`, attempt, answer);
        const result = await this.settle(successOf(payout.id, step.bankReference, note, { onlyFrom }));
        this.options.logger.info({ ...log, settled: result.moved }, 'payout settled SUCCESS');
        if (result.moved) return this.settled(payout, 'SUCCESS', result);
        return this.compare(payout, result, answer, asked);
      }
      case 'settle-failure': {
        const note = this.note(`rail: FAILED ${step.reason} (${asked.label})`, attempt, answer);
        const result = await this.settle(failureOf(payout.id, step.reason, note, { onlyFrom }));
        this.options.logger.info({ ...log, reason: step.reason, settled: result.moved }, 'payout settled FAILED');
        if (result.moved) return this.settled(payout, 'FAILED', result, step.reason);
        return this.compare(payout, result, answer, asked);
      }
      case 'reverse':
        return this.reverse(payout, step.bankReference, answer, asked);
      case 'inquire-later':
      case 'ask-when-trusted': {
        const check = payout.inquiryAttempts + 1;
        // After a submit (a resubmit included) the schedule starts again from the mode's first delay; after a
        // status check, its spacing (domain's inquiryDelayMs, docs/bank-boundary.md). A NOT_FOUND from a bank
        // routing has left is asked again once it can be believed (docs/banks.md, "Never two banks").
        const after = asked.by === 'submit' ? 'submit' : 'status-check';
        const schedule = this.options.schedules[payout.mode];
        const delay =
          step.kind === 'ask-when-trusted' ? Math.max(0, step.at - this.now()) + 1 : inquiryDelayMs(after, schedule);
        const state = step.kind === 'ask-when-trusted' ? 'OUTCOME_UNKNOWN' : step.state;
        const why =
          step.kind === 'ask-when-trusted'
            ? `; bank ${bank} no longer serves ${payout.mode} and its NOT_FOUND is believed only ${this.options.notFoundTrustedAfterMs} ms after the last submit`
            : '';
        const moved = await transitionPayout(
          this.options.db,
          payout.id,
          state,
          { nextCheckAt: new Date(this.now() + delay), onlyFrom },
          this.note(
            `rail: ${describeRailAnswer(answer)} (${asked.label})${why}; status check ${check} in ${delay} ms`,
            attempt,
            answer,
          ),
        );
        if (!moved.moved) return `moved elsewhere (was ${moved.from})`;
        await this.options.inquiries.scheduleInquiry(payout.id, check, delay);
        this.options.logger.info({ ...log, inquiry: check, delay }, 'payout undecided: inquiry scheduled');
        return `${state}; inquiry ${check} scheduled`;
      }
      case 'manual-review':
        return this.handOver(
          payout,
          step.why === 'deadline'
            ? `still undecided after the ${Math.round(this.options.deadlineMs / 1000)} s deadline (${asked.label}: ${describeRailAnswer(answer)})`
            : `still undecided after all ${this.options.schedules[payout.mode].maxChecks} status checks the ${payout.mode} rules allow (${asked.label}: ${describeRailAnswer(answer)})`,
          asked,
          answer,
        );
      case 'resubmit': {
        if (asked.by === 'submit') throw new Error('unexpected NOT_FOUND in answer to a submit');
        const resubmit = await transitionPayout(
          this.options.db,
          payout.id,
          'SUBMITTING',
          { incrementSubmitAttempts: true, nextCheckAt: this.checkAfterRailCall() },
          this.note(
            'the rail has no record of the instruction: sending it again under the same reference',
            attempt + 1,
            answer,
          ),
        );
        if (!resubmit.moved) return 'resubmission claimed elsewhere';
        return this.submit({ ...payout, state: 'SUBMITTING', submitAttempts: attempt + 1 });
      }
    }
  }

  /**
   * The bank said definitively it did not pay the payout and routing has left it: the payout goes to another
   * bank under the same reference — its bank's answer recorded first, then the claim that records the new bank
   * and the decision (reason failover). Null when no other bank takes it now (a pinned merchant's payout never
   * moves; with every other bank down it stays): the caller then goes on as with one bank.
   */
  private async moveToAnotherBank(
    payout: PayoutForWork,
    answer: RailAnswer,
    asked: Asked,
    because: keyof typeof MOVE_BECAUSE,
    pinnedBank: BankName | null,
  ): Promise<string | null> {
    const from = this.bankOf(payout);
    const routing = this.banks.failover(payout.mode, from, pinnedBank, new Date(this.now()));
    if (routing.kind === 'hold') return null;
    const onlyFrom = asked.by === 'submit' ? SUBMITTING_ONLY : [payout.state];
    const said = await transitionPayout(
      this.options.db,
      payout.id,
      'OUTCOME_UNKNOWN',
      { nextCheckAt: this.checkAfterRailCall(), onlyFrom },
      this.note(
        `rail: ${describeRailAnswer(answer)} (${asked.label}); bank ${from} ${MOVE_BECAUSE[because]} and no longer serves ${payout.mode}: moving it to another bank`,
        payout.submitAttempts,
        answer,
      ),
    );
    if (!said.moved) return `moved elsewhere (was ${said.from})`;
    const decision = routing.decision;
    const claim = await claimPayoutForBank(this.options.db, payout.id, {
      onlyFrom: ['OUTCOME_UNKNOWN'],
      nextCheckAt: this.checkAfterRailCall(),
      routes: { routes: { [payout.mode]: { decision, reason: sendingNote(decision) } }, pinned: null },
      holdNextCheckAt: this.checkAfterRailCall(),
      actor: this.options.actor,
    });
    if (!claim.moved || !claim.payout) return `move claimed elsewhere (was ${claim.from})`;
    this.options.logger.warn(
      { ackNo: payout.ackNo, from, to: decision.bank, because, asked: asked.label },
      `payout moved to another bank: ${describeRouting(decision)}`,
    );
    return this.submit(claim.payout);
  }

  /** A held payout past its merchant's hold window: failed with BANK_DOWNTIME, its reservation released. */
  private async expireHold(payout: PayoutForWork): Promise<string> {
    const [expired] = await expireHeldPayouts(this.options.db, { payoutId: payout.id, actor: this.options.actor });
    if (!expired) return 'hold expiry made elsewhere';
    this.options.logger.warn({ ackNo: payout.ackNo, mode: payout.mode }, 'held payout failed: bank downtime');
    return this.settled(
      payout,
      'FAILED',
      { moved: true, from: 'ACCEPTED', webhookDeliveryId: expired.webhookDeliveryId },
      'BANK_DOWNTIME',
    );
  }

  /**
   * The rail says a payout it paid came back. One we had not settled yet is settled SUCCESS first — the
   * payment did happen — so the ledger shows the money leaving and returning; then the reversal returns it
   * to the main wallet, once.
   */
  private async reverse(
    payout: PayoutForWork,
    bankReference: string,
    answer: RailAnswer,
    asked: Asked,
  ): Promise<string> {
    const note = this.note(`rail: REVERSED (${asked.label})`, payout.submitAttempts, answer);
    const paid = await this.settle(
      successOf(payout.id, bankReference, note, { onlyFrom: asked.by === 'submit' ? SUBMITTING_ONLY : undefined }),
    );
    if (paid.moved) this.settled(payout, 'SUCCESS', paid);
    const result = await reversePayout(this.options.db, payout.id, { source: 'rail', bankReference, note });
    this.options.logger.info(
      { ackNo: payout.ackNo, asked: asked.label, outcome: 'REVERSED', reversed: result.moved },
      'payout reversed: the amount is back in the main wallet',
    );
    if (result.moved) {
      this.options.metrics?.payoutsSettled.inc({ mode: payout.mode, outcome: 'REVERSED' });
      this.options.onSettled?.(payout.id, result.webhookDeliveryId);
      return 'REVERSED';
    }
    return this.compare(payout, result, answer, asked);
  }

  /**
   * The rail's word did not move the payout: someone settled it first, or it moved on. Agreement is fine;
   * a contradiction of a settled payout is recorded as a discrepancy — an error log, a metric, and a row an
   * operator resolves through the ledger (`pnpm cli discrepancy …`) — and never dropped.
   */
  private async compare(
    payout: PayoutForWork,
    result: SettlementResult,
    answer: RailAnswer,
    asked: Asked,
  ): Promise<string> {
    const here = result.from;
    const kind = contradiction(answer, here);
    if (kind) {
      const recorded = await recordDiscrepancy(this.options.db, {
        payoutId: payout.id,
        kind,
        source: 'rail',
        railAnswer: answer,
        note: `${asked.label}: the rail said ${answer.outcome} of a payout that is ${here} here`,
      });
      this.options.metrics?.railDiscrepancies.inc({ kind });
      this.options.logger.error(
        {
          ackNo: payout.ackNo,
          asked: asked.label,
          rail: answer.outcome,
          here,
          kind,
          discrepancy: recorded.id.toString(),
        },
        'the rail contradicts a settled payout: discrepancy recorded for an operator',
      );
      return `discrepancy ${kind} (${here} here)`;
    }
    if (here !== null && !isTerminal(here)) {
      // A late submit answer for a payout an inquiry has taken over: that inquiry asks the rail itself.
      this.options.logger.info(
        { ackNo: payout.ackNo, asked: asked.label, here },
        'rail answer for a payout that moved on',
      );
      return `moved on (${here}); left to its inquiry`;
    }
    return `already settled (${here})`;
  }

  /** Hands an undecided payout to the statement or an operator: MANUAL_REVIEW, still PENDING outside. */
  private async handOver(payout: PayoutForWork, why: string, asked: Asked, answer?: RailAnswer): Promise<string> {
    const moved = await transitionPayout(
      this.options.db,
      payout.id,
      'MANUAL_REVIEW',
      { nextCheckAt: null, onlyFrom: asked.by === 'submit' ? SUBMITTING_ONLY : undefined },
      this.note(`${why}; the daily statement or an operator must resolve it`, payout.submitAttempts, answer),
    );
    this.options.logger.warn({ ackNo: payout.ackNo, asked: asked.label, why }, 'payout flagged for manual review');
    return moved.moved ? 'MANUAL_REVIEW' : `moved elsewhere (was ${moved.from})`;
  }

  private settled(
    payout: PayoutForWork,
    outcome: 'SUCCESS' | 'FAILED',
    result: SettlementResult,
    reason?: string,
  ): string {
    const labels = { mode: payout.mode, outcome };
    this.options.metrics?.payoutsSettled.inc(labels);
    this.options.metrics?.acceptToSettle.observe(labels, (this.now() - payout.createdAt.getTime()) / 1000);
    this.options.onSettled?.(payout.id, result.webhookDeliveryId);
    return reason ? `${outcome} ${reason}` : outcome;
  }

  /** What besides the answer the rule book needs. The refusal is looked up only for a NOT_FOUND. */
  private async circumstances(payout: PayoutForWork, answer: RailAnswer): Promise<Circumstances> {
    let refused: Circumstances['refused'] = 'never';
    if (answer.outcome === 'NOT_FOUND') {
      // Only the refusals of the bank it is with: another bank's refusal says nothing of what this one holds.
      const at = await firstRefusalAtBank(this.options.db, payout.id);
      if (at) refused = this.now() - at.getTime() >= this.options.notFoundTrustedAfterMs ? 'long-ago' : 'recently';
    }
    return {
      deadlinePassed: this.now() - payout.createdAt.getTime() > this.options.deadlineMs,
      checksLeft: this.options.schedules[payout.mode].maxChecks - payout.inquiryAttempts,
      refused,
    };
  }

  private async load(payoutId: bigint): Promise<PayoutForWork> {
    const payout = await findPayoutForWork(this.options.db, payoutId);
    if (!payout) throw new UnrecoverableError(`payout ${payoutId} does not exist`);
    return payout;
  }

  /** The bank a payout is with; one sent before payouts recorded their bank went to the first configured. */
  private bankOf(payout: PayoutForWork): BankName {
    return payout.bank ?? this.banks.defaultBank;
  }

  private note(reason: string, attempt: number, answer?: RailAnswer): TransitionNote {
    return { reason, actor: this.options.actor, attempt, railAnswer: answer };
  }

  private checkAfterRailCall(): Date {
    return new Date(this.now() + this.options.railWindowMs);
  }

  private msUntilCheck(payout: PayoutForWork): number {
    return Math.max(0, (payout.nextCheckAt?.getTime() ?? this.now()) - this.now());
  }
}

/** Which discrepancy the rail's word makes with the payout's state here, if any. */
function contradiction(answer: RailAnswer, here: PayoutState | null): PayoutDiscrepancyKind | null {
  const paidHere = here === 'SUCCESS' || here === 'REVERSED';
  if (answer.outcome === 'SUCCESS' && here === 'FAILED') return 'SUCCESS_AFTER_FAILED';
  if (answer.outcome === 'FAILED' && paidHere) return 'FAILED_AFTER_SUCCESS';
  if (answer.outcome === 'REVERSED' && here === 'FAILED') return 'REVERSAL_OF_UNPAID';
  return null;
}

/** How a rail answer reads in a payout event note: the outcome, and the rail's detail when it gave one. */
function describeRailAnswer(answer: RailAnswer): string {
  return answer.outcome === 'UNKNOWN' || answer.outcome === 'REFUSED'
    ? `${answer.outcome}: ${answer.detail}`
    : answer.outcome;
}

function instructionOf(payout: PayoutForWork): PayoutInstruction {
  return {
    reference: payout.ackNo,
    mode: payout.mode,
    amountPaise: payout.amountPaise,
    account: payout.account,
    ...(payout.ifsc ? { ifsc: payout.ifsc } : {}),
    beneficiaryName: payout.name,
  };
}
