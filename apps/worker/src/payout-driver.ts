import { UnrecoverableError } from 'bullmq';
import {
  findPayoutForWork,
  settleFailure,
  settleSuccess,
  transitionPayout,
  type PayoutForWork,
  type PrismaClient,
  type TransitionNote,
} from '@payout/db';
import { inquiryDelayMs, isTerminal, nextStep, type InquirySchedule } from '@payout/domain';
import type { PayoutInstruction, RailAdapter, RailAnswer } from '@payout/rails';
import { maskAccount, type Logger, type ServiceMetrics } from '@payout/telemetry';
import type { InquiryScheduler } from './inquiry-scheduler.js';

export interface PayoutDriverOptions {
  db: PrismaClient;
  rail: RailAdapter;
  inquiries: InquiryScheduler;
  logger: Logger;
  /** Recorded as the actor of every event this driver writes. */
  actor: string;
  schedule: InquirySchedule;
  /** After this long since acceptance an undecided payout goes to manual review. */
  deadlineMs: number;
  /** How long a submit or an inquiry may take, rail time-out included: the payout's next check is after it. */
  railWindowMs: number;
  metrics?: ServiceMetrics;
  /** Called after this driver settled a payout, with the webhook delivery the settlement recorded (if any). */
  onSettled?: (payoutId: bigint, webhookDeliveryId: bigint | null) => void;
  now?: () => number;
}

/**
 * Drives a payout from ACCEPTED to SUCCESS or FAILED. Every step starts from what PostgreSQL says and
 * changes it with a guarded statement, so a job delivered twice, or run by two workers at once, finds
 * nothing to do the second time; and the rail is only ever sent the payout's own Ack_no, so sending it
 * again never pays twice.
 */
export class PayoutDriver {
  private readonly now: () => number;

  constructor(private readonly o: PayoutDriverOptions) {
    this.now = o.now ?? Date.now;
  }

  /** The execute job: claim an accepted payout, send it to the rail, act on the answer. */
  async execute(payoutId: bigint): Promise<string> {
    const payout = await this.load(payoutId);
    if (isTerminal(payout.state)) return `already ${payout.state}`;
    if (payout.state !== 'ACCEPTED') {
      // Another worker has it (or had it and died): the inquiry due at next_check_at finds out what happened.
      await this.o.inquiries.scheduleInquiry(payout.id, payout.inquiryAttempts + 1, this.msUntilCheck(payout));
      return `already ${payout.state}; inquiry ${payout.inquiryAttempts + 1} scheduled`;
    }
    const attempt = payout.submitAttempts + 1;
    const claim = await transitionPayout(
      this.o.db,
      payout.id,
      'SUBMITTING',
      { onlyFrom: ['ACCEPTED'], incrementSubmitAttempts: true, nextCheckAt: this.checkAfterRailCall() },
      this.note('sending the instruction to the rail', attempt),
    );
    if (!claim.moved) return `claimed elsewhere (was ${claim.from})`;
    return this.submit({ ...payout, state: 'SUBMITTING', submitAttempts: attempt });
  }

  /** Inquiry number `attempt`: ask the rail what became of an undecided payout, and act on the answer. */
  async inquire(payoutId: bigint, attempt: number): Promise<string> {
    const payout = await this.load(payoutId);
    if (isTerminal(payout.state) || payout.state === 'MANUAL_REVIEW') return `nothing to ask: ${payout.state}`;
    if (payout.state === 'ACCEPTED') return 'not sent yet: the execute job sends it';
    if (payout.inquiryAttempts !== attempt - 1) return `inquiry ${attempt} is stale (${payout.inquiryAttempts} made)`;

    // Claiming the inquiry number makes a duplicate delivery of this job a no-op.
    const claim = await transitionPayout(
      this.o.db,
      payout.id,
      payout.state,
      { claimInquiry: attempt, nextCheckAt: this.checkAfterRailCall() },
      this.note(`asking the rail (inquiry ${attempt})`, attempt),
    );
    if (!claim.moved) return `inquiry ${attempt} claimed elsewhere`;
    const claimed = { ...payout, inquiryAttempts: attempt };

    const answer = await this.o.rail.status(payout.ackNo);
    if (answer.outcome === 'NOT_FOUND' && !this.deadlinePassed(claimed)) {
      // The rail never got it (the submit was lost before it arrived): send it again, same reference.
      const resubmit = await transitionPayout(
        this.o.db,
        payout.id,
        'SUBMITTING',
        { incrementSubmitAttempts: true, nextCheckAt: this.checkAfterRailCall() },
        this.note(
          'the rail has no record of the instruction: sending it again under the same reference',
          claimed.submitAttempts + 1,
          answer,
        ),
      );
      if (!resubmit.moved) return 'resubmission claimed elsewhere';
      return this.submit({ ...claimed, state: 'SUBMITTING', submitAttempts: claimed.submitAttempts + 1 });
    }
    return this.apply(claimed, answer, `inquiry ${attempt}`);
  }

