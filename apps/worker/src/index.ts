export { inquirySchedulesOf, startWorker, type RunningWorker, type WorkerOverrides } from './worker-process.js';
export { PayoutDriver, type PayoutDriverOptions } from './payout-driver.js';
export { Sweeper, type SweepResult } from './sweeper.js';
