import { jobProcessor, payoutJobs } from '@payout/queue';
import type { PayoutDriver } from '../payout-driver.js';

/** Routes each job of the payouts queue to the driver (one handler per catalog entry). */
export function payoutProcessor(driver: PayoutDriver) {
  return jobProcessor(payoutJobs, {
    execute: (data) => driver.execute(BigInt(data.payoutId)),
    inquire: (data) => driver.inquire(BigInt(data.payoutId), data.attempt),
  });
}
