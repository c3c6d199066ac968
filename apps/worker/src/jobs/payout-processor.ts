import { jobProcessor, payoutJobs } from '@payout/queue';
import type { PayoutDriver } from '../payout-driver.js';
import { runOrDelay } from './run-again-later.js';

/**
 * Routes each job of the payouts queue to the driver (one handler per catalog entry). A payout held for want
 * of a bank, or at a paused bank, comes back to the same job later (RunAgainLater).
 */
export function payoutProcessor(driver: PayoutDriver) {
  return jobProcessor(payoutJobs, {
    execute: (data, job, token) => runOrDelay(job, token, () => driver.execute(BigInt(data.payoutId))),
    inquire: (data, job, token) => runOrDelay(job, token, () => driver.inquire(BigInt(data.payoutId), data.attempt)),
  });
}
