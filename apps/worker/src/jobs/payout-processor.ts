import { UnrecoverableError, type Job } from 'bullmq';
import { payoutJobs } from '@payout/queue';
import type { PayoutDriver } from '../payout-driver.js';

/**
 * Routes each job of the payouts queue to the driver. A payload that does not match the catalog can never
 * succeed, so it fails at once instead of retrying.
 */
export function payoutProcessor(driver: PayoutDriver) {
  return async (job: Job): Promise<string> => {
    switch (job.name) {
      case payoutJobs.execute.name: {
        const data = payoutJobs.execute.data.safeParse(job.data);
        if (!data.success) throw new UnrecoverableError(`bad ${job.name} payload`);
        return driver.execute(BigInt(data.data.payoutId));
      }
      case payoutJobs.inquire.name: {
        const data = payoutJobs.inquire.data.safeParse(job.data);
        if (!data.success) throw new UnrecoverableError(`bad ${job.name} payload`);
        return driver.inquire(BigInt(data.data.payoutId), data.data.attempt);
      }
      default:
        throw new UnrecoverableError(`unknown job ${job.name}`);
    }
  };
}
