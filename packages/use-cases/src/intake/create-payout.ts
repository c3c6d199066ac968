import {
  AppError,
  formatRupees,
  isSameInstruction,
  newAckNo,
  scheduleWindowProblem,
  type PayoutMode,
  type PayoutRequest,
} from '@payout/domain';
import type { MerchantCredentials, PayoutSummary } from '@payout/db';
import type { EnqueueOutcome, PayoutProducer } from '@payout/queue';
import { maskAccount, type Logger, type ServiceMetrics } from '@payout/telemetry';
import type { PayoutAccepter } from './payout-accepter.js';

/** Which of the merchant's own limits caps a payout of each mode (set by `pnpm cli merchant create|update`). */
export const MERCHANT_LIMIT: Record<PayoutMode, 'impsMaxPaise' | 'upiMaxPaise'> = {
  IMPS: 'impsMaxPaise',
  UPI: 'upiMaxPaise',
};

export interface CreatePayoutDeps {
  accepter: PayoutAccepter;
  producer: PayoutProducer;
  metrics: ServiceMetrics;
}

/** What the accept needs of the merchant paying out: who it is and its own limit per mode. */
export type IntakeMerchant = Pick<MerchantCredentials['merchant'], 'id' | 'impsMaxPaise' | 'upiMaxPaise'>;

/**
 * The lines an accept writes: only these two levels, so a caller can hand over a logger that is made only
 * when a line is written at a level that is on (apps/api's request lines: docs/performance.md, "The accept
 * path").
 */
export type IntakeLog = Pick<Logger, 'info' | 'warn'>;

/** One payout to accept: the merchant's request, and the log of the request (or command) carrying it. */
export interface CreatePayoutInput {
  merchant: IntakeMerchant;
  payout: PayoutRequest;
  log: IntakeLog;
}

/**
 * Accepts a merchant's payout: check the merchant's own limit, record and reserve it in one database
 * transaction, then queue the job that sends it to the rail. Returns the payout as it now stands:
 * PENDING when accepted, FAILED when the balance was short, or — for a repeat of the same TransactionID
 * and details — whatever state the first request reached. A repeat with other details is a conflict.
 */
export async function createPayout(deps: CreatePayoutDeps, input: CreatePayoutInput): Promise<PayoutSummary> {
  const recorded = await recordPayout(deps, input);
  // The job is queued without holding up the answer: the payout is already safe in PostgreSQL, and if
  // Redis does not take the job the sweeper queues it. A replay of a payout still waiting for its job
  // queues it again: harmless (the job id is the payout's), and it rescues a job lost between commit and
  // queue.
  if (recorded.state === 'ACCEPTED') queueExecution(deps, input.log, [recorded]);
  return recorded;
}

/**
 * The recording half of {@link createPayout}: the merchant's limit, the accept, the conflict rule, the
 * metrics and the log line; everything but queuing the job, which a bulk batch does once for all its items.
 */
export async function recordPayout(
  deps: Pick<CreatePayoutDeps, 'accepter' | 'metrics'>,
  { merchant, payout, log }: CreatePayoutInput,
): Promise<PayoutSummary> {
  const limit = merchant[MERCHANT_LIMIT[payout.mode]];
  if (payout.amountPaise > limit) {
    throw AppError.validation([
      { field: 'Amount', message: `Amount must be at most ${formatRupees(limit)} for this merchant` },
    ]);
  }

  // Only a scheduled payout asks anything more of the database, and only when its time is outside the window.
  if (payout.scheduledAt !== null)
    await refuseUnlessWithinWindow(deps.accepter, merchant.id, payout.transactionId, payout.scheduledAt);

  const { outcome, payout: recorded } = await deps.accepter.accept({
    merchantId: merchant.id,
    ackNo: newAckNo(),
    ...payout,
  });

  if (outcome === 'existing' && !isSameInstruction(recorded, payout)) {
    deps.metrics.payoutsAccepted.inc({ mode: payout.mode, outcome: 'conflict' });
    throw new AppError(
      'TRANSACTION_ID_CONFLICT',
      `TransactionID ${payout.transactionId} is already used for a different payout`,
      {
        details: { TransactionID: payout.transactionId },
      },
    );
  }

  deps.metrics.payoutsAccepted.inc({ mode: payout.mode, outcome: outcome === 'existing' ? 'replayed' : outcome });
  const context = { ackNo: recorded.ackNo, mode: recorded.mode, account: maskAccount(recorded.account) };
  if (outcome === 'rejected') log.info(context, 'payout refused: insufficient balance');
  if (outcome === 'existing') log.info({ ...context, state: recorded.state }, 'payout replayed');
  if (outcome === 'accepted') log.info(context, 'payout accepted');
  return recorded;
}

/**
 * A new payout's ScheduledAt must be one minute to 90 days ahead (docs/api.md, "Scheduling a payout"). A
 * request outside that window may still be a replay of a payout already scheduled — the window was checked
 * when it was accepted, and its time may be near or past by now — so it goes on to the accept, which answers
 * it as a replay or a conflict, when its TransactionID is already recorded; otherwise it is refused (422)
 * before anything is recorded or reserved.
 */
async function refuseUnlessWithinWindow(
  accepter: PayoutAccepter,
  merchantId: number,
  transactionId: string,
  scheduledAt: Date,
): Promise<void> {
  const problem = scheduleWindowProblem(scheduledAt, new Date());
  if (problem === null) return;
  if (await accepter.findRecorded(merchantId, transactionId)) return;
  throw AppError.validation([{ field: 'ScheduledAt', message: problem }]);
}

/**
 * Queues the execute jobs of payouts without waiting; if Redis does not take them, the sweeper queues them. A
 * scheduled payout's job is delayed until its time (docs/api.md, "Scheduling a payout").
 */
export function queueExecution(
  deps: Pick<CreatePayoutDeps, 'producer'>,
  log: IntakeLog,
  payouts: readonly PayoutSummary[],
): void {
  if (payouts.length === 0) return;
  if (!anyScheduled(payouts)) {
    reportUnqueued(log, payouts, deps.producer.enqueueExecute(payouts.map((p) => p.id)));
    return;
  }
  const now = payouts.filter((p) => p.scheduledAt === null);
  const later = payouts.filter((p): p is PayoutSummary & { scheduledAt: Date } => p.scheduledAt !== null);
  if (now.length > 0) reportUnqueued(log, now, deps.producer.enqueueExecute(now.map((p) => p.id)));
  reportUnqueued(log, later, deps.producer.enqueueScheduledExecute(later));
}

/** Whether any of the payouts is scheduled: a plain loop, as the accept of an unscheduled payout runs it too. */
function anyScheduled(payouts: readonly PayoutSummary[]): boolean {
  for (let i = 0; i < payouts.length; i++) if (payouts[i]!.scheduledAt !== null) return true;
  return false;
}

/** Logs the payouts Redis did not take, which the sweeper will queue. */
function reportUnqueued(
  log: IntakeLog,
  payouts: readonly Pick<PayoutSummary, 'ackNo'>[],
  queued: Promise<EnqueueOutcome>,
): void {
  void queued.then((outcome) => {
    if (outcome.queued) return;
    const ackNos = payouts
      .slice(-outcome.left)
      .slice(0, 20)
      .map((p) => p.ackNo);
    log.warn(
      { count: payouts.length, left: outcome.left, ackNos },
      `payouts recorded but not queued: Redis ${outcome.why === 'timed out' ? 'did not answer in time' : 'refused them'}; the sweeper will queue them`,
    );
  });
}