  private async submit(payout: PayoutForWork): Promise<string> {
    this.o.logger.info(
      { ackNo: payout.ackNo, mode: payout.mode, account: maskAccount(payout.account), attempt: payout.submitAttempts },
      'submitting payout to the rail',
    );
    const answer = await this.o.rail.submit(instructionOf(payout));
    return this.apply(payout, answer, `submit ${payout.submitAttempts}`);
  }

  /** Acts on what the rail said: settle, wait and ask again, or hand over to a person. */
  private async apply(payout: PayoutForWork, answer: RailAnswer, asked: string): Promise<string> {
    const step = nextStep(answer, this.deadlinePassed(payout));
    const attempt = payout.submitAttempts;
    const log = { ackNo: payout.ackNo, asked, outcome: answer.outcome };

    switch (step.kind) {
      case 'settle-success': {
        const result = await settleSuccess(
          this.o.db,
          payout.id,
          step.bankReference,
          this.note(`rail: SUCCESS (${asked})`, attempt, answer),
        );
        this.o.logger.info({ ...log, settled: result.moved }, 'payout settled SUCCESS');
        if (result.moved) this.countSettlement(payout, 'SUCCESS');
        if (result.moved) this.o.onSettled?.(payout.id, result.webhookDeliveryId);
        return result.moved ? 'SUCCESS' : `already settled (${result.from})`;
      }
      case 'settle-failure': {
        const result = await settleFailure(
          this.o.db,
          payout.id,
          step.reason,
          this.note(`rail: FAILED ${step.reason} (${asked})`, attempt, answer),
        );
        this.o.logger.info({ ...log, reason: step.reason, settled: result.moved }, 'payout settled FAILED');
        if (result.moved) this.countSettlement(payout, 'FAILED');
        if (result.moved) this.o.onSettled?.(payout.id, result.webhookDeliveryId);
        return result.moved ? `FAILED ${step.reason}` : `already settled (${result.from})`;
      }
      case 'inquire-later': {
        const inquiry = payout.inquiryAttempts + 1;
        const delay = inquiryDelayMs(inquiry, this.o.schedule);
        const moved = await transitionPayout(
          this.o.db,
          payout.id,
          step.state,
          { nextCheckAt: new Date(this.now() + delay) },
          this.note(`rail: ${answer.outcome} (${asked}); inquiry ${inquiry} in ${delay} ms`, attempt, answer),
        );
        if (!moved.moved) return `moved elsewhere (was ${moved.from})`;
        await this.o.inquiries.scheduleInquiry(payout.id, inquiry, delay);
        this.o.logger.info({ ...log, inquiry, delay }, 'payout undecided: inquiry scheduled');
        return `${step.state}; inquiry ${inquiry} scheduled`;
      }
      case 'manual-review': {
        const moved = await transitionPayout(
          this.o.db,
          payout.id,
          'MANUAL_REVIEW',
          { nextCheckAt: null },
          this.note(
            `still undecided after the ${Math.round(this.o.deadlineMs / 1000)} s deadline (${asked}: ${answer.outcome}); an operator must resolve it`,
            attempt,
            answer,
          ),
        );
        this.o.logger.warn(log, 'payout flagged for manual review');
        return moved.moved ? 'MANUAL_REVIEW' : `moved elsewhere (was ${moved.from})`;
      }
      case 'resubmit':
        // Only an inquiry can hear NOT_FOUND, and inquire() resubmits before calling apply.
        throw new Error('unexpected NOT_FOUND after a submit');
    }
  }

  private countSettlement(payout: PayoutForWork, outcome: 'SUCCESS' | 'FAILED'): void {
    const labels = { mode: payout.mode, outcome };
    this.o.metrics?.payoutsSettled.inc(labels);
    this.o.metrics?.acceptToSettle.observe(labels, (this.now() - payout.createdAt.getTime()) / 1000);
  }

  private async load(payoutId: bigint): Promise<PayoutForWork> {
    const payout = await findPayoutForWork(this.o.db, payoutId);
    if (!payout) throw new UnrecoverableError(`payout ${payoutId} does not exist`);
    return payout;
  }

  private note(reason: string, attempt: number, answer?: RailAnswer): TransitionNote {
    return { reason, actor: this.o.actor, attempt, railAnswer: answer };
  }

  private deadlinePassed(payout: PayoutForWork): boolean {
    return this.now() - payout.createdAt.getTime() > this.o.deadlineMs;
  }

  private checkAfterRailCall(): Date {
    return new Date(this.now() + this.o.railWindowMs);
  }

  private msUntilCheck(payout: PayoutForWork): number {
    return Math.max(0, (payout.nextCheckAt?.getTime() ?? this.now()) - this.now());
  }
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
