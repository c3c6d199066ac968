import type { Queue } from 'bullmq';
import { bringChecksForward, type PrismaClient } from '@payout/db';
import type { BankName, PayoutMode } from '@payout/domain';
import { ensureJob, jobRequest, payoutJobs } from '@payout/queue';
import type { Logger } from '@payout/telemetry';

/** How many status checks one bank's return brought forward, and how their jobs were made due. */
export interface RecoveryResult {
  broughtForward: number;
  promoted: number;
  added: number;
}

/** Jobs made due at once, so a return with thousands of caught payouts takes seconds, not minutes. */
const IN_PARALLEL = 50;

/**
 * A bank's return, acted on at once (docs/banks.md, "When a bank comes back"): the payouts its outage caught
 * with an unknown outcome — a submit it answered 5xx, a status check it could not answer — would otherwise wait
 * for their next scheduled check, a quarter of an hour away for IMPS. Their checks are brought forward in
 * PostgreSQL and their delayed inquiry jobs run now; the bank's throttle paces the calls at its TPS, and each
 * answer acts by the usual rules (a NOT_FOUND from a bank serving again resubmits under the same reference).
 * Safe from every worker at once: a payout is brought forward once (see `bringChecksForward`).
 */
export class BankRecovery {
  constructor(
    private readonly options: {
      db: PrismaClient;
      queue: Queue;
      logger: Logger;
      /** How long a submit or a status check may take: a check due sooner is running, or due anyway. */
      inFlightMs: number;
      actor: string;
    },
  ) {}

  async askNow(bank: BankName, modes: readonly PayoutMode[], why: string): Promise<RecoveryResult> {
    const { db, queue, logger, inFlightMs, actor } = this.options;
    const due = await bringChecksForward(db, {
      bank,
      modes,
      inFlightMs,
      reason: `${why}: status check brought forward`,
      actor,
    });
    const result: RecoveryResult = { broughtForward: due.length, promoted: 0, added: 0 };
    for (let i = 0; i < due.length; i += IN_PARALLEL) {
      const actions = await Promise.all(
        due
          .slice(i, i + IN_PARALLEL)
          .map((payout) =>
            ensureJob(
              queue,
              jobRequest(payoutJobs.inquire, { payoutId: payout.id.toString(), attempt: payout.inquiryAttempts + 1 }),
              { dueNow: true },
            ),
          ),
      );
      for (const action of actions) {
        if (action === 'promoted') result.promoted++;
        if (action === 'added') result.added++;
      }
    }
    if (due.length) logger.info({ bank, modes, ...result }, `${why}: caught payouts asked about now`);
    return result;
  }
}
